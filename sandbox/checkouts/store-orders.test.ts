import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SHOPIFY_ADMIN_API_VERSION } from '../../shared/checkouts/shopify.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

/**
 * The emulated store orders' life, through the sandbox's own API (sandbox/README.md, "Store orders"): what a client
 * finds hard about the platforms — fulfillment orders it may not fulfil, versions that only move forward, a cancel.
 */
const SHOP = 'loja-demo.myshopify.com';
const TOKEN = 'shpat_test_demo_0000000001';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

const ITEMS = [
  { name: 'Camiseta', quantity: 2, grams: 300, price: 59.9 },
  { name: 'Caneca', quantity: 1, grams: 400, price: 39.9 },
];

async function made(fulfillmentOrders?: unknown) {
  const res = await sandbox.control(`stores/shopify/${SHOP}/orders`, {
    customer: { name: 'Ana' },
    address: { address1: 'Rua A, 1', city: 'Rio', province: 'RJ', zip: '20040-020' },
    items: ITEMS,
    serviceCode: 'correios-pac',
    ...(fulfillmentOrders ? { fulfillmentOrders } : {}),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { order: { id: number; body: Record<string, unknown> } }).order;
}

async function graphql(field: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(
    `${sandbox.url}/shopify/${SHOP}/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': TOKEN },
      body: JSON.stringify({ query, variables }),
    },
  );
  expect(res.status).toBe(200);
  return z.looseObject({ data: z.record(z.string(), z.unknown()) }).parse(await res.json()).data[field];
}

const FULFIL =
  'mutation F($fulfillment: FulfillmentInput!) { fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id } userErrors { message } } }';
const fulfil = (ids: string[]) =>
  graphql('fulfillmentCreate', FULFIL, {
    fulfillment: {
      lineItemsByFulfillmentOrder: ids.map((fulfillmentOrderId) => ({ fulfillmentOrderId })),
      trackingInfo: { company: 'Correios', numbers: ['AA123456785BR'] },
    },
  });
const refusal = (answer: unknown) => (answer as { userErrors: { message: string }[] }).userErrors;

describe("the emulated Shopify order's fulfillment orders", () => {
  it('answers each with its status and location, and the shop its locations', async () => {
    const order = await made([
      { location: '1', status: 'OPEN', items: [0] },
      { location: '2', status: 'ON_HOLD', items: [1] },
    ]);
    const read = await graphql('order', 'query { order(id: $id) { id } }', {
      id: `gid://shopify/Order/${order.id}`,
    });
    expect((read as { fulfillmentOrders: unknown }).fulfillmentOrders).toEqual({
      nodes: [
        {
          id: `gid://shopify/FulfillmentOrder/${order.id}1`,
          status: 'OPEN',
          fulfillAt: null,
          assignedLocation: { location: { id: 'gid://shopify/Location/1' } },
        },
        {
          id: `gid://shopify/FulfillmentOrder/${order.id}2`,
          status: 'ON_HOLD',
          fulfillAt: null,
          assignedLocation: { location: { id: 'gid://shopify/Location/2' } },
        },
      ],
    });
    const locations = (await graphql('locations', 'query { locations(first: 5) { nodes { id } } }')) as {
      nodes: { id: string }[];
    };
    expect(locations.nodes.map((n) => n.id)).toEqual([
      'gid://shopify/Location/1',
      'gid://shopify/Location/2',
    ]);
  });

  it('refuses a held one, and two locations in one call; fulfils an open one', async () => {
    const order = await made([
      { location: '1', status: 'OPEN', items: [0] },
      { location: '2', status: 'OPEN', items: [1] },
    ]);
    const held = await made([{ location: '1', status: 'ON_HOLD', items: [0, 1] }]);
    expect(
      refusal(await fulfil([`gid://shopify/FulfillmentOrder/${held.id}1`])).map((e) => e.message),
    ).toEqual(['Fulfillment order is not in an open state.']);
    const both = await fulfil([
      `gid://shopify/FulfillmentOrder/${order.id}1`,
      `gid://shopify/FulfillmentOrder/${order.id}2`,
    ]);
    expect(refusal(both)?.[0]?.message).toBe('All fulfillment orders must be assigned to the same location.');
    expect(refusal(await fulfil([`gid://shopify/FulfillmentOrder/${order.id}1`]))).toEqual([]);
    expect(refusal(await fulfil([`gid://shopify/FulfillmentOrder/${order.id}1`]))?.[0]?.message).toBe(
      'Fulfillment order is not in an open state.',
    );
  });

  it('releases a held one (then it can be fulfilled), and refuses to release an open one', async () => {
    const order = await made([{ location: '1', status: 'ON_HOLD', items: [0, 1] }]);
    const path = `stores/shopify/${SHOP}/orders/${order.id}/fulfillment-orders`;
    expect((await sandbox.control(`${path}/1/release`)).status).toBe(200);
    expect((await sandbox.control(`${path}/1/release`)).status).toBe(400);
    expect((await sandbox.control(`${path}/2/release`)).status).toBe(400);
    expect(refusal(await fulfil([`gid://shopify/FulfillmentOrder/${order.id}1`]))).toEqual([]);
  });
});

describe("the emulated order's life", () => {
  it('moves the version forward on every change, even at the same instant, and cancels with a refund', async () => {
    const order = await made();
    const versions = [String(order.body.updated_at)];
    const edit = await sandbox.control(`stores/shopify/${SHOP}/orders/${order.id}/edit`, {
      items: [{ index: 0, quantity: 1 }],
    });
    const edited = ((await edit.json()) as { order: { body: Record<string, unknown> } }).order.body;
    versions.push(String(edited.updated_at));
    expect((edited.line_items as { current_quantity: number; quantity: number }[])[0]).toMatchObject({
      quantity: 2,
      current_quantity: 1,
    });
    const cancel = await sandbox.control(`stores/shopify/${SHOP}/orders/${order.id}/cancel`, {
      reason: 'fraud',
    });
    const cancelled = ((await cancel.json()) as { order: { body: Record<string, unknown> } }).order.body;
    versions.push(String(cancelled.updated_at));
    expect(cancelled).toMatchObject({ cancel_reason: 'fraud', financial_status: 'refunded' });
    expect(cancelled.cancelled_at).toBe(cancelled.updated_at);
    const times = versions.map(Date.parse);
    expect(times[1]).toBeGreaterThan(times[0] ?? Infinity);
    expect(times[2]).toBeGreaterThan(times[1] ?? Infinity);
    const bad = await sandbox.control(`stores/shopify/${SHOP}/orders/${order.id}/cancel`, {
      reason: 'bored',
    });
    expect(bad.status).toBe(400);
    expect((await sandbox.control(`stores/shopify/${SHOP}/orders/999/cancel`)).status).toBe(404);
  });
});
