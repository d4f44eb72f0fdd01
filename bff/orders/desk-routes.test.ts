import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, OPTIONAL_CSV_COLUMNS } from '../../shared/orders/order.ts';
import { errorHandler, notFound } from '../http/errors.ts';
import { createLogger } from '../logger.ts';
import type { CepAnswer } from './cep-directory.ts';
import { CSV_TEMPLATE } from './csv-import.ts';
import { MAX_BATCH, orderDeskRoutes } from './desk-routes.ts';
import { deskOrder, ledgerLabel, PAULISTA, type ScriptedDesk, SENDER, scriptedDesk } from './testing/desk.ts';

/**
 * The desk's orders API (bff/orders/desk-routes.ts) in process, without the admin gate in front of it: the real order
 * store on node:sqlite, the desk over a scripted label service, quote core and store, a scripted CEP lookup.
 * csv-import.test.ts, order-desk.test.ts and binding.test.ts state the same through a started BFF and the sandbox.
 */
const RIO: CepAnswer = {
  kind: 'address',
  service: 'viacep',
  address: {
    cep: '20040020',
    logradouro: 'Rua do Ouvidor',
    bairro: 'Centro',
    cidade: 'Rio de Janeiro',
    uf: 'RJ',
  },
};

let s: ScriptedDesk;
let server: Server;
let base: string;
let logs: Record<string, unknown>[];
let cepAsked: string[];

beforeEach(async () => {
  s = await scriptedDesk();
  logs = [];
  cepAsked = [];
  const app = express();
  app.use(
    orderDeskRoutes({
      desk: s.desk,
      orders: s.orders,
      fulfillments: s.fulfillments,
      trackingBack: {
        drain: async () => {
          s.drains += 1;
          return 0;
        },
      },
      cep: {
        lookup: async (cep) => {
          cepAsked.push(cep);
          if (cep === '69900000') return { kind: 'not_found', uf: 'AC' };
          if (cep === '66666666') throw new Error('the directory broke');
          return cep.startsWith('2') ? RIO : PAULISTA;
        },
      },
      serviceCodes: {
        codeOf: (serviceId) => (serviceId === 'pac' || serviceId === 'sedex' ? '03298' : undefined),
      },
      logger: createLogger({ destination: { write: (line: string) => void logs.push(JSON.parse(line)) } }),
      now: () => s.clock.now,
    }),
  );
  app.use(notFound);
  app.use(errorHandler(createLogger({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await s.close();
});

const get = (path: string) => fetch(`${base}${path}`);
const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const error = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

const GOOD: Record<string, string> = {
  orderId: 'PED-1',
  nome: 'Ana Souza',
  cep: '01310-100',
  logradouro: 'Av. Paulista',
  numero: '1000',
  bairro: 'Bela Vista',
  cidade: 'São Paulo',
  uf: 'SP',
  item: 'Caneca',
  quantidade: '1',
  pesoGramas: '400',
  valor: '30',
  serviceId: 'pac',
};
const csvLine = (fields: Record<string, string> = {}) =>
  CSV_COLUMNS.map((column) => ({ ...GOOD, ...fields })[column] ?? '').join(',');
const csv = (...lines: string[]) => `${CSV_COLUMNS.join(',')}\n${lines.join('\n')}\n`;

describe('GET /admin/api/orders', () => {
  it('lists the orders, those of a state when asked, priced only with price=1', async () => {
    await s.orders.receive(deskOrder({ orderId: 'A' }));
    await s.orders.receive(deskOrder({ orderId: 'B' }));
    await ledgerLabel(s.sql, deskOrder({ orderId: 'B' }), { volume: 1 });
    const all = (await (await get('/admin/api/orders')).json()) as {
      orders: { orderId: string; price?: number }[];
    };
    expect(all.orders.map((o) => o.orderId).sort()).toEqual(['A', 'B']);
    expect(all.orders[0]).not.toHaveProperty('price');
    const toShip = (await (await get('/admin/api/orders?state=to_ship&price=1')).json()) as typeof all;
    expect(toShip.orders.map((o) => [o.orderId, o.price])).toEqual([['A', 25.5]]);
    const unpriced = (await (await get('/admin/api/orders?price=0')).json()) as typeof all;
    expect(unpriced.orders[0]).not.toHaveProperty('price');
  });

  it('answers 400 invalid_body for a state that is not one', async () => {
    const res = await get('/admin/api/orders?state=lost');
    expect(res.status).toBe(400);
    expect((await error(res)).code).toBe('invalid_body');
  });
});

describe('the CSV import', () => {
  it('answers the template as a CSV attachment', async () => {
    const res = await get('/admin/api/orders/import/template');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pedidos.csv"');
    expect(await res.text()).toBe(CSV_TEMPLATE);
  });

  it('takes text/csv and text/plain, and refuses any other type with 400', async () => {
    expect((await post('/admin/api/orders/import', csv(csvLine()), 'text/csv; charset=utf-8')).status).toBe(
      200,
    );
    expect(
      (await post('/admin/api/orders/import', csv(csvLine({ orderId: 'P2' })), 'TEXT/PLAIN')).status,
    ).toBe(200);
    const res = await post('/admin/api/orders/import', csv(csvLine({ orderId: 'P3' })), 'application/json');
    expect(res.status).toBe(400);
    expect(await error(res)).toEqual({
      code: 'invalid_body',
      message: 'Send the file as Content-Type: text/csv.',
    });
    const csvx = await post('/admin/api/orders/import', csv(csvLine({ orderId: 'P4' })), 'text/csvx');
    expect(csvx.status).toBe(400);
    const prefixed = await post('/admin/api/orders/import', csv(csvLine({ orderId: 'P5' })), 'x-text/csv');
    expect(prefixed.status).toBe(400);
    expect((await s.orders.list()).map((o) => o.orderId).sort()).toEqual(['P2', 'PED-1']);
  });

  it('refuses a file whose header is wrong with 400 and its reason, importing nothing', async () => {
    const res = await post('/admin/api/orders/import', 'orderId,nome,cor\nPED-1,Ana,azul\n', 'text/csv');
    expect(res.status).toBe(400);
    expect(await error(res)).toEqual({
      code: 'invalid_body',
      line: 1,
      problem: { code: 'unknown_column', column: 'cor' },
      message: `line 1: unknown column "cor"; the columns are ${CSV_COLUMNS.join(',')}`,
    });
    expect(await s.orders.list()).toEqual([]);
  });

  it('imports the good orders, counts them, and says each line refused with why, in line order', async () => {
    const res = await post(
      '/admin/api/orders/import',
      csv(csvLine(), csvLine({ orderId: 'P2', quantidade: '0' }), csvLine({ orderId: 'P3' })),
      'text/csv',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      imported: 2,
      refused: [
        {
          line: 3,
          reason: 'quantidade: must be a whole number from 1 to 999',
          problem: { code: 'quantity' },
        },
      ],
    });
    expect(logs.filter((l) => l.msg === 'orders: CSV imported').map((l) => [l.imported, l.refused])).toEqual([
      [2, 1],
    ]);
    const again = await post(
      '/admin/api/orders/import',
      csv(
        csvLine({ item: 'x', quantidade: 'y' }),
        csvLine(),
        csvLine({ item: 'Boné' }),
        csvLine({ orderId: 'P4' }),
      ),
      'text/csv',
    );
    expect(await again.json()).toEqual({
      imported: 1,
      refused: [
        {
          line: 2,
          reason: 'quantidade: must be a whole number from 1 to 999',
          problem: { code: 'quantity' },
        },
        {
          line: 3,
          reason: 'order PED-1 is refused for its other lines',
          problem: { code: 'order_refused', orderId: 'PED-1' },
        },
        {
          line: 4,
          reason: 'order PED-1 is refused for its other lines',
          problem: { code: 'order_refused', orderId: 'PED-1' },
        },
      ],
    });
    const third = await post(
      '/admin/api/orders/import',
      csv(csvLine({ orderId: 'P9' }), csvLine(), csvLine({ orderId: 'P9', item: 'Boné' })),
      'text/csv',
    );
    expect(await third.json()).toEqual({
      imported: 1,
      refused: [
        { line: 3, reason: 'order PED-1 already exists', problem: { code: 'exists', orderId: 'PED-1' } },
      ],
    });
  });

  it('answers 500 when reading the file fails for another reason than the file', async () => {
    const res = await post('/admin/api/orders/import', csv(csvLine({ cep: '66666-666' })), 'text/csv');
    expect(res.status).toBe(500);
    expect(await s.orders.list()).toEqual([]);
  });

  it('lists an order that exists among the file’s own refusals, in line order', async () => {
    await s.orders.receive(deskOrder({ orderId: 'PED-1' }));
    const res = await post(
      '/admin/api/orders/import',
      csv(csvLine(), csvLine({ orderId: 'P2', quantidade: '0' })),
      'text/csv',
    );
    expect(await res.json()).toEqual({
      imported: 0,
      refused: [
        { line: 2, reason: 'order PED-1 already exists', problem: { code: 'exists', orderId: 'PED-1' } },
        {
          line: 3,
          reason: 'quantidade: must be a whole number from 1 to 999',
          problem: { code: 'quantity' },
        },
      ],
    });
  });

  it('previews without importing: the orders it would import, and the taken ones refused on each of their lines', async () => {
    await s.orders.receive(deskOrder({ orderId: 'P2' }));
    const res = await post(
      '/admin/api/orders/import?preview=1',
      csv(
        csvLine({ orderId: 'P2' }),
        csvLine({ orderId: 'P1', quantidade: 'x' }),
        csvLine(),
        csvLine({ orderId: 'P2', item: 'Boné' }),
      ),
      'text/csv',
    );
    const body = (await res.json()) as {
      preview: boolean;
      orders: { orderId: string }[];
      refused: unknown[];
    };
    expect(body.preview).toBe(true);
    expect(body.orders.map((o) => o.orderId)).toEqual(['PED-1']);
    expect(body.refused).toEqual([
      { line: 2, reason: 'order P2 already exists', problem: { code: 'exists', orderId: 'P2' } },
      { line: 3, reason: 'quantidade: must be a whole number from 1 to 999', problem: { code: 'quantity' } },
      { line: 5, reason: 'order P2 already exists', problem: { code: 'exists', orderId: 'P2' } },
    ]);
    expect((await s.orders.list()).map((o) => o.orderId)).toEqual(['P2']);
    const other = await post('/admin/api/orders/import?preview=0', csv(csvLine()), 'text/csv');
    expect(await other.json()).toEqual({ imported: 1, refused: [] });
  });

  it('takes an empty body as an empty file', async () => {
    const res = await fetch(`${base}/admin/api/orders/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(400);
    const required = CSV_COLUMNS.filter((column) => !OPTIONAL_CSV_COLUMNS.includes(column));
    expect((await error(res)).message).toBe(`line 1: missing columns ${required.join(', ')}`);
  });
});

describe('POST /admin/api/orders/labels', () => {
  it('issues the orders named once each, and answers each order’s result', async () => {
    await s.orders.receive(deskOrder());
    const res = await post('/admin/api/orders/labels', {
      orderIds: ['PED-1', 'PED-1', 'nope'],
      sender: SENDER,
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as {
      results: { orderId: string; refused?: { reason: string } }[];
    };
    expect(results.map((r) => [r.orderId, r.refused?.reason])).toEqual([
      ['PED-1', undefined],
      ['nope', 'not_found'],
    ]);
    expect(s.generated).toHaveLength(1);
  });

  it('takes a JSON body up to 256 kB, and answers 413 past it', async () => {
    const sender = (size: number) => ({ ...SENDER, nome: 'x'.repeat(size) });
    const big = await post('/admin/api/orders/labels', { orderIds: ['nope'], sender: sender(200_000) });
    expect(big.status).toBe(200);
    const over = await post('/admin/api/orders/labels', { orderIds: ['nope'], sender: sender(270_000) });
    expect(over.status).toBe(413);
  });

  it(`answers 400 for no order, more than ${MAX_BATCH}, an empty or too long id, no sender, or an unknown field`, async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `P${i}`);
    for (const body of [
      { orderIds: [], sender: SENDER },
      { orderIds: ids(MAX_BATCH + 1), sender: SENDER },
      { orderIds: [''], sender: SENDER },
      { orderIds: ['x'.repeat(161)], sender: SENDER },
      { orderIds: ['P1'] },
      { orderIds: ['P1'], sender: SENDER, dryRun: true },
    ]) {
      const res = await post('/admin/api/orders/labels', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await error(res)).code).toBe('invalid_body');
    }
    const most = await post('/admin/api/orders/labels', { orderIds: ids(MAX_BATCH), sender: SENDER });
    expect(((await most.json()) as { results: unknown[] }).results).toHaveLength(MAX_BATCH);
    const longest = await post('/admin/api/orders/labels', { orderIds: ['x'.repeat(160)], sender: SENDER });
    expect(longest.status).toBe(200);
  });
});

describe('GET /admin/api/orders/:orderId', () => {
  it('answers the order’s view, and 404 for no such order', async () => {
    await s.orders.receive(deskOrder({ orderId: '#1001' }));
    const res = await get(`/admin/api/orders/${encodeURIComponent('#1001')}`);
    expect(((await res.json()) as { order: { orderId: string; price: number } }).order).toMatchObject({
      orderId: '#1001',
      price: 25.5,
    });
    const missing = await get('/admin/api/orders/PED-404');
    expect(missing.status).toBe(404);
    expect(await error(missing)).toEqual({ code: 'not_found', message: 'no order PED-404' });
  });
});

describe('POST /admin/api/orders/:orderId/review', () => {
  const recipient = (change: Partial<ReturnType<typeof deskOrder>['recipient']['endereco']> = {}) => ({
    ...deskOrder().recipient,
    endereco: { ...deskOrder().recipient.endereco, ...change },
  });

  it('replaces the recipient and the service, reviewed again, keeping the order’s other fields', async () => {
    await s.orders.receive(
      deskOrder({
        rawAddress: 'Rua do Ouvidor 50',
        needsReview: [
          { field: 'recipient.endereco.numero', reason: 'number_not_found', detail: 'Rua do Ouvidor' },
        ],
      }),
    );
    await s.orders.plan('PED-1', 2);
    s.clock.now += 60_000;
    const res = await post('/admin/api/orders/PED-1/review', {
      recipient: recipient({ numero: '52' }),
      serviceId: 'sedex',
    });
    expect(res.status).toBe(200);
    const { order } = (await res.json()) as {
      order: { needsReview: unknown[]; serviceId: string; recipient: unknown };
    };
    expect(order.needsReview).toEqual([]);
    expect(order.serviceId).toBe('sedex');
    const stored = await s.orders.get('PED-1');
    expect(stored?.recipient.endereco.numero).toBe('52');
    expect(stored?.serviceId).toBe('sedex');
    expect(stored?.rawAddress).toBeUndefined();
    expect(stored?.plannedVolumes).toBe(2);
    expect(stored?.updatedAt).toBe(s.clock.now);
    expect(cepAsked).toEqual(['20040020']);
  });

  it('keeps the service when none is given, and flags a city the CEP disagrees with until the operator confirms it', async () => {
    await s.orders.receive(deskOrder());
    const flagged = await post('/admin/api/orders/PED-1/review', {
      recipient: recipient({ cidade: 'Niterói', uf: 'SP' }),
    });
    expect(
      ((await flagged.json()) as { order: { needsReview: unknown[]; serviceId: string } }).order,
    ).toMatchObject({
      serviceId: 'pac',
      needsReview: [
        { field: 'recipient.endereco.cidade', reason: 'city_mismatch', detail: 'Rio de Janeiro' },
        { field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: 'RJ' },
      ],
    });
    const confirmed = await post('/admin/api/orders/PED-1/review', {
      recipient: recipient({ cidade: 'Niterói', uf: 'SP', numero: '' }),
      confirm: true,
    });
    expect(((await confirmed.json()) as { order: { needsReview: unknown[] } }).order.needsReview).toEqual([
      { field: 'recipient.endereco.numero', reason: 'missing' },
    ]);
    const unconfirmed = await post('/admin/api/orders/PED-1/review', {
      recipient: recipient({ cidade: 'Niterói' }),
      confirm: false,
    });
    expect(
      ((await unconfirmed.json()) as { order: { needsReview: { reason: string }[] } }).order.needsReview.map(
        (r) => r.reason,
      ),
    ).toEqual(['city_mismatch']);
  });

  it('flags a CEP no service knows until the operator confirms it', async () => {
    await s.orders.receive(deskOrder());
    const unknown = recipient({ cep: '69900-000', cidade: 'Rio Branco', uf: 'AC' });
    const flagged = await post('/admin/api/orders/PED-1/review', { recipient: unknown });
    expect(((await flagged.json()) as { order: { needsReview: unknown[] } }).order.needsReview).toEqual([
      { field: 'recipient.endereco.cep', reason: 'cep_not_found', detail: '69900000' },
    ]);
    const res = await post('/admin/api/orders/PED-1/review', { recipient: unknown, confirm: true });
    expect(((await res.json()) as { order: { needsReview: unknown[] } }).order.needsReview).toEqual([]);
  });

  it('keeps what the store sent beyond a label’s bounds, but not the recipient’s or the service’s', async () => {
    await s.orders.receive(
      deskOrder({
        needsReview: [
          { field: 'items', reason: 'out_of_bounds', detail: '51 lines' },
          { field: 'items[0].name (recipient)', reason: 'out_of_bounds', detail: 'long' },
          { field: 'recipient.nome', reason: 'out_of_bounds', detail: 'long' },
          { field: 'serviceId', reason: 'out_of_bounds', detail: 'long' },
          { field: 'items[0].weightGrams', reason: 'no_weight' },
        ],
      }),
    );
    const res = await post('/admin/api/orders/PED-1/review', { recipient: recipient() });
    expect(((await res.json()) as { order: { needsReview: unknown[] } }).order.needsReview).toEqual([
      { field: 'items', reason: 'out_of_bounds', detail: '51 lines' },
      { field: 'items[0].name (recipient)', reason: 'out_of_bounds', detail: 'long' },
    ]);
  });

  it('answers 404 for no such order and 400 for a body that is not a recipient', async () => {
    const missing = await post('/admin/api/orders/PED-404/review', { recipient: recipient() });
    expect(missing.status).toBe(404);
    expect(await error(missing)).toEqual({ code: 'not_found', message: 'no order PED-404' });
    await s.orders.receive(deskOrder());
    for (const body of [
      {},
      { recipient: recipient(), extra: 1 },
      { recipient: recipient(), serviceId: 'x'.repeat(61) },
    ]) {
      const res = await post('/admin/api/orders/PED-1/review', body);
      expect(res.status).toBe(400);
      expect((await error(res)).code).toBe('invalid_body');
    }
    const longest = await post('/admin/api/orders/PED-1/review', {
      recipient: recipient(),
      serviceId: 'x'.repeat(60),
    });
    expect(longest.status).toBe(200);
  });
});

describe('POST /admin/api/orders/:orderId/tracking/resend', () => {
  it('sends a failed tracking again now and drains, and answers 404 when there is none to send', async () => {
    await s.orders.receive(deskOrder({ orderId: '#1001', source: 'shopify', externalId: '9001' }));
    const missing = await post('/admin/api/orders/%231001/tracking/resend', {});
    expect(missing.status).toBe(404);
    expect(await error(missing)).toEqual({
      code: 'not_found',
      message: 'no tracking to send for order #1001',
    });
    const order = await s.orders.get('#1001');
    await s.fulfillments.enqueue(order as never, [{ code: 'AA1BR', url: 'u' }], 0);
    await s.fulfillments.withdraw('#1001', 'refused', 0);
    s.clock.now = 5_000;
    const res = await post('/admin/api/orders/%231001/tracking/resend', {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ state: 'pending' });
    expect((await s.fulfillments.get('#1001'))?.nextAt).toBe(5_000);
    expect(s.drains).toBe(1);
  });
});

describe('the products’ presets', () => {
  it('saves a preset under its key in lower case, lists it, and refuses one that is not a preset', async () => {
    const saved = await post('/admin/api/products', { key: 'CAN-01', weightGrams: 350 });
    expect(await saved.json()).toEqual({ preset: { key: 'can-01', weightGrams: 350 } });
    expect(await (await get('/admin/api/products')).json()).toEqual({
      presets: [{ key: 'can-01', weightGrams: 350 }],
    });
    const bad = await post('/admin/api/products', { key: '', weightGrams: 0 });
    expect(bad.status).toBe(400);
    expect((await error(bad)).code).toBe('invalid_body');
  });
});

describe('GET /admin/api/cep/:cep', () => {
  it('answers the CEP’s address, and 400 invalid_destination_cep for a CEP that is not one', async () => {
    expect(await (await get('/admin/api/cep/01310-100')).json()).toEqual(PAULISTA);
    expect(cepAsked).toEqual(['01310100']);
    const res = await get('/admin/api/cep/0131');
    expect(res.status).toBe(400);
    expect((await error(res)).code).toBe('invalid_destination_cep');
  });
});
