import { CsvSyntaxError, parseCsv } from '../../shared/orders/csv.ts';
import { type CsvProblem, type CsvRefusal, csvRefusal } from '../../shared/orders/csv-problem.ts';
import type { OrderRecipient } from '../../shared/orders/order.ts';
import {
  CSV_COLUMNS,
  type CsvColumn,
  OPTIONAL_CSV_COLUMNS,
  type OrderItem,
  type StoreOrder,
  StoreOrderSchema,
} from '../../shared/orders/order.ts';
import { type ReviewDeps, reviewed } from './review.ts';

/** The most lines one import takes (a day of a busy store, one line per item). */
export const MAX_IMPORT_LINES = 5000;

/** The whole file is refused (its header, its grammar, its length): nothing is read past it. */
export class CsvRefused extends Error {
  override readonly name = 'CsvRefused';
  /** The line and problem, as a row's refusal says them (the desk says the problem in its language). */
  readonly refusal: CsvRefusal;

  constructor(line: number, problem: CsvProblem) {
    const refusal = csvRefusal(line, problem);
    super(`line ${line}: ${refusal.reason}`);
    this.refusal = refusal;
  }
}

export type { CsvRefusal };

/** The template's first line: the columns, in the documented order. */
export const CSV_TEMPLATE = `${CSV_COLUMNS.join(',')}\n`;

/** The item's columns; every other is the recipient's (and the service), which an order's later lines repeat or leave empty. */
const ITEM_COLUMNS: readonly CsvColumn[] = ['orderId', 'item', 'quantidade', 'pesoGramas', 'valor'];
const RECIPIENT_COLUMNS = CSV_COLUMNS.filter((column) => !ITEM_COLUMNS.includes(column));

interface Line {
  line: number;
  value: (column: CsvColumn) => string;
}

/**
 * The orders of a CSV file (docs/orders.md, "Any other store: the CSV import"): a header line with the documented columns, in any order
 * (an unknown, repeated or missing required column refuses the whole file), then one line per item; lines with the
 * same `orderId` are one order. A line that is wrong refuses its order (with every line of it, each said); the other
 * orders are read. Each order is then reviewed like a store's (the CEP checked, empty fields named).
 */
export async function readOrdersCsv(
  text: string,
  deps: ReviewDeps,
): Promise<{ orders: { order: StoreOrder; lines: number[] }[]; refused: CsvRefusal[] }> {
  let table: ReturnType<typeof parseCsv>;
  try {
    table = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new CsvRefused(error.line, { code: 'unclosed_quote' });
    throw error;
  }
  const columns = headerOf(table.header);
  const beyond = table.rows[MAX_IMPORT_LINES];
  if (beyond) throw new CsvRefused(beyond.line, { code: 'too_many_lines', max: MAX_IMPORT_LINES });
  const refused: CsvRefusal[] = [];
  const byOrder = new Map<string, Line[]>();
  for (const row of table.rows) {
    if (row.fields.length !== table.header.length) {
      refused.push(
        csvRefusal(row.line, {
          code: 'field_count',
          fields: row.fields.length,
          expected: table.header.length,
        }),
      );
      continue;
    }
    const value = (column: CsvColumn) => (row.fields[columns.get(column) ?? -1] ?? '').trim();
    const orderId = value('orderId');
    if (!orderId) {
      refused.push(csvRefusal(row.line, { code: 'empty', column: 'orderId' }));
      continue;
    }
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), { line: row.line, value }]);
  }
  const orders: { order: StoreOrder; lines: number[] }[] = [];
  for (const [orderId, lines] of byOrder) {
    const problems = lines.flatMap((line, i) => problemsOf(line, lines[0] as Line, i === 0));
    if (problems.length > 0) {
      const bad = new Set(problems.map((p) => p.line));
      refused.push(...problems);
      for (const line of lines)
        if (!bad.has(line.line)) refused.push(csvRefusal(line.line, { code: 'order_refused', orderId }));
      continue;
    }
    const first = lines[0] as Line;
    const draft = {
      orderId,
      source: 'csv' as const,
      ...(first.value('serviceId') ? { serviceId: first.value('serviceId') } : {}),
      recipient: recipientOf(first),
      items: lines.map(itemOf),
    };
    const order = StoreOrderSchema.safeParse(await reviewed(draft, deps));
    if (!order.success) {
      for (const line of lines) refused.push(csvRefusal(line.line, { code: 'invalid' }));
      continue;
    }
    orders.push({ order: order.data, lines: lines.map((line) => line.line) });
  }
  refused.sort((a, b) => a.line - b.line);
  return { orders, refused };
}

function headerOf(header: readonly string[]): Map<CsvColumn, number> {
  const columns = new Map<CsvColumn, number>();
  const known = (name: string): name is CsvColumn => (CSV_COLUMNS as readonly string[]).includes(name);
  header.forEach((name, i) => {
    if (!known(name)) throw new CsvRefused(1, { code: 'unknown_column', column: name.slice(0, 40) });
    if (columns.has(name)) throw new CsvRefused(1, { code: 'repeated_column', column: name });
    columns.set(name, i);
  });
  const missing = CSV_COLUMNS.filter((name) => !OPTIONAL_CSV_COLUMNS.includes(name) && !columns.has(name));
  if (missing.length > 0) throw new CsvRefused(1, { code: 'missing_columns', columns: missing });
  return columns;
}

const NUMBER = /^\d+(?:[.,]\d{1,2})?$/;
/** "12,50" (Brazilian spreadsheets) or "12.50". */
const money = (text: string) => Number(text.replace(',', '.'));

/**
 * What is wrong with one line: its item, and its recipient against the order's first line. An empty or malformed
 * address part (the name, the CEP, the street, its number, the city, the UF) is not refused: the order goes to review,
 * as a store's order does (review.ts).
 */
function problemsOf(line: Line, first: Line, isFirst: boolean): CsvRefusal[] {
  const problems: CsvProblem[] = [];
  const { value } = line;
  if (!value('item')) problems.push({ code: 'empty', column: 'item' });
  if (!/^\d{1,3}$/.test(value('quantidade')) || Number(value('quantidade')) < 1)
    problems.push({ code: 'quantity' });
  if (!/^\d{1,6}$/.test(value('pesoGramas')) || Number(value('pesoGramas')) < 1)
    problems.push({ code: 'weight' });
  if (!NUMBER.test(value('valor'))) problems.push({ code: 'money' });
  if (isFirst) {
    // Empty goes to review; a UF that is not two letters cannot be one.
    if (value('uf') && !/^[A-Za-z]{2}$/.test(value('uf'))) problems.push({ code: 'uf' });
    const cpfCnpj = value('cpfCnpj').replace(/\D/g, '');
    if (value('cpfCnpj') && cpfCnpj.length !== 11 && cpfCnpj.length !== 14)
      problems.push({ code: 'cpf_cnpj' });
  } else {
    for (const column of RECIPIENT_COLUMNS)
      if (value(column) && value(column) !== first.value(column))
        problems.push({ code: 'differs', column, firstLine: first.line });
  }
  return problems.map((problem) => csvRefusal(line.line, problem));
}

function recipientOf(line: Line): OrderRecipient {
  const { value } = line;
  const optional = (column: CsvColumn, key: string) => (value(column) ? { [key]: value(column) } : {});
  return {
    nome: value('nome'),
    ...(value('cpfCnpj') ? { cpfCnpj: value('cpfCnpj').replace(/\D/g, '') } : {}),
    ...optional('email', 'email'),
    ...optional('telefone', 'telefone'),
    endereco: {
      cep: value('cep'),
      logradouro: value('logradouro'),
      numero: value('numero'),
      ...optional('complemento', 'complemento'),
      bairro: value('bairro'),
      cidade: value('cidade'),
      uf: value('uf').toUpperCase(),
    },
  };
}

function itemOf(line: Line): OrderItem {
  const { value } = line;
  return {
    name: value('item').slice(0, 200),
    quantity: Number(value('quantidade')),
    weightGrams: Number(value('pesoGramas')),
    valor: money(value('valor')),
  };
}
