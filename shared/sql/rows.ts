import * as z from 'zod/mini';

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** A row's columns under the names the code uses: `created_at` → `createdAt`. */
export type CamelCased<T> = { [K in keyof T as Camel<K & string>]: T[K] };

/** A column that may be absent from older rows or narrower queries: null then, as a NULL is. */
export function nullish<T extends z.ZodMiniType>(schema: T) {
  return z._default(z.nullable(schema), null);
}

/** An INTEGER 0/1 column as a boolean. */
export const flag = z.pipe(
  z.number(),
  z.transform((value) => value === 1),
);

/**
 * A stored row (node:sqlite or PostgreSQL) read through `schema` (its snake_case columns), so a hand-edited row cannot
 * slip an unknown value in, and answered under camelCase names.
 */
export function fromRow<T extends Record<string, unknown>>(
  schema: z.ZodMiniType<T>,
  row: unknown,
): CamelCased<T> {
  const entries = Object.entries(schema.parse(row));
  return Object.fromEntries(
    entries.map(([column, value]) => [
      column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  ) as CamelCased<T>;
}
