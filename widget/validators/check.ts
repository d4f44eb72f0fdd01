/**
 * The JSON Schema keywords zod writes for the widgets' schemas (`z.toJSONSchema`, draft 2020-12, `io: "input"`), read
 * by one small function instead of compiled to code per schema: the schemas travel as data (codegen.ts), and the
 * check of every shape costs the widgets' budgets once. codegen.test.ts holds every validator to zod's own answers.
 */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `value` has the shape of `schema`, as zod's `safeParse` answers; a missing property with a `default` is set
 * to it (as zod's output has it). Only the keywords the widgets' schemas use (codegen.test.ts fails on any other).
 */
export function conforms(schema: JsonSchema, value: unknown): boolean {
  const { type } = schema;
  if ('const' in schema && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'number' || type === 'integer')
    return (
      // finite: JSON holds no other number, and isJsonValue refuses them from a store's script
      typeof value === 'number' &&
      (type === 'number' || Number.isSafeInteger(value)) &&
      value >= (schema.minimum ?? -Infinity) &&
      value <= (schema.maximum ?? Infinity) &&
      value > (schema.exclusiveMinimum ?? -Infinity)
    );
  if (type === 'string')
    return (
      typeof value === 'string' &&
      (!schema.pattern || new RegExp(schema.pattern, 'u').test(value)) &&
      (schema.format !== 'date' || isDate(value))
    );
  if (type === 'array') {
    const { items } = schema;
    return Array.isArray(value) && (!items || value.every((item) => conforms(items, item)));
  }
  if (type !== 'object') return true;
  if (!isObject(value)) return false;
  const properties = schema.properties ?? {};
  const present = (key: string) => Object.hasOwn(value, key) && value[key] !== undefined;
  if (!(schema.required ?? []).every(present)) return false;
  for (const [key, property] of Object.entries(properties)) {
    if (!present(key)) {
      if ('default' in property) value[key] = property.default;
    } else if (!conforms(property, value[key])) return false;
  }
  const extra = schema.additionalProperties ?? true;
  return Object.keys(value).every(
    (key) =>
      Object.hasOwn(properties, key) || extra === true || (extra !== false && conforms(extra, value[key])),
  );
}

/** A real calendar date `YYYY-MM-DD` (zod's `z.iso.date()`: leap years included). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Whether JSON would give `value` back as it is: what a store's script hands the calculator must reach the platform
 * unchanged as JSON text (no `NaN`, `Infinity`, `undefined`, `Date`, class instance or hole).
 */
export function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonValue(value[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isJsonValue);
}
