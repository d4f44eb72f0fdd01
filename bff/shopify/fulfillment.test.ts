import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { parseConfig } from '../config.ts';
import {
  NUVEMSHOP_STORE,
  nuvemshopOrder,
  type OrderStack,
  SHOPIFY_SHOP,
  shopifyOrder,
  startOrderStack,
} from '../orders/testing.ts';
import { locationGid } from './fulfillment.ts';

/**
 * Tracking back to Shopify per fulfillment order of the shipping location (docs/orders.md, "Tracking back to the
 * store"), against the sandbox's emulation of split, held and scheduled fulfillment orders.
 */
const SHIPS_FROM = 'gid://shopify/Location/1';
const ELSEWHERE = 'gid://shopify/Location/2';

interface Back {
  state: string;
  error?: string;
  codes: string[];
}

async function trackingOf(stack: OrderStack, orderId: string): Promise<Back | undefined> {
  const res = await stack.desk.get(`/admin/api/orders/${encodeURIComponent(orderId)}`);
  return ((await res.json()) as { order: { trackingBack?: Back } }).order.trackingBack;
}

async function label(stack: OrderStack, orderId: string): Promise<void> {
  const res = await stack.desk.post('/admin/api/orders/labels', {
    orderIds: [orderId],
    sender: SAMPLE_LABEL.sender,
  });
  const [result] = ((await res.json()) as { results: { volumes: { status: number }[] }[] }).results;
  expect(result?.volumes.every((v) => v.status === 201)).toBe(true);
}

const emulated = (stack: OrderStack, platform: 'shopify' | 'nuvemshop', id: number | string) => {
  const orders = stack.sandbox.state.checkouts.orders;
  return orders.orders.get(orders.key(platform, platform === 'shopify' ? SHOPIFY_SHOP : NUVEMSHOP_STORE, id));
};

const TWO_ITEMS = [
  { name: 'Camiseta', sku: 'CAM-01', quantity: 1, grams: 300, price: 59.9 },
  { name: 'Caneca', sku: 'CAN-01', quantity: 1, grams: 400, price: 39.9 },
];

describe('with the shipping location configured (BFF_SHOPIFY_LOCATION_ID)', () => {
  let stack: OrderStack;
  beforeAll(async () => {
    stack = await startOrderStack(
      { BFF_SHOPIFY_LOCATION_ID: '1', BFF_STORE_NOTIFY_CUSTOMER: 'false' },
      { orders: { timers: false }, random: () => 0 },
    );
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("fulfils only the shipping location's fulfillment order of an order split over two locations", async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Sara Split' },
        items: TWO_ITEMS,
        fulfillmentOrders: [
          { location: '1', status: 'OPEN', items: [0] },
          { location: '2', status: 'OPEN', items: [1] },
        ],
      }),
    );
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    const back = await trackingOf(stack, order.orderId);
    expect(back?.state).toBe('sent');
    const store = emulated(stack, 'shopify', order.id);
    expect(store?.fulfillments).toHaveLength(1);
    expect(store?.fulfillments[0]).toMatchObject({
      company: 'Correios',
      numbers: back?.codes,
      fulfillmentOrders: [`gid://shopify/FulfillmentOrder/${order.id}1`],
      // The kit e-mails the shopper (BFF_STORE_NOTIFY_CUSTOMER=false): the store is asked not to.
      notifyCustomer: false,
    });
    const statuses = ((store?.body.fulfillment_orders ?? []) as { location: string; status: string }[]).map(
      (fo) => [fo.location, fo.status],
    );
    expect(statuses).toEqual([
      [SHIPS_FROM, 'CLOSED'],
      [ELSEWHERE, 'OPEN'],
    ]);
    expect(store?.body.fulfillment_status).toBe('partial');
  });

  it('waits on a held fulfillment order, says why, and sends when Shopify says the hold is released', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Hugo Hold' },
        fulfillmentOrders: [{ location: '1', status: 'ON_HOLD', items: [0] }],
      }),
    );
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    expect(await trackingOf(stack, order.orderId)).toMatchObject({
      state: 'waiting',
      error: 'on hold in Shopify: sent when the hold is released',
    });
    expect(emulated(stack, 'shopify', order.id)?.fulfillments).toEqual([]);
    // Not due again before the poll: a drain now sends nothing.
    expect(await stack.bff.trackingBack.drain()).toBe(0);
    const released = await stack.sandbox.control(
      `stores/shopify/${SHOPIFY_SHOP}/orders/${order.id}/fulfillment-orders/1/release`,
    );
    const sent = ((await released.json()) as { sent: { topic: string; status: number }[] }).sent;
    expect(sent).toEqual([
      expect.objectContaining({ topic: 'fulfillment_orders/hold_released', status: 200 }),
    ]);
    await stack.bff.trackingBack.drain();
    expect((await trackingOf(stack, order.orderId))?.state).toBe('sent');
    expect(emulated(stack, 'shopify', order.id)?.fulfillments).toHaveLength(1);
  });

  it('waits on a scheduled one likewise, naming when, and the desk can send it again at once', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Sofia Agenda' },
        fulfillmentOrders: [{ location: '1', status: 'SCHEDULED', items: [0] }],
      }),
    );
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    const waiting = await trackingOf(stack, order.orderId);
    expect(waiting?.state).toBe('waiting');
    expect(waiting?.error).toMatch(/^scheduled in Shopify for \d{4}-\d{2}-\d{2}T.*: sent when it is ready$/);
    const fo = (
      (emulated(stack, 'shopify', order.id)?.body.fulfillment_orders ?? []) as { status: string }[]
    )[0];
    if (fo) fo.status = 'OPEN';
    const resend = await stack.desk.post(
      `/admin/api/orders/${encodeURIComponent(order.orderId)}/tracking/resend`,
      {},
    );
    expect(await resend.json()).toEqual({ state: 'pending' });
    await stack.bff.trackingBack.drain();
    expect((await trackingOf(stack, order.orderId))?.state).toBe('sent');
  });

  it('fails, saying why, when the order has nothing at the shipping location', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Otto Outro' },
        fulfillmentOrders: [{ location: '2', status: 'OPEN', items: [0] }],
      }),
    );
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    expect(await trackingOf(stack, order.orderId)).toMatchObject({
      state: 'failed',
      error: `The order has no fulfillment order at the shipping location (${SHIPS_FROM}): its items are at another location; set BFF_SHOPIFY_LOCATION_ID to the one the parcels ship from.`,
    });
  });

  it('asks Nuvemshop not to e-mail the shopper either', async () => {
    const { order } = await stack.paid('nuvemshop', nuvemshopOrder({ customer: { name: 'Nora Notify' } }));
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    expect(emulated(stack, 'nuvemshop', order.id)?.fulfillments[0]?.notifyCustomer).toBe(false);
  });
});

describe('without a configured location', () => {
  let stack: OrderStack;
  beforeAll(async () => {
    stack = await startOrderStack({}, { orders: { timers: false }, random: () => 0 });
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("uses the shop's only location, and asks for one once the shop has two", async () => {
    const { order } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Una Única' } }));
    await label(stack, order.orderId);
    await stack.bff.trackingBack.drain();
    expect((await trackingOf(stack, order.orderId))?.state).toBe('sent');
    expect(emulated(stack, 'shopify', order.id)?.fulfillments[0]?.notifyCustomer).toBe(true);
    const split = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Dora Duas' },
        items: TWO_ITEMS,
        fulfillmentOrders: [
          { location: '1', status: 'OPEN', items: [0] },
          { location: '2', status: 'OPEN', items: [1] },
        ],
      }),
    );
    await label(stack, split.order.orderId);
    await stack.bff.trackingBack.drain();
    expect(await trackingOf(stack, split.order.orderId)).toMatchObject({
      state: 'failed',
      error: 'The shop has several locations: set BFF_SHOPIFY_LOCATION_ID to the one the parcels ship from.',
    });
  });
});

describe('the settings', () => {
  const base = { SHIPPING_SECRET_KEY: 'mk_test_demo' };
  const MAIL = { BFF_MAIL_FROM: 'Loja <loja@example.com>' };
  it('asks the store to notify the shopper unless the kit e-mails them (BFF_SMTP_URL), or as BFF_STORE_NOTIFY_CUSTOMER says', () => {
    expect(parseConfig(base).checkout.notifyCustomer).toBe(true);
    expect(
      parseConfig({ ...base, BFF_SMTP_URL: 'smtp://mail.example:587', ...MAIL }).checkout.notifyCustomer,
    ).toBe(false);
    expect(
      parseConfig({
        ...base,
        BFF_SMTP_URL: 'smtp://mail.example:587',
        ...MAIL,
        BFF_STORE_NOTIFY_CUSTOMER: 'true',
      }).checkout.notifyCustomer,
    ).toBe(true);
    expect(parseConfig({ ...base, BFF_STORE_NOTIFY_CUSTOMER: 'false' }).checkout.notifyCustomer).toBe(false);
    expect(() => parseConfig({ ...base, BFF_STORE_NOTIFY_CUSTOMER: 'yes' })).toThrow(
      /BFF_STORE_NOTIFY_CUSTOMER.*must be true or false/,
    );
  });

  it('takes a location id as a number or as its gid, and refuses anything else', () => {
    expect(parseConfig({ ...base, BFF_SHOPIFY_LOCATION_ID: '123' }).checkout.shopify.locationId).toBe('123');
    expect(locationGid('123')).toBe('gid://shopify/Location/123');
    expect(locationGid('gid://shopify/Location/9')).toBe('gid://shopify/Location/9');
    expect(() => parseConfig({ ...base, BFF_SHOPIFY_LOCATION_ID: 'gid://shopify/Order/1' })).toThrow(
      /BFF_SHOPIFY_LOCATION_ID/,
    );
  });
});
