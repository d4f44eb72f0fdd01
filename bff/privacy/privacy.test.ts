import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
} from '../../sandbox/checkouts/accounts.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { formatWhen } from '../desk/format.ts';
import {
  NUVEMSHOP_STORE,
  nuvemshopOrder,
  type OrderStack,
  SHOPIFY_SHOP,
  shopifyOrder,
  startOrderStack,
} from '../orders/testing.ts';
import { type StoredPrivacyRequest, StoredPrivacyRequestSchema } from './requests.ts';
import { privacyRequestsSection } from './requests-view.ts';

/**
 * The platforms' own example payloads, verbatim:
 *
 * - Shopify: https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance (the three topics' "Example
 *   payload"), also quoted in Shopify/shopify-app-js's app template (`CUSTOMERS_DATA_REQUEST`, `CUSTOMERS_REDACT`,
 *   `SHOP_REDACT` handlers' comments).
 * - Nuvemshop: TiendaNube/api-docs resources/webhook.md, "Required Webhooks" (commit 4058823). Its examples are
 *   JavaScript, not JSON (`email: email@email.com`, `phone: +55...`): they are fed here with only the quotes JSON
 *   needs, and `identification: ...` as text. Its Postman tool (utils/lgpd-webhooks-testing-tool) sends
 *   `JSON.stringify({ "store_id": jsonData.id })`.
 */
const SHOPIFY_DATA_REQUEST = `{
  "shop_id": 954889,
  "shop_domain": "{shop}.myshopify.com",
  "orders_requested": [
    299938,
    280263,
    220458
  ],
  "customer": {
    "id": 191167,
    "email": "john@example.com",
    "phone": "555-625-1199"
  },
  "data_request": {
    "id": 9999
  }
}`;
const SHOPIFY_CUSTOMER_REDACT = `{
  "shop_id": 954889,
  "shop_domain": "{shop}.myshopify.com",
  "customer": {
    "id": 191167,
    "email": "john@example.com",
    "phone": "555-625-1199"
  },
  "orders_to_redact": [
    299938,
    280263,
    220458
  ]
}`;
const SHOPIFY_SHOP_REDACT = `{
  "shop_id": 954889,
  "shop_domain": "{shop}.myshopify.com"
}`;
const NUVEMSHOP_STORE_REDACT = `{
  "store_id": 123
}`;
const NUVEMSHOP_CUSTOMERS_REDACT = `{
"store_id": 123,
"customer": {
	"id": 1,
	"email": "email@email.com",
	"phone": "+55...",
	"identification": "..."
},
"orders_to_redact": [213, 3415, 21515]
}`;
const NUVEMSHOP_DATA_REQUEST = `{
"store_id": 123,
"customer": {
	"id": 1,
	"email": "email@email.com",
	"phone": "+55...",
	"identification": "..."
},
"orders_requested": [213, 3415, 21515],
"checkouts_requested": [214, 3416, 21518],
"drafts_orders_requested": [10, 1245, 5456],
"data_request": {
	"id": 456
}
}`;

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

/** The shop a payload names, for its header (the fixture shop when the payload is not one). */
function shopOf(body: string): string {
  try {
    return String((JSON.parse(body) as { shop_domain?: unknown }).shop_domain ?? SHOPIFY_SHOP);
  } catch {
    return SHOPIFY_SHOP;
  }
}

function shopify(topic: string, body: string, change: Record<string, string> = {}) {
  return fetch(`${stack.bff.url}/stores/shopify/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': shopOf(body),
      'x-shopify-webhook-id': crypto.randomUUID(),
      ...change,
    },
    body,
  });
}

function nuvemshop(
  event: string,
  body: string,
  signature = nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
) {
  return fetch(`${stack.bff.url}/stores/nuvemshop/webhooks/${event}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-linkedstore-hmac-sha256': signature },
    body,
  });
}

async function requests(): Promise<StoredPrivacyRequest[]> {
  const res = await stack.desk.get('/admin/api/privacy/requests');
  expect(res.status).toBe(200);
  return ((await res.json()) as { requests: unknown[] }).requests.map((r) =>
    StoredPrivacyRequestSchema.parse(r),
  );
}

describe("the platforms' example payloads, fed verbatim", () => {
  it("answers each of Shopify's three compliance topics 200 (a shop not ours: nothing to erase)", async () => {
    for (const [topic, body, received] of [
      ['customers/data_request', SHOPIFY_DATA_REQUEST, 'recorded'],
      ['customers/redact', SHOPIFY_CUSTOMER_REDACT, 'erased'],
      ['shop/redact', SHOPIFY_SHOP_REDACT, 'erased'],
    ] as const) {
      const res = await shopify(topic, body);
      expect(res.status, topic).toBe(200);
      expect(await res.json()).toEqual({ received });
    }
    const listed = await requests();
    // Not our shop: recorded as seen, without its shopper (bff/privacy/other-stores.test.ts).
    expect(listed.find((r) => r.store === '{shop}.myshopify.com' && r.kind === 'data_request')).toMatchObject(
      { customer: {}, orders: [], requestId: '9999' },
    );
    expect(listed.find((r) => r.kind === 'customer_redact')).toMatchObject({
      customer: {},
      erased: { orders: 0, labels: 0, approvals: 0, emails: 0, requests: 0 },
    });
  });

  it("answers each of Nuvemshop's three LGPD webhooks 200", async () => {
    for (const [event, body, received] of [
      ['customers/data_request', NUVEMSHOP_DATA_REQUEST, 'recorded'],
      ['customers/redact', NUVEMSHOP_CUSTOMERS_REDACT, 'erased'],
      ['store/redact', NUVEMSHOP_STORE_REDACT, 'erased'],
      ['store/redact', JSON.stringify({ store_id: '123' }), 'erased'],
    ] as const) {
      const res = await nuvemshop(event, body);
      expect(res.status, event).toBe(200);
      expect(await res.json()).toEqual({ received });
    }
  });

  it('refuses a compliance webhook without a valid signature with 401, as Shopify requires, and records nothing', async () => {
    const before = (await requests()).length;
    const forged = await shopify('customers/redact', SHOPIFY_CUSTOMER_REDACT, {
      'x-shopify-hmac-sha256': shopifyHmac('another-app-secret-000', SHOPIFY_CUSTOMER_REDACT),
    });
    expect(forged.status).toBe(401);
    const { 'x-shopify-hmac-sha256': _none, ...unsigned } = {
      'x-shopify-hmac-sha256': '',
      'x-shopify-topic': 'shop/redact',
    };
    const missing = await fetch(`${stack.bff.url}/stores/shopify/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...unsigned },
      body: SHOPIFY_SHOP_REDACT,
    });
    expect(missing.status).toBe(401);
    const nuvem = await nuvemshop(
      'store/redact',
      NUVEMSHOP_STORE_REDACT,
      nuvemshopHmac('x'.repeat(32), '{}'),
    );
    expect(nuvem.status).toBe(401);
    expect(await requests()).toHaveLength(before);
  });

  it('answers signed but malformed requests 400 with what is wrong, never a 500, and records nothing', async () => {
    const before = (await requests()).length;
    const shopifyBodies = [
      'not json',
      '[]',
      JSON.stringify({ shop_domain: SHOPIFY_SHOP, customer: 'john@example.com' }),
      JSON.stringify({
        shop_domain: SHOPIFY_SHOP,
        orders_to_redact: Array.from({ length: 10_001 }, (_, i) => i),
      }),
      JSON.stringify({ shop_id: 1 }),
    ];
    for (const body of shopifyBodies) {
      const res = await shopify('customers/redact', body, { 'x-shopify-shop-domain': SHOPIFY_SHOP });
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toMatch(/^invalid_(json|body)$/);
    }
    for (const body of [
      '{}',
      JSON.stringify({ store_id: { id: 1 } }),
      JSON.stringify({ store_id: 1, customer: [] }),
    ]) {
      const res = await nuvemshop('customers/redact', body);
      expect(res.status, body).toBe(400);
    }
    expect(await requests()).toHaveLength(before);
  });

  it('keeps nothing when the payload names another shop than its header', async () => {
    const before = (await requests()).length;
    const res = await shopify('customers/redact', SHOPIFY_CUSTOMER_REDACT, {
      'x-shopify-shop-domain': SHOPIFY_SHOP,
    });
    expect(await res.json()).toEqual({ received: 'ignored' });
    expect(await requests()).toHaveLength(before);
  });
});

describe('customers/data_request: the merchant sees and exports what the kit holds', () => {
  it("records the request once (a retried delivery), and exports the customer's orders of our store only", async () => {
    const email = 'helena.vidal@example.org';
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({ customer: { name: 'Helena Vidal', email } }),
    );
    await stack.paid('nuvemshop', nuvemshopOrder({ customer: { name: 'Helena Vidal', email } }));
    await stack.paid('shopify', shopifyOrder({ customer: { name: 'Ivo Paz', email: 'ivo@example.org' } }));
    const body = JSON.stringify({
      shop_id: 954889,
      shop_domain: SHOPIFY_SHOP,
      orders_requested: [],
      customer: { id: 42, email: email.toUpperCase(), phone: null },
      data_request: { id: 10 },
    });
    const id = crypto.randomUUID();
    const first = await shopify('customers/data_request', body, { 'x-shopify-webhook-id': id });
    const again = await shopify('customers/data_request', body, { 'x-shopify-webhook-id': id });
    expect(await first.json()).toEqual({ received: 'recorded' });
    expect(await again.json()).toEqual({ received: 'duplicate' });
    const mine = (await requests()).filter((r) => r.requestId === '10');
    expect(mine).toHaveLength(1);

    const exported = await stack.desk.get(`/admin/api/privacy/requests/${mine[0]?.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="privacy-request-/);
    const held = (await exported.json()) as { orders: { orderId: string; order: { source: string } }[] };
    // Shopify's request is about the Shopify store's orders: the Nuvemshop order of the same e-mail is not in it.
    expect(held.orders.map((o) => o.orderId)).toEqual([order.orderId]);
    expect(JSON.stringify(held)).not.toContain('Ivo Paz');
  });

  it('finds an order by the id alone, when the customer has no contact in it', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Kátia Leme' } }));
    const body = JSON.stringify({
      shop_id: 954889,
      shop_domain: SHOPIFY_SHOP,
      orders_requested: [order.id],
      customer: { id: 77, email: 'outra@example.org', phone: null },
      data_request: { id: 11 },
    });
    expect(await (await shopify('customers/data_request', body)).json()).toEqual({ received: 'recorded' });
    const request = (await requests()).find((r) => r.requestId === '11');
    const held = (await (
      await stack.desk.get(`/admin/api/privacy/requests/${request?.id}/export`)
    ).json()) as {
      orders: { orderId: string }[];
    };
    expect(held.orders.map((o) => o.orderId)).toEqual([order.orderId]);
  });

  it('finds an order whose id is above 2^53, written as Shopify writes it (a JSON number), by its exact digits', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({ customer: { name: 'Lia Exata' }, id: '820982911946154509' }),
    );
    // JSON.parse would read 820982911946154509 as 820982911946154500: another order, or none.
    const body = `{"shop_id":954889,"shop_domain":"${SHOPIFY_SHOP}","orders_requested":[820982911946154509],"customer":{"id":78,"email":"lia@example.org","phone":null},"data_request":{"id":12}}`;
    expect(await (await shopify('customers/data_request', body)).json()).toEqual({ received: 'recorded' });
    const request = (await requests()).find((r) => r.requestId === '12');
    const held = (await (
      await stack.desk.get(`/admin/api/privacy/requests/${request?.id}/export`)
    ).json()) as { orders: { orderId: string }[] };
    expect(held.orders.map((o) => o.orderId)).toEqual([order.orderId]);
  });

  it('keeps the API behind the admin session', async () => {
    expect((await fetch(`${stack.bff.url}/admin/api/privacy/requests`)).status).toBe(401);
    const [first] = await requests();
    expect((await fetch(`${stack.bff.url}/admin/api/privacy/requests/${first?.id}/export`)).status).toBe(401);
    expect((await stack.desk.get('/admin/api/privacy/requests/nao-existe/export')).status).toBe(404);
  });

  it('shows the requests in the section the stores page includes, escaped', async () => {
    const listed = await requests();
    const section = privacyRequestsSection({ requests: listed }).text;
    expect(section).toContain('Pedidos de privacidade (LGPD)');
    expect(section).toContain('helena.vidal@example.org'.toUpperCase());
    expect(section).toMatch(/href="\/admin\/api\/privacy\/requests\/[^"]+\/export"/);
    expect(section).toContain('Apagado: 0 pedido(s)');
    const hostile = privacyRequestsSection({
      requests: [
        { ...(listed[0] as StoredPrivacyRequest), customer: { email: '<script>alert(1)</script>' } },
      ],
    }).text;
    expect(hostile).not.toContain('<script>');
    expect(privacyRequestsSection({ requests: [] }).text).toContain('Nenhum pedido');
    // In the desk's other languages too, every word from the catalog.
    const english = privacyRequestsSection({ requests: listed, lang: 'en' }).text;
    expect(english).toContain('Privacy requests (LGPD)');
    expect(english).toContain('Erased: 0 order(s)');
    expect(english).not.toMatch(/Apagado|Pedido de dados|Recebido/);
    const spanish = privacyRequestsSection({ requests: listed, lang: 'es' }).text;
    expect(spanish).toContain('Solicitudes de privacidad (LGPD)');
    expect(spanish).toContain('Borrado: 0 pedido(s)');
    expect(spanish).not.toMatch(/Apagado|Pedido de dados|Recebido/);
    const pageEs = await (await stack.desk.get('/admin/privacy?lang=es')).text();
    expect(pageEs).toContain('Solicitudes de privacidad (LGPD)');
    expect(pageEs).toContain('lang="es"');
    const storesEn = await (await stack.desk.get('/admin/stores?lang=en')).text();
    expect(storesEn).toContain('Privacy requests (LGPD)');
    // Each request's time in Brasília's, as on every desk page (received 2026-…T…Z in UTC).
    const first = listed[0] as StoredPrivacyRequest;
    expect(section).toContain('<th scope="col">Recebido (horário de Brasília)</th>');
    expect(section).toContain(`<td>${formatWhen(first.receivedAt, 'pt-BR')}</td>`);
    expect(section).not.toContain(`<td>${first.receivedAt.slice(0, 16).replace('T', ' ')}</td>`);
    const page = await stack.desk.get('/admin/privacy');
    expect(page.status).toBe(200);
    const own = await page.text();
    expect(own).toContain('id="privacy-requests"');
    // On its own page: a heading of its own, under the stores' tab.
    expect(own).toMatch(/<h1>Privacidade<\/h1>\s*<section id="privacy-requests">/);
    expect(own).toMatch(/<a href="\/admin\/stores" aria-current="page">/);
    // The stores page offers the same section (ARCHITECTURE "Connected stores").
    const stores = await stack.desk.get('/admin/stores');
    expect(stores.status).toBe(200);
    const storesPage = await stores.text();
    expect(storesPage).toContain('Pedidos de privacidade (LGPD)');
    expect(storesPage).toContain('helena.vidal@example.org'.toUpperCase());
    const anonymous = await fetch(`${stack.bff.url}/admin/privacy`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });
});

describe('Nuvemshop store id', () => {
  it('erases for our store only', async () => {
    const res = await nuvemshop('store/redact', JSON.stringify({ store_id: Number(NUVEMSHOP_STORE) + 1 }));
    expect(await res.json()).toEqual({ received: 'erased' });
    const listed = (await (await stack.desk.get('/admin/api/orders')).json()) as {
      orders: { source: string }[];
    };
    expect(listed.orders.some((o) => o.source === 'nuvemshop')).toBe(true);
  });
});

describe("the sandbox's emulated platforms send privacy requests on request", () => {
  it('sends Shopify and Nuvemshop requests for an order, signed, and the BFF answers them', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Joana Reis', email: 'joana.reis@example.org', phone: '11955554444' },
      }),
    );
    const shopifySent = await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/privacy`, {
      topic: 'customers/data_request',
      url: `${stack.bff.url}/stores/shopify/webhooks`,
      orders: [order.id],
    });
    const shopifyAnswer = (await shopifySent.json()) as { sent: { status: number; body: object } };
    expect(shopifyAnswer.sent).toMatchObject({
      status: 200,
      body: {
        shop_domain: SHOPIFY_SHOP,
        orders_requested: [order.id],
        customer: { email: 'joana.reis@example.org' },
      },
    });
    const nuvem = await stack.paid(
      'nuvemshop',
      nuvemshopOrder({ customer: { name: 'Joana Reis', cpf: '52998224725' } }),
    );
    const nuvemSent = await stack.sandbox.control(`stores/nuvemshop/${NUVEMSHOP_STORE}/privacy`, {
      topic: 'customers/redact',
      url: `${stack.bff.url}/stores/nuvemshop/webhooks/customers/redact`,
      orders: [nuvem.order.id],
    });
    const nuvemAnswer = (await nuvemSent.json()) as { sent: { status: number; body: object } };
    expect(nuvemAnswer.sent).toMatchObject({
      status: 200,
      body: { store_id: Number(NUVEMSHOP_STORE), orders_to_redact: [nuvem.order.id] },
    });
    const wrongTopic = await stack.sandbox.control(`stores/nuvemshop/${NUVEMSHOP_STORE}/privacy`, {
      topic: 'shop/redact',
      url: `${stack.bff.url}/stores/nuvemshop/webhooks/store/redact`,
    });
    expect(wrongTopic.status).toBe(400);
  });
});
