import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import type { StoreOrder } from '../../shared/orders/order.ts';
import { type DeskClient, deskClient, nuvemshopOrder, shopifyOrder } from '../orders/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * A BFF whose stores connected by installing the app (no `BFF_SHOPIFY_SHOP`, no `BFF_NUVEMSHOP_STORE_ID`): the
 * platforms sign every store's compliance and LGPD requests with the one app secret, so a request about another store
 * that installed the same app (a stranger's dev store; a shop refused at the callback is still installed on
 * Shopify's side, and gets its `shop/redact` 48 h after it uninstalls) arrives signed. It must not erase the
 * connected store's orders, nor its customers.
 */
const SHOP = 'loja-demo.myshopify.com';
const STRANGER_SHOP = 'loja-estranha.myshopify.com';
const PASSWORD = 'senha-do-lojista-privacidade';

let sandbox: RunningSandbox;
let bff: RunningBff;
let desk: DeskClient;
const go = (url: string) => fetch(url, { redirect: 'manual' });

beforeAll(async () => {
  sandbox = await startSandbox({});
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
      BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
      BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
      BFF_NUVEMSHOP_APP_ID: SANDBOX_NUVEMSHOP_APP_ID,
      BFF_NUVEMSHOP_APP_SECRET: SANDBOX_NUVEMSHOP_APP_SECRET,
      BFF_NUVEMSHOP_AUTH_URL: `${sandbox.url}/nuvemshop`,
      BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
      BFF_NUVEMSHOP_CALLBACK_SECRET: 'n'.repeat(40),
    },
    { orders: { timers: false } },
  );
  desk = await deskClient(bff.url, PASSWORD);
  // Shopify: the merchant installs from the app URL.
  const params = { shop: SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
  const query = new URLSearchParams({
    ...params,
    hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
  });
  const begin = await go(`${bff.url}/stores/shopify/install?${query}`);
  const approved = await go(begin.headers.get('location') ?? '');
  expect((await go(approved.headers.get('location') ?? '')).status).toBe(302);
  // Nuvemshop: store 1001 installs from its admin.
  const redirect = await go(
    `${sandbox.url}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent(`${bff.url}/stores/nuvemshop/callback`)}`,
  );
  expect((await go(redirect.headers.get('location') ?? '')).status).toBe(302);
  // No store configured: each first install waits for the merchant's approval on the desk.
  for (const [platform, shop] of [
    ['shopify', SHOP],
    ['nuvemshop', '1001'],
  ] as const)
    expect((await desk.post('/admin/api/stores/approve', { platform, shop })).status).toBe(200);
  for (const [platform, store, order] of [
    ['shopify', SHOP, shopifyOrder()],
    ['nuvemshop', '1001', nuvemshopOrder()],
  ] as const) {
    const paid = await sandbox.control(`stores/${platform}/${store}/orders`, order);
    expect(paid.status).toBe(201);
  }
  expect(await orders()).toHaveLength(2);
}, 60_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

async function orders(): Promise<{ orderId: string; source: string; recipient?: { nome?: string } }[]> {
  const res = await desk.get('/admin/api/orders');
  return ((await res.json()) as { orders: { orderId: string; source: string }[] }).orders;
}

async function recipients(): Promise<string[]> {
  const rows = await bff.backends.sql.all('SELECT body FROM store_orders ORDER BY order_id');
  return rows.map((row) =>
    String((JSON.parse(String(row.body)) as { recipient: { nome: string } }).recipient.nome),
  );
}

function shopifyCompliance(topic: string, payload: object) {
  const body = JSON.stringify(payload);
  return fetch(`${bff.url}/stores/shopify/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': STRANGER_SHOP,
      'x-shopify-webhook-id': crypto.randomUUID(),
    },
    body,
  });
}

function lgpd(event: string, payload: object) {
  const body = JSON.stringify(payload);
  return fetch(`${bff.url}/stores/nuvemshop/webhooks/${event}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
    },
    body,
  });
}

describe('privacy requests of a store that is not the installed one', () => {
  it("erase nothing of the installed stores' customers (customers/redact naming their e-mail)", async () => {
    const before = await recipients();
    const shopify = await shopifyCompliance('customers/redact', {
      shop_id: 1,
      shop_domain: STRANGER_SHOP,
      customer: { id: 1, email: 'ana@example.com' },
      orders_to_redact: [],
    });
    expect(shopify.status).toBe(200);
    const nuvemshop = await lgpd('customers/redact', {
      store_id: 9999,
      customer: { id: 1, email: 'bruno@example.com', identification: '52998224725' },
      orders_to_redact: [],
    });
    expect(nuvemshop.status).toBe(200);
    expect(await recipients()).toEqual(before);
  });

  it("delete none of the installed stores' orders (shop/redact, store/redact of a stranger)", async () => {
    expect((await shopifyCompliance('shop/redact', { shop_id: 1, shop_domain: STRANGER_SHOP })).status).toBe(
      200,
    );
    expect((await lgpd('store/redact', { store_id: 9999 })).status).toBe(200);
    expect((await orders()).map((o) => o.source).sort()).toEqual(['nuvemshop', 'shopify']);
  });
});

describe("a stranger store's data request", () => {
  it("is recorded without its customer: the kit keeps no other store's shopper", async () => {
    const res = await shopifyCompliance('customers/data_request', {
      shop_id: 1,
      shop_domain: STRANGER_SHOP,
      orders_requested: [],
      customer: { id: 7, email: 'cliente-de-outra-loja@example.com', phone: '+55 21 91234-5678' },
      data_request: { id: 77 },
    });
    expect(res.status).toBe(200);
    const rows = await bff.backends.sql.all('SELECT store, customer FROM privacy_requests');
    expect(rows.some((row) => row.store === STRANGER_SHOP)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('cliente-de-outra-loja');
    expect(JSON.stringify(rows)).not.toContain('91234');
  });
});

describe('a signed body replayed under another topic or URL (the topic header and the URL are not signed)', () => {
  /**
   * Shopify signs the body, not `x-shopify-topic`; Nuvemshop signs the body, not the LGPD event's URL. A signed body
   * seen once (a data request, an order webhook) must not become an erasure by being sent again under
   * `shop/redact`, `customers/redact` or to `/webhooks/store/redact`: the body must be the shape of its topic.
   */
  it("erases nothing when a data request's body comes back as shop/redact or customers/redact", async () => {
    const body = JSON.stringify({
      shop_id: 1,
      shop_domain: SHOP,
      orders_requested: [],
      customer: { id: 1, email: 'ana@example.com' },
      data_request: { id: 9999 },
    });
    const send = (topic: string) =>
      fetch(`${bff.url}/stores/shopify/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': SHOP,
          'x-shopify-webhook-id': crypto.randomUUID(),
        },
        body,
      });
    expect((await send('customers/data_request')).status).toBe(200);
    const before = await recipients();
    expect((await send('customers/redact')).status).toBe(400);
    expect((await send('shop/redact')).status).toBe(400);
    expect(await recipients()).toEqual(before);
    expect((await orders()).map((o) => o.source)).toContain('shopify');
  });

  it("deletes nothing when a Nuvemshop order webhook's body is sent to the store/redact URL", async () => {
    const before = await recipients();
    const response = await lgpd('store/redact', { store_id: 1001, event: 'order/paid', id: 1 });
    expect(response.status).toBe(400);
    const redact = await lgpd('customers/redact', { store_id: 1001, event: 'order/paid', id: 1 });
    expect(redact.status).toBe(400);
    expect(await recipients()).toEqual(before);
    expect((await orders()).map((o) => o.source).sort()).toEqual(['nuvemshop', 'shopify']);
  });
});

describe('store/redact of a store connected before the one connected now', () => {
  /**
   * Issue 44, finding 13: `store_orders` had no column for the store an order came from, so `eraseStore` deleted by
   * platform, and `isOurs` said yes only to the store connected last. After the merchant moves to another Nuvemshop
   * store (1001 uninstalled, a new store installed: here its row written as an install writes it, the sandbox having
   * one store), the `store/redact` Nuvemshop sends for 1001 erased nothing, and 1001's shoppers' names and addresses
   * stayed. Each order now keeps its store, and a redact erases by it.
   */
  it("erases the former store's orders once another store is connected", async () => {
    const uninstall = await sandbox.control('stores/nuvemshop/1001/uninstall');
    expect(uninstall.status).toBe(200);
    await connectNuvemshop('2002');
    expect((await lgpd('store/redact', { store_id: 1001 })).status).toBe(200);
    expect((await orders()).map((o) => o.source)).toEqual(['shopify']);
  });

  it("erases only the named store's orders, not those of a look-alike store id connected too", async () => {
    await connectNuvemshop('20020');
    for (const [store, orderId] of [
      ['2002', '#N-2002'],
      ['20020', '#N-20020'],
    ] as const) {
      const received = await bff.backends.orders.receive(storeOrder(orderId), {
        store,
        version: '2026-01-01T10:00:00Z',
      });
      expect(received).toBe('created');
    }
    expect((await lgpd('store/redact', { store_id: 2002 })).status).toBe(200);
    const left = await orders();
    expect(left.filter((o) => o.source === 'nuvemshop').map((o) => o.orderId)).toEqual(['#N-20020']);
    expect(left.map((o) => o.source)).toContain('shopify');
  });
});

function connectNuvemshop(store: string) {
  return bff.backends.connections.connect(
    'nuvemshop',
    store,
    {
      kind: 'nuvemshop',
      token: 'v1.sealed.elsewhere.x',
      refresh: null,
      issuedAt: Date.now() + 1000,
      expiresAt: null,
      refreshExpiresAt: null,
      renewAt: null,
    },
    Date.now() + 1000,
  );
}

function storeOrder(orderId: string): StoreOrder {
  return {
    orderId,
    source: 'nuvemshop',
    externalId: orderId.replace(/\D/g, ''),
    serviceId: 'correios-pac',
    recipient: {
      nome: `Cliente ${orderId}`,
      endereco: {
        cep: '01310100',
        logradouro: 'Av. Paulista',
        numero: '1',
        bairro: 'Bela Vista',
        cidade: 'São Paulo',
        uf: 'SP',
      },
    },
    items: [{ name: 'Camiseta', quantity: 1, weightGrams: 300, valor: 10 }],
    needsReview: [],
  };
}
