import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvFileRefusalSchema, type CsvProblem, csvReason } from '../../shared/orders/csv-problem.ts';
import { CSV_COLUMNS } from '../../shared/orders/order.ts';
import { MAX_IMPORT_LINES } from './csv-import.ts';
import { type OrderStack, startOrderStack } from './testing.ts';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack({}, { orders: { timers: false } });
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

const HEADER =
  'orderId,nome,cep,logradouro,numero,bairro,cidade,uf,item,quantidade,pesoGramas,valor,serviceId';
const line = (orderId: string, item: string, change: Partial<Record<string, string>> = {}) => {
  const fields: Record<string, string> = {
    orderId,
    nome: 'Rita Moura',
    cep: '01310-100',
    logradouro: 'Avenida Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
    item,
    quantidade: '1',
    pesoGramas: '500',
    valor: '49,90',
    serviceId: 'correios-pac',
    ...change,
  };
  return HEADER.split(',')
    .map((column) => (/[,"]/.test(fields[column] ?? '') ? `"${fields[column]}"` : (fields[column] ?? '')))
    .join(',');
};
const importCsv = (text: string, query = '') =>
  stack.desk.post(`/admin/api/orders/import${query}`, text, { 'content-type': 'text/csv' });

describe('the CSV import', () => {
  it('answers the template: the header line with every documented column', async () => {
    const res = await stack.desk.get('/admin/api/orders/import/template');
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await res.text()).toBe(`${CSV_COLUMNS.join(',')}\n`);
  });

  it('previews, then imports the good orders and reports every refused line with why', async () => {
    const csv = [
      HEADER,
      line('PED-1', 'Camiseta'),
      line('PED-1', 'Boné', { nome: '', cep: '' }),
      line('PED-2', 'Caneca', { pesoGramas: 'meio quilo' }),
      line('PED-2', 'Pires'),
      line('PED-3', 'Livro', { cep: '1310-100' }),
      line('PED-4', 'Quadro', { nome: 'Outra Pessoa' }),
      line('PED-4', 'Moldura', { nome: 'Mais Outra' }),
      line('PED-5', 'Vaso', { cidade: 'Campinas' }),
      line('PED-6', 'Prato', { numero: '' }),
    ].join('\n');
    const preview = await importCsv(csv, '?preview=1');
    expect(preview.status).toBe(200);
    const seen = (await preview.json()) as {
      preview: true;
      orders: { orderId: string }[];
      refused: unknown[];
    };
    expect(seen.orders.map((o) => o.orderId)).toEqual(['PED-1', 'PED-3', 'PED-5', 'PED-6']);
    expect((await (await stack.desk.get('/admin/api/orders')).json()).orders).toEqual([]);
    const res = await importCsv(csv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      imported: 4,
      refused: [
        {
          line: 4,
          reason: 'pesoGramas: must be whole grams, at least 1',
          problem: { code: 'weight' },
        },
        {
          line: 5,
          reason: 'order PED-2 is refused for its other lines',
          problem: { code: 'order_refused', orderId: 'PED-2' },
        },
        {
          line: 7,
          reason: 'order PED-4 is refused for its other lines',
          problem: { code: 'order_refused', orderId: 'PED-4' },
        },
        {
          line: 8,
          reason: "nome: differs from line 7, the order's first line (leave it empty or repeat it)",
          problem: { code: 'differs', column: 'nome', firstLine: 7 },
        },
      ],
    });
    const listed = (await (await stack.desk.get('/admin/api/orders')).json()) as {
      orders: {
        orderId: string;
        items: { name: string; valor: number }[];
        needsReview: { field: string; reason: string }[];
      }[];
    };
    expect(listed.orders.find((o) => o.orderId === 'PED-1')?.items).toMatchObject([
      { name: 'Camiseta', valor: 49.9 },
      { name: 'Boné' },
    ]);
    // A city the CEP disagrees with is imported and flagged, never corrected silently.
    expect(listed.orders.find((o) => o.orderId === 'PED-5')?.needsReview).toEqual([
      { field: 'recipient.endereco.cidade', reason: 'city_mismatch', detail: 'São Paulo' },
    ]);
    // A malformed CEP and a missing street number go to review, as a store's order does (review.ts).
    expect(listed.orders.find((o) => o.orderId === 'PED-3')?.needsReview).toEqual([
      { field: 'recipient.endereco.cep', reason: 'malformed', detail: '1310-100' },
    ]);
    expect(listed.orders.find((o) => o.orderId === 'PED-6')?.needsReview).toEqual([
      { field: 'recipient.endereco.numero', reason: 'missing' },
    ]);
    // The same file again: every order exists already.
    const again = (await (await importCsv(csv)).json()) as {
      imported: number;
      refused: { reason: string }[];
    };
    expect(again.imported).toBe(0);
    expect(again.refused.map((r) => r.reason)).toContain('order PED-1 already exists');
  });

  it('refuses a file with an unknown, repeated or missing column, an unclosed quote or too many lines, naming the line and the problem, and imports nothing', async () => {
    const rows = (count: number) => Array.from({ length: count }, (_, i) => line(`PED-X${i}`, 'Item'));
    const cases: [string, number, CsvProblem][] = [
      [`${HEADER},desconto\n${line('PED-X', 'Item')},`, 1, { code: 'unknown_column', column: 'desconto' }],
      [`${HEADER},nome\n${line('PED-X', 'Item')},`, 1, { code: 'repeated_column', column: 'nome' }],
      [
        `${HEADER.replace(',pesoGramas', '').replace(',uf', '')}\n${line('PED-X', 'Item')}`,
        1,
        { code: 'missing_columns', columns: ['uf', 'pesoGramas'] },
      ],
      [`${HEADER}\n${line('PED-X', 'Item')}\nPED-Y,"Rita Moura,01310-100\n`, 3, { code: 'unclosed_quote' }],
      [
        [HEADER, ...rows(MAX_IMPORT_LINES + 1)].join('\n'),
        MAX_IMPORT_LINES + 2,
        { code: 'too_many_lines', max: 5000 },
      ],
    ];
    for (const [csv, lineNumber, problem] of cases) {
      const res = await importCsv(csv);
      expect(res.status, problem.code).toBe(400);
      const body = CsvFileRefusalSchema.parse(await res.json());
      expect(body.error, problem.code).toEqual({
        code: 'invalid_body',
        message: `line ${lineNumber}: ${csvReason(problem)}`,
        line: lineNumber,
        problem,
      });
    }
    const listed = (await (await stack.desk.get('/admin/api/orders')).json()) as {
      orders: { orderId: string }[];
    };
    expect(listed.orders.map((o) => o.orderId).filter((id) => id.startsWith('PED-X'))).toEqual([]);
  });

  it('takes the columns in any order, and semicolons as Excel writes them', async () => {
    const res = await importCsv(
      'valor;item;quantidade;pesoGramas;orderId;nome;cep;logradouro;numero;cidade;uf\n10,50;Meia;2;100;PED-9;Zé;01310-100;Av. Paulista;1;São Paulo;SP\n',
    );
    expect(await res.json()).toEqual({ imported: 1, refused: [] });
  });
});
