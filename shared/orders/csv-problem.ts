import * as z from 'zod/mini';
import { CSV_COLUMNS } from './order.ts';

/**
 * Why the CSV import refused a line (docs/orders.md, "Any other store: the CSV import"), as data: the desk says it in
 * its own language (bff/desk/order-messages/), the API answers it beside an English `reason` for scripts and logs.
 */
export const CsvProblemSchema = /* @__PURE__ */ z.discriminatedUnion('code', [
  z.object({ code: z.literal('field_count'), fields: z.int(), expected: z.int() }),
  z.object({ code: z.literal('empty'), column: z.string() }),
  z.object({ code: z.literal('quantity') }),
  z.object({ code: z.literal('weight') }),
  z.object({ code: z.literal('money') }),
  z.object({ code: z.literal('uf') }),
  z.object({ code: z.literal('cpf_cnpj') }),
  z.object({ code: z.literal('differs'), column: z.string(), firstLine: z.int() }),
  z.object({ code: z.literal('order_refused'), orderId: z.string() }),
  z.object({ code: z.literal('exists'), orderId: z.string() }),
  z.object({ code: z.literal('invalid') }),
  // The file's own problems: each refuses the whole file (a 400 naming the line), nothing is read past it.
  z.object({ code: z.literal('unknown_column'), column: z.string() }),
  z.object({ code: z.literal('repeated_column'), column: z.string() }),
  z.object({ code: z.literal('missing_columns'), columns: z.array(z.string()) }),
  z.object({ code: z.literal('unclosed_quote') }),
  z.object({ code: z.literal('too_many_lines'), max: z.int() }),
]);
export type CsvProblem = z.infer<typeof CsvProblemSchema>;

/** One refused line: its number, the problem, and the problem in English. */
export const CsvRefusalSchema = /* @__PURE__ */ z.object({
  line: z.int(),
  reason: z.string(),
  problem: z.optional(CsvProblemSchema),
});
export type CsvRefusal = z.infer<typeof CsvRefusalSchema>;

/**
 * The `400` that refuses a whole file (its header, an unclosed quote, too many lines): the line and the problem beside
 * the English message, as a refused row says them.
 */
export const CsvFileRefusalSchema = /* @__PURE__ */ z.object({
  error: z.object({
    code: z.literal('invalid_body'),
    message: z.string(),
    line: z.int(),
    problem: CsvProblemSchema,
  }),
});

/** The English words of a problem (the API's `reason`, the logs). */
export function csvReason(problem: CsvProblem): string {
  switch (problem.code) {
    case 'field_count':
      return `has ${problem.fields} fields; the header has ${problem.expected}`;
    case 'empty':
      return `${problem.column}: is empty`;
    case 'quantity':
      return 'quantidade: must be a whole number from 1 to 999';
    case 'weight':
      return 'pesoGramas: must be whole grams, at least 1';
    case 'money':
      return 'valor: must be BRL, e.g. 49.90';
    case 'uf':
      return 'uf: must be 2 letters';
    case 'cpf_cnpj':
      return 'cpfCnpj: must have 11 or 14 digits';
    case 'differs':
      return `${problem.column}: differs from line ${problem.firstLine}, the order's first line (leave it empty or repeat it)`;
    case 'order_refused':
      return `order ${problem.orderId} is refused for its other lines`;
    case 'exists':
      return `order ${problem.orderId} already exists`;
    case 'invalid':
      return 'a field is too long or not valid';
    case 'unknown_column':
      return `unknown column "${problem.column}"; the columns are ${CSV_COLUMNS.join(',')}`;
    case 'repeated_column':
      return `the column ${problem.column} is given twice`;
    case 'missing_columns':
      return `missing columns ${problem.columns.join(', ')}`;
    case 'unclosed_quote':
      return 'a quoted field is never closed';
    case 'too_many_lines':
      return `at most ${problem.max} lines per import; split the file`;
  }
}

/** A refusal of `line` for `problem`. */
export function csvRefusal(line: number, problem: CsvProblem): CsvRefusal {
  return { line, reason: csvReason(problem), problem };
}
