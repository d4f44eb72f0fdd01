import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../shared/orders/order.ts';
import { CSV_TEMPLATE, CsvRefused, MAX_IMPORT_LINES, readOrdersCsv } from './csv-import.ts';
import type { ReviewDeps } from './review.ts';
import { PAULISTA } from './testing/desk.ts';

/**
 * The CSV import's reading (docs/orders.md, "Any other store: the CSV import") in process, with a scripted CEP
 * lookup: csv-import.test.ts states the same through the desk's API on a started BFF and sandbox.
 */
const deps: ReviewDeps = {
  cep: { lookup: async (cep) => (cep === '20040020' ? { kind: 'uf_only', uf: 'RJ' } : PAULISTA) },
  serviceCodes: { codeOf: (serviceId) => (serviceId === 'pac' ? '03298' : undefined) },
};

const HEADER = CSV_COLUMNS.join(',');
type Fields = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;
const GOOD: Fields = {
  orderId: 'PED-1',
  nome: 'Ana Souza',
  cpfCnpj: '',
  email: '',
  telefone: '',
  cep: '01310-100',
  logradouro: 'Av. Paulista',
  numero: '1000',
  complemento: '',
  bairro: 'Bela Vista',
  cidade: 'São Paulo',
  uf: 'SP',
  item: 'Caneca',
  quantidade: '1',
  pesoGramas: '400',
  valor: '30',
  serviceId: 'pac',
};
/** One line, a field with a comma quoted as spreadsheets write it. */
const line = (fields: Fields = {}) =>
  CSV_COLUMNS.map((column) => {
    const value = { ...GOOD, ...fields }[column] ?? '';
    return value.includes(',') ? `"${value}"` : value;
  }).join(',');
const csv = (...lines: string[]) => `${HEADER}\n${lines.join('\n')}\n`;
const read = (text: string) => readOrdersCsv(text, deps);
const reasons = async (text: string) =>
  (await read(text)).refused.map((r) =>
    `${r.line}: ${r.problem?.code} ${'column' in (r.problem ?? {}) ? (r.problem as { column: string }).column : ''}`.trim(),
  );

describe('a CSV file’s header', () => {
  it('is the template’s first line: every documented column', () => {
    expect(CSV_TEMPLATE).toBe(`${HEADER}\n`);
  });

  it('refuses the whole file for an unknown column (its name cut to 40), a repeated one or a missing one', async () => {
    const refusal = (text: string) =>
      read(text).then(
        () => undefined,
        (error: unknown) => (error instanceof CsvRefused ? error.refusal : error),
      );
    expect(await refusal(`${HEADER},${'x'.repeat(50)}\n`)).toMatchObject({
      line: 1,
      problem: { code: 'unknown_column', column: 'x'.repeat(40) },
    });
    expect(await refusal(`${HEADER},nome\n`)).toMatchObject({
      line: 1,
      problem: { code: 'repeated_column', column: 'nome' },
    });
    const without = CSV_COLUMNS.filter((c) => c !== 'nome' && c !== 'cep' && c !== 'bairro').join(',');
    expect(await refusal(`${without}\n`)).toMatchObject({
      line: 1,
      problem: { code: 'missing_columns', columns: ['nome', 'cep'] },
    });
  });

  it('takes a file without the optional columns', async () => {
    const columns = CSV_COLUMNS.filter(
      (c) => !['cpfCnpj', 'email', 'telefone', 'complemento', 'bairro', 'serviceId'].includes(c),
    );
    const row = columns.map((c) => GOOD[c]).join(',');
    const { orders, refused } = await read(`${columns.join(',')}\n${row}\n`);
    expect(refused).toEqual([]);
    expect(orders[0]?.order.recipient.endereco.bairro).toBe('Bela Vista');
    expect(orders[0]?.order.serviceId).toBeUndefined();
  });

  it('refuses text that is not CSV, and a file over the line limit', async () => {
    const refusal = await read(`${HEADER}\n"PED-1,Ana\n`).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CsvRefused);
    expect(refusal).toMatchObject({
      name: 'CsvRefused',
      refusal: { line: 2, problem: { code: 'unclosed_quote' } },
    });
    const many = Array.from({ length: MAX_IMPORT_LINES + 1 }, (_, i) => line({ orderId: `P${i}` }));
    const tooMany = await read(csv(...many)).catch((error: unknown) => error);
    expect(tooMany).toMatchObject({
      refusal: { line: MAX_IMPORT_LINES + 2, problem: { code: 'too_many_lines', max: MAX_IMPORT_LINES } },
    });
  });

  it('reads exactly the limit', async () => {
    const lines = Array.from({ length: MAX_IMPORT_LINES }, (_, i) => line({ orderId: `P${i}`, item: '' }));
    expect((await read(csv(...lines))).refused).toHaveLength(MAX_IMPORT_LINES);
  });
});

describe('a CSV file’s orders', () => {
  it('makes one order of the lines of one orderId, the recipient from its first line, each line an item', async () => {
    const { orders, refused } = await read(
      csv(
        line({
          cpfCnpj: '123.456.789-09',
          email: 'ana@example.com',
          telefone: '11 99999-0000',
          complemento: 'ap 3',
          uf: 'sp',
        }),
        line({ orderId: 'PED-2', item: 'Boné', valor: '12,50' }),
        line({
          nome: '',
          cep: '',
          uf: '',
          item: 'Camiseta',
          quantidade: '2',
          pesoGramas: '150',
          valor: '49.90',
          serviceId: '',
        }),
      ),
    );
    expect(refused).toEqual([]);
    expect(orders.map((o) => [o.order.orderId, o.lines])).toEqual([
      ['PED-1', [2, 4]],
      ['PED-2', [3]],
    ]);
    expect(orders[0]?.order).toEqual({
      orderId: 'PED-1',
      source: 'csv',
      serviceId: 'pac',
      recipient: {
        nome: 'Ana Souza',
        cpfCnpj: '12345678909',
        email: 'ana@example.com',
        telefone: '11 99999-0000',
        endereco: {
          cep: '01310100',
          logradouro: 'Av. Paulista',
          numero: '1000',
          complemento: 'ap 3',
          bairro: 'Bela Vista',
          cidade: 'São Paulo',
          uf: 'SP',
        },
      },
      items: [
        { name: 'Caneca', quantity: 1, weightGrams: 400, valor: 30 },
        { name: 'Camiseta', quantity: 2, weightGrams: 150, valor: 49.9 },
      ],
      needsReview: [],
    });
    expect(orders[1]?.order.items).toEqual([{ name: 'Boné', quantity: 1, weightGrams: 400, valor: 12.5 }]);
    expect(orders[1]?.order.recipient).not.toHaveProperty('cpfCnpj');
    expect(orders[1]?.order.recipient).not.toHaveProperty('email');
    expect(orders[1]?.order.recipient).not.toHaveProperty('telefone');
    expect(orders[1]?.order.recipient.endereco).not.toHaveProperty('complemento');
  });

  it('keeps the line’s neighbourhood, city and UF where the CEP’s address would say otherwise', async () => {
    const { orders } = await read(
      csv(
        line({ bairro: 'Jardins', cidade: 'Sao Paulo' }),
        line({ orderId: 'RJ-1', cep: '20040-020', bairro: 'Centro', cidade: 'Rio de Janeiro', uf: 'rj' }),
      ),
    );
    expect(orders[0]?.order.recipient.endereco).toMatchObject({
      bairro: 'Jardins',
      cidade: 'Sao Paulo',
      uf: 'SP',
    });
    expect(orders[1]?.order.recipient.endereco).toMatchObject({
      bairro: 'Centro',
      cidade: 'Rio de Janeiro',
      uf: 'RJ',
    });
    expect(orders[1]?.order.needsReview).toEqual([]);
  });

  it('trims every field, and an order without a service goes to review', async () => {
    const { orders } = await read(csv(line({ orderId: ' PED-9 ', item: ' Caneca ', serviceId: '' })));
    expect(orders[0]?.order.orderId).toBe('PED-9');
    expect(orders[0]?.order.items[0]?.name).toBe('Caneca');
    expect(orders[0]?.order.needsReview).toEqual([{ field: 'serviceId', reason: 'missing' }]);
  });

  it('refuses a line of another field count, and one without an orderId, and reads the others', async () => {
    const { orders, refused } = await read(csv('PED-3,Ana', line({ orderId: ' ' }), line()));
    expect(orders.map((o) => o.order.orderId)).toEqual(['PED-1']);
    expect(refused).toEqual([
      {
        line: 2,
        reason: `has 2 fields; the header has ${CSV_COLUMNS.length}`,
        problem: { code: 'field_count', fields: 2, expected: CSV_COLUMNS.length },
      },
      { line: 3, reason: 'orderId: is empty', problem: { code: 'empty', column: 'orderId' } },
    ]);
  });

  it('refuses a wrong item: no name, a quantity or weight that is not 1 or more whole, a value that is not BRL', async () => {
    const wrong = [
      { item: '' },
      { quantidade: '0' },
      { quantidade: '1000' },
      { quantidade: '1.5' },
      { pesoGramas: '0' },
      { pesoGramas: '1000000' },
      { pesoGramas: 'x1' },
      { valor: '1.999' },
      { valor: 'R$ 1' },
      { valor: '.5' },
    ];
    expect(await reasons(csv(...wrong.map((fields, i) => line({ orderId: `P${i}`, ...fields }))))).toEqual([
      '2: empty item',
      '3: quantity',
      '4: quantity',
      '5: quantity',
      '6: weight',
      '7: weight',
      '8: weight',
      '9: money',
      '10: money',
      '11: money',
    ]);
    const right = [
      { quantidade: '999', pesoGramas: '100000', valor: '0' },
      { pesoGramas: '1', valor: '1,5' },
    ];
    expect(await reasons(csv(...right.map((fields, i) => line({ orderId: `P${i}`, ...fields }))))).toEqual(
      [],
    );
    // six digits pass the line's check; the order's rules then refuse more than 100 kg
    expect(await reasons(csv(line({ pesoGramas: '999999' })))).toEqual(['2: invalid']);
  });

  it('refuses a UF that cannot be one and a CPF/CNPJ of other than 11 or 14 digits; empty ones go to review', async () => {
    const lines = [
      { uf: 'SPX' },
      { uf: '1SP' },
      { cpfCnpj: '1234567890' },
      { cpfCnpj: '123456789012' },
      { cpfCnpj: '12.345.678/0001-95' },
      { uf: '', cpfCnpj: '' },
    ];
    const { orders } = await read(csv(...lines.map((fields, i) => line({ orderId: `P${i}`, ...fields }))));
    expect(await reasons(csv(...lines.map((fields, i) => line({ orderId: `P${i}`, ...fields }))))).toEqual([
      '2: uf',
      '3: uf',
      '4: cpf_cnpj',
      '5: cpf_cnpj',
    ]);
    expect(orders.map((o) => o.order.orderId)).toEqual(['P4', 'P5']);
    expect(orders[0]?.order.recipient.cpfCnpj).toBe('12345678000195');
    expect(orders[1]?.order.recipient.endereco.uf).toBe('SP');
  });

  it('refuses an order whose later line names another recipient, with each of its other lines', async () => {
    const { orders, refused } = await read(
      csv(
        line(),
        line({ item: 'Boné' }),
        line({ cidade: 'Campinas', numero: '2' }),
        line({ nome: 'Ana Souza' }),
        line({ orderId: 'PED-2' }),
      ),
    );
    expect(orders.map((o) => o.order.orderId)).toEqual(['PED-2']);
    expect(refused).toEqual([
      {
        line: 2,
        reason: 'order PED-1 is refused for its other lines',
        problem: { code: 'order_refused', orderId: 'PED-1' },
      },
      {
        line: 3,
        reason: 'order PED-1 is refused for its other lines',
        problem: { code: 'order_refused', orderId: 'PED-1' },
      },
      {
        line: 4,
        reason: "numero: differs from line 2, the order's first line (leave it empty or repeat it)",
        problem: { code: 'differs', column: 'numero', firstLine: 2 },
      },
      {
        line: 4,
        reason: "cidade: differs from line 2, the order's first line (leave it empty or repeat it)",
        problem: { code: 'differs', column: 'cidade', firstLine: 2 },
      },
      {
        line: 5,
        reason: 'order PED-1 is refused for its other lines',
        problem: { code: 'order_refused', orderId: 'PED-1' },
      },
    ]);
  });

  it('does not check a later line’s UF or CPF itself, only that it repeats the first', async () => {
    const { orders, refused } = await read(csv(line({ uf: 'SP' }), line({ uf: '', cpfCnpj: '' })));
    expect(refused).toEqual([]);
    expect(orders).toHaveLength(1);
  });

  it('refuses every line of an order the order’s rules refuse (a name over 200 characters)', async () => {
    const { orders, refused } = await read(csv(line({ nome: 'A'.repeat(201) }), line({ nome: '' })));
    expect(orders).toEqual([]);
    expect(refused).toEqual([
      { line: 2, reason: 'a field is too long or not valid', problem: { code: 'invalid' } },
      { line: 3, reason: 'a field is too long or not valid', problem: { code: 'invalid' } },
    ]);
  });

  it('cuts an item’s name to 200 characters', async () => {
    const { orders } = await read(csv(line({ item: 'x'.repeat(250) })));
    expect(orders[0]?.order.items[0]?.name).toBe('x'.repeat(200));
  });
});
