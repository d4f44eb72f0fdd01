import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import type { StoreOrder } from '../../shared/orders/order.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * `list_orders_to_ship` and `list_labels` through the SDK's own client, against a BFF in this process (its real order
 * store and ledger, orders put in the store as a store's webhook would) and the sandbox: which orders an agent is
 * shown, the words it reads, and each row of a day's labels, exactly.
 */
const SHIPPER = 'agent-all-scopes-0001';
const SEDEX_ONLY = 'agent-sedex-only-0002';
const AGENTS = JSON.stringify([
  { token: SHIPPER, scopes: ['rates', 'tracking', 'labels'], name: 'shipper' },
  { token: SEDEX_ONLY, scopes: ['labels'], name: 'sedex-only', services: ['correios-sedex'] },
]);
const ENV = {
  BFF_AGENT_TOKENS: AGENTS,
  BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  BFF_BOXES: JSON.stringify([
    { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 10_000 },
  ]),
};
// Noon in São Paulo; each order received a second after the one before (the list is newest first).
const T0 = Date.parse('2026-11-23T12:00:00-03:00');
const clock = { now: T0 };

let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, ENV, { now: () => clock.now });
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
afterEach(() => clients.closeAll());

const order = (orderId: string, more: Partial<StoreOrder> = {}): StoreOrder => ({
  orderId,
  source: 'csv',
  recipient: {
    nome: 'Ana Souza',
    cpfCnpj: '39053344705',
    telefone: '21987654321',
    endereco: {
      cep: '20040020',
      logradouro: 'Rua da Assembleia',
      numero: '10',
      bairro: 'Centro',
      cidade: 'Rio de Janeiro',
      uf: 'RJ',
    },
  },
  items: [{ name: 'Camiseta', quantity: 1, weightGrams: 300, valor: 79.9 }],
  needsReview: [],
  ...more,
});

async function receive(...orders: StoreOrder[]): Promise<void> {
  for (const each of orders) {
    clock.now += 1_000;
    expect(await bff.backends.orders.receive(each)).toBe('created');
  }
}

const call = async (token: string, name: string, args: Record<string, unknown> = {}) =>
  clients.call(await clients.connect(`${bff.url}/mcp`, token), name, args, 30_000);
/** The summary: the first line of text (the second says the whole result is in structuredContent). */
const textOf = (result: CallToolResult) => {
  const [first] = result.content;
  return first?.type === 'text' ? (first.text.split('\n')[0] ?? '') : '';
};
const ordersOf = (result: CallToolResult) =>
  (result.structuredContent as { orders: { orderId: string; state: string }[] }).orders;

describe('list_orders_to_ship and list_labels', () => {
  it('lists the orders to ship newest first, those needing review counted, and leaves out what an agent may not label', async () => {
    await receive(
      order('PED-1', { serviceId: 'correios-pac' }),
      order('PED-2', { serviceId: 'correios-sedex' }),
      order('PED-3'),
      order('PED-4', {
        serviceId: 'correios-sedex',
        needsReview: [{ field: 'recipient.endereco.numero', reason: 'number_not_found' }],
      }),
      order('PED-5', {
        serviceId: 'correios-sedex',
        needsReview: [{ field: 'items', reason: 'changed_after_label' }],
      }),
    );
    const all = await call(SHIPPER, 'list_orders_to_ship');
    expect(all.isError ?? false).toBe(false);
    expect(ordersOf(all).map((each) => [each.orderId, each.state])).toEqual([
      ['PED-5', 'new'],
      ['PED-4', 'new'],
      ['PED-3', 'new'],
      ['PED-2', 'new'],
      ['PED-1', 'new'],
    ]);
    expect(textOf(all)).toBe(
      "5 order(s): PED-5 (new), PED-4 (new), PED-3 (new), PED-2 (new), PED-1 (new). 1 need the merchant's review first.",
    );
    // An agent kept to SEDEX: the PAC order is not its to label; an order without a service is.
    const sedex = await call(SEDEX_ONLY, 'list_orders_to_ship', { limit: 2 });
    expect(ordersOf(sedex).map((each) => each.orderId)).toEqual(['PED-5', 'PED-4']);
    expect(textOf(sedex)).toBe(
      "2 order(s): PED-5 (new), PED-4 (new). 1 need the merchant's review first. 1 of services this agent may not use are left out.",
    );
    const none = await call(SHIPPER, 'list_orders_to_ship', { state: 'labelled' });
    expect(ordersOf(none)).toEqual([]);
    expect(textOf(none)).toBe('No orders in this state.');
  });

  it("lists at most 20 orders by name in the words, and the day's labels row by row", async () => {
    await receive(...Array.from({ length: 21 }, (_, i) => order(`LOTE-${String(i).padStart(2, '0')}`)));
    const many = await call(SHIPPER, 'list_orders_to_ship', { limit: 21 });
    expect(ordersOf(many)).toHaveLength(21);
    expect(textOf(many)).toMatch(/^21 order\(s\): LOTE-20 \(new\), LOTE-19 \(new\), .*LOTE-01 \(new\), …\.$/);
    expect(textOf(many)).not.toContain('LOTE-00');

    const issued = await call(SHIPPER, 'generate_label', {
      serviceId: 'correios-pac',
      orderId: 'LOTE-00',
      weightGrams: 500,
      dimensions: { comprimento: 30, largura: 20, altura: 20 },
      sender: order('x').recipient,
      recipient: order('x').recipient,
      declaredItems: [{ conteudo: 'Camiseta', quantidade: 1, valor: 79.9 }],
    });
    const label = issued.structuredContent as { attemptId: string; trackingCode: string };
    expect(issued.isError ?? false).toBe(false);
    const today = await call(SHIPPER, 'list_labels');
    expect(today.structuredContent).toEqual({
      day: '2026-11-23',
      labels: [
        {
          attemptId: label.attemptId,
          orderId: 'LOTE-00',
          volume: 1,
          state: 'created',
          trackingCode: label.trackingCode,
          serviceCode: '03298',
          issuedBy: 'shipper',
          createdAt: new Date(clock.now).toISOString(),
        },
      ],
    });
    expect(textOf(today)).toBe('2026-11-23: 1 label(s), 1 created.');
    const before = await call(SHIPPER, 'list_labels', { day: '2026-11-22' });
    expect(before.structuredContent).toEqual({ day: '2026-11-22', labels: [] });
    expect(textOf(before)).toBe('2026-11-22: 0 label(s), 0 created.');
    const labelled = await call(SHIPPER, 'list_orders_to_ship', { state: 'labelled' });
    expect(ordersOf(labelled).map((each) => each.orderId)).toEqual(['LOTE-00']);
  });
});

describe('preview_label: an input the SDK does not check, checked as generate_label checks it', () => {
  it('answers the first three problems, each with its path, as the SDK words an invalid input', async () => {
    const result = await call(SHIPPER, 'preview_label', {
      weightGrams: 'heavy',
      dimensions: 'big',
      declaredItems: 'none',
      recipient: 'Ana',
    });
    expect(result.isError).toBe(true);
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    const [line, ...details] = text.split('\n');
    expect(line).toMatch(
      /^Input validation error: Invalid arguments for tool preview_label: [^;]+; [^;]+; [^;]+$/,
    );
    expect(line?.split(': ').slice(2).join(': ').split('; ')).toHaveLength(3);
    expect(line).toContain('weightGrams: ');
    expect(JSON.parse(details.join('\n'))).toEqual({ error: 'invalid_arguments' });
  });

  it('lists the first three missing fields of a bare input, exactly', async () => {
    const client = await clients.connect(`${bff.url}/mcp`, SHIPPER);
    const result = await clients.call(client, 'preview_label', { serviceId: 'correios-pac' }, 30_000);
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    expect(text).toBe(
      'Input validation error: Invalid arguments for tool preview_label: weightGrams: Invalid input: expected number, received undefined; dimensions: Invalid input: expected object, received undefined; sender: Invalid input: expected object, received undefined\n{\n  "error": "invalid_arguments"\n}',
    );
  });
});
