import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL, samplePartyAt } from '../../sandbox/testing.ts';
import { OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { connectAgent } from '../labels/testing/soak.ts';
import { TEST_AGENTS } from '../testing.ts';
import { type OrderStack, SHOPIFY_SHOP, shopifyOrder, startOrderStack } from './testing.ts';

// Issue 48, finding 1 (reproduced red first): an agent's label under a store order's number took the order over.
let stack: OrderStack;
let agent: Client;
beforeAll(async () => {
  stack = await startOrderStack(
    { BFF_AGENT_TOKENS: JSON.stringify(TEST_AGENTS) },
    { orders: { timers: false }, random: () => 0 },
  );
  agent = await connectAgent(stack.bff.url, 'agent-all-scopes-0001');
}, 30_000);
afterAll(async () => {
  await agent?.close();
  await stack?.close();
});
afterEach(() => stack.bff.trackingBack.drain());

const SENDER = SAMPLE_LABEL.sender;
/** A recipient in São Paulo: the store orders below go to Rio de Janeiro (20040-020). */
const SAO_PAULO = samplePartyAt('01310-100', 'SP', 'São Paulo');
/** Two volumes (3 × 4 kg in boxes of at most 10 kg), to Rio de Janeiro. */
const TWO_VOLUMES = { items: [{ name: 'Panela', sku: 'PAN-01', quantity: 3, grams: 4000, price: 120 }] };

interface Structured {
  reason?: string;
  trackingCode?: string;
  attemptId?: string;
  prepostagemId?: string;
}

async function agentLabel(input: Record<string, unknown>): Promise<{ isError: boolean; label: Structured }> {
  const result = await agent.callTool({ name: 'generate_label', arguments: input });
  return { isError: result.isError === true, label: (result.structuredContent ?? {}) as Structured };
}

interface Result {
  orderId: string;
  volumes: { volume: number; status: number; answer: Structured }[];
  refused?: { reason: string };
}

async function batch(orderIds: string[]): Promise<Result[]> {
  const res = await stack.desk.post('/admin/api/orders/labels', { orderIds, sender: SENDER });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Result[] }).results;
}

const prepostings = async () =>
  (
    (await (await stack.sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: { trackingCode: string }[];
    }
  ).prepostings.length;

async function fulfilled(orderId: string): Promise<string[][]> {
  await stack.bff.trackingBack.drain();
  const shop = (await (
    await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/orders`, undefined, 'GET')
  ).json()) as { orders: { orderId: string; fulfillments: { numbers: string[] }[] }[] };
  return shop.orders.find((o) => o.orderId === orderId)?.fulfillments.map((f) => f.numbers) ?? [];
}

async function stateOf(orderId: string): Promise<string | undefined> {
  const res = await stack.desk.get(`/admin/api/orders/${encodeURIComponent(orderId)}`);
  return ((await res.json()) as { order?: { state: string } }).order?.state;
}

const lookup = (orderId: string, cep: string) =>
  fetch(`${stack.bff.url}/api/orders/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, cep }),
  });

describe("a label under a store order's number", () => {
  it('is refused order_mismatch to another CEP, by the agent and the desk alike, with nothing sent', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder(TWO_VOLUMES));
    const before = await prepostings();
    const hostile = { ...SAMPLE_LABEL, recipient: SAO_PAULO, orderId: order.orderId, volume: 2 };
    const answer = await agentLabel(hostile);
    expect(answer).toMatchObject({ isError: true, label: { reason: 'order_mismatch' } });
    // The refusal tells nothing of the order's shopper (its CEP, its name).
    expect(JSON.stringify(answer)).not.toMatch(/20040|Ana Souza/);
    const preview = await agent.callTool({ name: 'preview_label', arguments: hostile });
    expect(preview.structuredContent).toMatchObject({ wouldSend: false, reason: 'order_mismatch' });
    const desk = await stack.desk.post('/admin/api/labels', hostile);
    expect(desk.status).toBe(422);
    expect(await desk.json()).toMatchObject({ reason: 'order_mismatch' });
    expect(await prepostings()).toBe(before);
    expect(await stateOf(order.orderId)).toBe('new');
    // The merchant's batch then labels both volumes, and the store gets its two codes.
    const [result] = await batch([order.orderId]);
    const codes = result?.volumes.map((v) => v.answer.trackingCode);
    expect(codes).toHaveLength(2);
    expect(await stateOf(order.orderId)).toBe('labelled');
    expect(await fulfilled(order.orderId)).toEqual([codes]);
  }, 60_000);

  it('respects the order’s review: an order to review is not labelled by an agent either', async () => {
    // A city that is not the CEP's: the desk flags it (city_mismatch) before any label.
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({ address: { address1: 'Rua A, 10', city: 'Niterói', province: 'RJ', zip: '20040-020' } }),
    );
    const before = await prepostings();
    const answer = await agentLabel({ ...SAMPLE_LABEL, orderId: order.orderId });
    expect(answer).toMatchObject({ isError: true, label: { reason: 'needs_review' } });
    expect(await prepostings()).toBe(before);
  }, 60_000);

  it('look-alike ids are other orders: "1003" or another channel’s "1003" never counts for Shopify\'s "#1003"', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder());
    const bare = order.orderId.replace('#', '');
    // Another channel's order with the same number (a CSV line), to São Paulo.
    const csv = [
      'orderId,nome,cep,logradouro,numero,bairro,cidade,uf,item,quantidade,pesoGramas,valor,serviceId',
      `${bare},Rita Moura,01310-100,Avenida Paulista,1000,Bela Vista,São Paulo,SP,Livro,1,500,"49,90",correios-pac`,
    ].join('\n');
    const imported = await stack.desk.post('/admin/api/orders/import', csv, { 'content-type': 'text/csv' });
    expect(imported.status).toBe(200);
    const theirs = await agentLabel({ ...SAMPLE_LABEL, recipient: SAO_PAULO, orderId: bare });
    expect(theirs.isError).toBe(false);
    // The Shopify order is untouched: still new, its lookup finds nothing to São Paulo.
    expect(await stateOf(order.orderId)).toBe('new');
    expect(await stateOf(bare)).toBe('labelled');
    expect((await lookup(order.orderId, '01310-100')).status).toBe(404);
    expect((await lookup(order.orderId, '20040-020')).status).toBe(404);
    const [result] = await batch([order.orderId]);
    expect(result?.volumes[0]?.status).toBe(201);
    expect(await fulfilled(order.orderId)).toEqual([[result?.volumes[0]?.answer.trackingCode]]);
  }, 60_000);

  it('a label asked for before its store order arrived counts for the order only if it goes to the order’s CEP', async () => {
    // The order is paid, its webhook late: an agent labels its number to São Paulo meanwhile (nothing to refuse yet).
    const { order } = await stack.paid('shopify', shopifyOrder({ ...TWO_VOLUMES, notify: false }));
    const early = await agentLabel({ ...SAMPLE_LABEL, recipient: SAO_PAULO, orderId: order.orderId });
    expect(early.isError).toBe(false);
    const orders = stack.sandbox.state.checkouts.orders;
    const emulated = [...orders.orders.values()].find((o) => o.id === order.id);
    if (!emulated) throw new Error('no emulated order');
    await orders.announce(emulated, 'orders/paid');
    // Arrived: the early label is not the order's — not its state, not its lookup, not its tracking.
    expect(await stateOf(order.orderId)).toBe('new');
    expect((await lookup(order.orderId, '20040-020')).status).toBe(404);
    const [result] = await batch([order.orderId]);
    // Volume 1 is held by the early label's request: the batch's conflict queues nothing.
    expect(result?.volumes[0]?.answer.reason).toBe('order_volume_conflict');
    expect(await fulfilled(order.orderId)).toEqual([]);
    expect(await stateOf(order.orderId)).toBe('partly_labelled');
  }, 60_000);

  it('a volume conflict never queues the tracking back', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder(TWO_VOLUMES));
    // An agent takes volume 2 to the order's CEP with another request (its own weight): bound, but not the desk's.
    const taken = await agentLabel({ ...SAMPLE_LABEL, orderId: order.orderId, volume: 2, weightGrams: 999 });
    expect(taken.isError).toBe(false);
    const [result] = await batch([order.orderId]);
    expect(result?.volumes.map((v) => v.answer.reason ?? 'created')).toEqual([
      'created',
      'order_volume_conflict',
    ]);
    expect(await fulfilled(order.orderId)).toEqual([]);
  }, 60_000);

  it('concurrent batches with a hostile agent racing them: one label per volume, the desk’s, sent back once', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder(TWO_VOLUMES));
    const before = await prepostings();
    const hostile = (volume: number) =>
      agentLabel({ ...SAMPLE_LABEL, recipient: SAO_PAULO, orderId: order.orderId, volume });
    const [first, second, ...agents] = await Promise.all([
      batch([order.orderId]),
      batch([order.orderId]),
      hostile(1),
      hostile(2),
    ]);
    for (const answer of agents) expect(answer.label.reason).toBe('order_mismatch');
    expect((await prepostings()) - before).toBe(2);
    const codes = (r: Result[] | undefined) => r?.[0]?.volumes.map((v) => v.answer.trackingCode);
    expect(codes(first)).toEqual(codes(second));
    expect(await fulfilled(order.orderId)).toEqual([codes(first)]);
    expect(await stateOf(order.orderId)).toBe('labelled');
  }, 60_000);
});

describe('an agent racing the desk on one order', () => {
  it('one label per volume whoever wins, and the tracking goes back only when the desk’s batch holds every volume', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder(TWO_VOLUMES));
    const before = await prepostings();
    // The agent's own request for volume 1, to the order's CEP: bound, but not the desk's request.
    const [[result], agent] = await Promise.all([
      batch([order.orderId]),
      agentLabel({ ...SAMPLE_LABEL, orderId: order.orderId, volume: 1, weightGrams: 1234 }),
    ]);
    expect((await prepostings()) - before).toBe(2);
    const deskWon = result?.volumes[0]?.answer.reason === undefined;
    expect(agent.label.reason).toBe(deskWon ? 'order_volume_conflict' : undefined);
    const codes = result?.volumes.map((v) => v.answer.trackingCode);
    expect(await fulfilled(order.orderId)).toEqual(deskWon ? [codes] : []);
    expect(await stateOf(order.orderId)).toBe('labelled');
  }, 60_000);
});

describe('POST /api/orders/lookup and signed links', () => {
  it('answer only the parcels addressed to the CEP given', async () => {
    const rio = await agentLabel({ ...SAMPLE_LABEL, orderId: 'PED-LOOK-1' });
    const sp = await agentLabel({ ...SAMPLE_LABEL, recipient: SAO_PAULO, orderId: 'PED-LOOK-1', volume: 2 });
    const codesOf = async (res: Response) =>
      OrderLookupResponseSchema.parse(await res.json()).results.map((r) => r.code);
    expect(await codesOf(await lookup('PED-LOOK-1', '20040-020'))).toEqual([rio.label.trackingCode]);
    expect(await codesOf(await lookup('PED-LOOK-1', '01310-100'))).toEqual([sp.label.trackingCode]);
    const page = await (await fetch(stack.bff.links.url(rio.label.attemptId ?? ''))).text();
    expect(page).toContain(`codes="${rio.label.trackingCode}"`);
  }, 60_000);
});
