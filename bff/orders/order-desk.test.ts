import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { connectAgent } from '../labels/testing/soak.ts';
import { TEST_AGENTS } from '../testing.ts';
import {
  NUVEMSHOP_STORE,
  nuvemshopOrder,
  type OrderStack,
  pdfPageTexts,
  SHOPIFY_SHOP,
  shopifyOrder,
  startOrderStack,
} from './testing.ts';

let stack: OrderStack;
beforeAll(async () => {
  // The tracking outbox's poll is off: each test drains it itself.
  stack = await startOrderStack(
    {
      BFF_AGENT_TOKENS: JSON.stringify([
        ...TEST_AGENTS,
        {
          token: 'agent-pac-only-00000001',
          scopes: ['labels'],
          name: 'pac-only',
          services: ['correios-pac'],
        },
      ]),
    },
    { orders: { timers: false }, random: () => 0 },
  );
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

const SENDER = SAMPLE_LABEL.sender;

interface Result {
  orderId: string;
  volumes: {
    volume: number;
    status: number;
    answer: { attemptId?: string; trackingCode?: string; prepostagemId?: string };
  }[];
  refused?: { reason: string };
}

async function issue(orderIds: string[]): Promise<Result[]> {
  const res = await stack.desk.post('/admin/api/orders/labels', { orderIds, sender: SENDER });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Result[] }).results;
}

const prepostings = async () =>
  (
    (await (await stack.sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: { trackingCode: string }[];
    }
  ).prepostings;

describe('a day of orders on the desk', () => {
  it('issues every volume of a selection once, whatever the double clicks, and the orders become labelled', async () => {
    const big = await stack.paid(
      'shopify',
      shopifyOrder({ items: [{ name: 'Panela', sku: 'PAN-01', quantity: 3, grams: 4000, price: 120 }] }),
    );
    const small = await stack.paid('nuvemshop', nuvemshopOrder());
    const ids = [big.order.orderId, small.order.orderId];
    const before = (await prepostings()).length;
    // Two clicks at once, then a third after: the ledger answers the same labels.
    const [first, second] = await Promise.all([issue(ids), issue(ids)]);
    const third = await issue(ids);
    const volumes = (first ?? []).flatMap((r) => r.volumes);
    expect(volumes.length).toBeGreaterThanOrEqual(3);
    // The platform saw one pre-posting per volume: none for the second and third clicks.
    expect((await prepostings()).length - before).toBe(volumes.length);
    for (const result of [...(second ?? []), ...third])
      for (const v of result.volumes) expect(v.status).not.toBe(201);
    const listed = (await (await stack.desk.get('/admin/api/orders')).json()) as {
      orders: { orderId: string; state: string; labels: unknown[] }[];
    };
    for (const id of ids) expect(listed.orders.find((o) => o.orderId === id)?.state).toBe('labelled');
  });

  it('sends the tracking back to each store once, and the emulated stores show the codes', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Helena Faria' } }));
    const nuvem = await stack.paid('nuvemshop', nuvemshopOrder({ customer: { name: 'Igor Sá' } }));
    const [shopifyResult, nuvemResult] = await issue([order.orderId, nuvem.order.orderId]);
    await stack.bff.trackingBack.drain();
    await issue([order.orderId]);
    await stack.bff.trackingBack.drain();
    const codes = (r: Result | undefined) => r?.volumes.map((v) => v.answer.trackingCode);
    const shop = (await (
      await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/orders`, undefined, 'GET')
    ).json()) as {
      orders: { orderId: string; fulfillments: { numbers: string[]; urls: string[]; company: string }[] }[];
    };
    const shopifyOrderSeen = shop.orders.find((o) => o.orderId === order.orderId);
    expect(shopifyOrderSeen?.fulfillments).toHaveLength(1);
    expect(shopifyOrderSeen?.fulfillments[0]).toMatchObject({
      company: 'Correios',
      numbers: codes(shopifyResult),
    });
    expect(shopifyOrderSeen?.fulfillments[0]?.urls[0]).toBe(
      `${stack.bff.url}/track?codes=${codes(shopifyResult)?.join(',')}`,
    );
    const store = (await (
      await stack.sandbox.control(`stores/nuvemshop/${NUVEMSHOP_STORE}/orders`, undefined, 'GET')
    ).json()) as {
      orders: { orderId: string; body: { shipping_status: string; shipping_tracking_number: string } }[];
    };
    expect(store.orders.find((o) => o.orderId === nuvem.order.orderId)?.body).toMatchObject({
      shipping_status: 'shipped',
      shipping_tracking_number: codes(nuvemResult)?.join(', '),
    });
    const view = (await (
      await stack.desk.get(`/admin/api/orders/${encodeURIComponent(order.orderId)}`)
    ).json()) as {
      order: { trackingBack: { state: string } };
    };
    expect(view.order.trackingBack).toMatchObject({ state: 'sent' });
  });

  it('retries a fulfillment call that fails, with backoff, and shows why until it gets through', async () => {
    let clock = Date.now();
    const { order } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Júlia Reis' } }));
    await stack.sandbox.control('stores/shopify/faults', { failFulfillments: 2 });
    await issue([order.orderId]);
    await stack.bff.trackingBack.drain();
    const shown = async () =>
      (
        (await (await stack.desk.get(`/admin/api/orders/${encodeURIComponent(order.orderId)}`)).json()) as {
          order: { trackingBack: { state: string; tries: number; error?: string } };
        }
      ).order.trackingBack;
    expect(await shown()).toMatchObject({
      state: 'retrying',
      tries: 1,
      error: expect.stringContaining('500'),
    });
    // Not due yet: nothing is tried before its backoff.
    expect(await stack.bff.trackingBack.drain()).toBe(0);
    clock = Date.now();
    const fulfillments = stack.bff.backends.fulfillments;
    const due = async () => {
      const row = await fulfillments.get(order.orderId);
      await stack.bff.backends.sql.run('UPDATE store_fulfillments SET next_at = ? WHERE order_id = ?', [
        clock - 1,
        order.orderId,
      ]);
      return row;
    };
    await due();
    await stack.bff.trackingBack.drain();
    expect(await shown()).toMatchObject({ state: 'retrying', tries: 2 });
    await due();
    await stack.bff.trackingBack.drain();
    expect(await shown()).toMatchObject({ state: 'sent', tries: 3 });
  });

  it('prints the day as one PDF, each label stamped with its order and volume, and reports an unprintable one', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Kátia Luz' },
        items: [{ name: 'Panela', quantity: 3, grams: 4000, price: 120 }],
      }),
    );
    const [result] = await issue([order.orderId]);
    const ids = (result?.volumes ?? []).map((v) => v.answer.attemptId ?? '');
    expect(ids.length).toBe(2);
    // A label that never reached the platform (the connection dropped before it): in the ledger, not printable.
    await stack.sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset' });
    const lost = await stack.desk.post('/admin/api/labels', { ...SAMPLE_LABEL, orderId: 'PED-PERDIDO' });
    const lostId = ((await lost.json()) as { attemptId?: string; reason?: string }).attemptId ?? '';
    expect(lostId).not.toBe('');
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await stack.desk.get(
      `/admin/api/labels/print?ids=${[ids[0], lostId, ids[1], missing].join(',')}`,
    );
    expect(res.status).toBe(200);
    const pages = await pdfPageTexts(new Uint8Array(await res.arrayBuffer()));
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain(`${order.orderId} · 1/2`);
    expect(pages[1]).toContain(`${order.orderId} · 2/2`);
    const report = pages[2]?.join(' ') ?? '';
    expect(report).toMatch(/2 etiquetas impressas; 2 não puderam ser impressas/);
    // The desk's words for its state (the connection dropped after sending: unknown until reconciled).
    expect(report).toMatch(
      /PED-PERDIDO · 1 a etiqueta não foi criada \(estado: (Desconhecida|Não enviada)\)/,
    );
    expect(report).toContain(`${missing} esta etiqueta não existe`);
    // Nothing printable: a clear refusal, not an empty PDF.
    const none = await stack.desk.get('/admin/api/labels/print?ids=00000000-0000-4000-8000-000000000000');
    expect(none.status).toBe(409);
  });

  it('lets an agent list the orders to ship and a day’s labels, and issue the planned volumes within its policy', async () => {
    const { order } = await stack.paid('nuvemshop', nuvemshopOrder({ customer: { name: 'Lia Prado' } }));
    const agent = await connectAgent(stack.bff.url, 'agent-all-scopes-0001');
    try {
      const listed = await agent.callTool({ name: 'list_orders_to_ship', arguments: {} });
      const orders = (
        listed.structuredContent as {
          orders: {
            orderId: string;
            serviceId: string;
            recipient: object;
            plan: {
              volumes: {
                weightGrams: number;
                dimensions: object;
                items: { id: string; quantity: number }[];
              }[];
            };
          }[];
        }
      ).orders;
      const mine = orders.find((o) => o.orderId === order.orderId);
      expect(mine?.plan.volumes).toHaveLength(1);
      const volume = mine?.plan.volumes[0];
      const issued = await agent.callTool({
        name: 'generate_label',
        arguments: {
          orderId: order.orderId,
          volume: 1,
          serviceId: mine?.serviceId,
          weightGrams: volume?.weightGrams,
          dimensions: volume?.dimensions,
          sender: SENDER,
          recipient: mine?.recipient,
          declaredItems: volume?.items.map((item) => ({
            conteudo: item.id,
            quantidade: item.quantity,
            valor: 39.9,
          })),
        },
      });
      expect(issued.isError).toBeFalsy();
      const day = await agent.callTool({ name: 'list_labels', arguments: {} });
      const labels = (
        day.structuredContent as { labels: { orderId: string; issuedBy: string; state: string }[] }
      ).labels;
      expect(labels).toContainEqual(
        expect.objectContaining({ orderId: order.orderId, state: 'created', issuedBy: 'agent-1' }),
      );
      const after = await agent.callTool({ name: 'list_orders_to_ship', arguments: {} });
      expect(
        (after.structuredContent as { orders: { orderId: string }[] }).orders.map((o) => o.orderId),
      ).not.toContain(order.orderId);
    } finally {
      await agent.close();
    }
  });

  it('lists to an agent only the orders of services its policy lets it use', async () => {
    const sedex = await stack.paid(
      'nuvemshop',
      nuvemshopOrder({ customer: { name: 'Mara Sedex' }, serviceCode: 'correios-sedex' }),
    );
    const pac = await stack.paid(
      'nuvemshop',
      nuvemshopOrder({ customer: { name: 'Nilo Pac' }, serviceCode: 'correios-pac' }),
    );
    const agent = await connectAgent(stack.bff.url, 'agent-pac-only-00000001');
    try {
      const listed = await agent.callTool({ name: 'list_orders_to_ship', arguments: {} });
      const ids = (listed.structuredContent as { orders: { orderId: string }[] }).orders.map(
        (o) => o.orderId,
      );
      expect(ids).toContain(pac.order.orderId);
      expect(ids).not.toContain(sedex.order.orderId);
    } finally {
      await agent.close();
    }
  });
});
