import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { type DeskClient, deskClient, nuvemshopOrder, shopifyOrder } from '../orders/testing.ts';
import { ShopifyAdmin } from '../shopify/admin-client.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { isStoreRefused } from './store-api.ts';
import { StoresAnswerSchema } from './stores-page.ts';

const SHOP = 'loja-demo.myshopify.com';
const PASSWORD = 'senha-do-lojista-conexao';
/** One clock for the emulated platforms and the BFF: tokens of 4 s renewed over minutes without waiting them. */
let clock = Date.parse('2026-12-06T12:00:00Z');
const now = () => clock;
/** The network between the BFF and the platforms: `loseNext` drops the answer of the next token call after it ran. */
let loseNext = false;
/** `down`: the token endpoint cannot be reached; `tokenCalls` counts the requests that reached it. */
let down = false;
let tokenCalls = 0;
/** `adminDown`: Shopify's Admin GraphQL API cannot be reached (the registration fails). */
let adminDown = false;
/** `revokeDown`: Shopify's uninstall endpoint cannot be reached (the desk's disconnect cannot revoke). */
let revokeDown = false;
const network: typeof fetch = async (input, init) => {
  if (revokeDown && String(input).endsWith('/admin/api_permissions/current.json'))
    throw new TypeError('fetch failed: ETIMEDOUT');
  if (adminDown && String(input).endsWith('/graphql.json')) throw new TypeError('fetch failed: ETIMEDOUT');
  const toToken = String(input).endsWith('/admin/oauth/access_token');
  if (toToken && down) throw new TypeError('fetch failed: connect ECONNREFUSED');
  if (toToken) tokenCalls += 1;
  const res = await fetch(input, init);
  if (loseNext && String(input).endsWith('/admin/oauth/access_token')) {
    loseNext = false;
    throw new TypeError('fetch failed: the answer was lost');
  }
  return res;
};

let sandbox: RunningSandbox;
let bff: RunningBff;
let desk: DeskClient;
beforeAll(async () => {
  sandbox = await startSandbox({ now, shopifyTokenTtlS: 4 });
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
    { now, fetch: network, orders: { timers: false } },
  );
  desk = await deskClient(bff.url, PASSWORD);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

/** The app URL as Shopify's admin opens it when the merchant installs: shop and timestamp, signed. */
function appUrl(shop = SHOP, secret = SANDBOX_SHOPIFY_APP_SECRET): string {
  const params = { shop, timestamp: String(Math.floor(now() / 1000)) };
  const query = new URLSearchParams({ ...params, hmac: shopifyQueryHmac(secret, params) });
  return `${bff.url}/stores/shopify/install?${query}`;
}

const go = (url: string) => fetch(url, { redirect: 'manual' });

/** The merchant's browser from the app URL: the BFF's redirect to Shopify, Shopify's back to the callback. */
async function installShopify(): Promise<{ callback: string; done: Response }> {
  const begin = await go(appUrl());
  expect(begin.status).toBe(302);
  const authorize = new URL(begin.headers.get('location') ?? '');
  expect(authorize.pathname).toBe(`/shopify/${SHOP}/admin/oauth/authorize`);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${bff.url}/stores/shopify/callback`);
  const approved = await go(authorize.toString());
  expect(approved.status).toBe(302);
  const callback = approved.headers.get('location') ?? '';
  return { callback, done: await go(callback) };
}

async function stores() {
  const res = await desk.get('/admin/api/stores');
  expect(res.status).toBe(200);
  return StoresAnswerSchema.parse(await res.json()).stores;
}

function liveTokens(platform: 'shopify' | 'nuvemshop'): string[] {
  return [...sandbox.state.checkouts.installs.tokens]
    .filter(([, t]) => t.platform === platform)
    .map(([token]) => token);
}

/** The merchant approves a store's first install on the desk (no store configured: every first install waits). */
async function approve(platform: 'shopify' | 'nuvemshop', shop: string): Promise<void> {
  const pending = StoresAnswerSchema.parse(await (await desk.get('/admin/api/stores')).json()).pending;
  expect(pending).toEqual([expect.objectContaining({ platform, shop })]);
  const approved = await desk.post('/admin/api/stores/approve', { platform, shop });
  expect(approved.status).toBe(200);
}

describe('Shopify install', () => {
  it('revokes a held install the merchant rejects: the app uninstalled at Shopify, its token dead', async () => {
    expect((await installShopify()).done.status).toBe(302);
    expect(liveTokens('shopify')).toHaveLength(1);
    const rejected = await desk.post('/admin/api/stores/reject', { platform: 'shopify', shop: SHOP });
    expect(await rejected.json()).toEqual({ rejected: true, revoke: 'revoked' });
    expect(liveTokens('shopify')).toEqual([]);
    expect(StoresAnswerSchema.parse(await (await desk.get('/admin/api/stores')).json())).toEqual({
      stores: [],
      pending: [],
    });
  });

  it('revokes a held install rejected after its token expired: renewed with its refresh token first', async () => {
    expect((await installShopify()).done.status).toBe(302);
    clock += 10_000; // the held install's token (4 s) has expired
    const rejected = await desk.post('/admin/api/stores/reject', { platform: 'shopify', shop: SHOP });
    expect(await rejected.json()).toEqual({ rejected: true, revoke: 'revoked' });
    expect(liveTokens('shopify')).toEqual([]);
  });

  it('goes from the app URL to a connected store with an expiring token, its carrier and webhooks registered', async () => {
    const { done } = await installShopify();
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/admin/stores');
    await approve('shopify', SHOP);
    const [store] = await stores();
    expect(store).toMatchObject({
      platform: 'shopify',
      shop: SHOP,
      connected: true,
      token: { kind: 'expiring', expiresAt: new Date(now() + 4000).toISOString() },
      carrier: 'registered',
      webhooks: [
        'orders/paid',
        'orders/updated',
        'orders/cancelled',
        'fulfillment_orders/hold_released',
        'fulfillment_orders/scheduled_fulfillment_order_ready',
        'app/uninstalled',
      ],
    });
    const services = sandbox.state.checkouts.carrierServices.get(SHOP) ?? [];
    expect(services.map((s) => s.callbackUrl)).toEqual([`${bff.url}/checkout/shopify/rates`]);
  });

  it('refuses a replayed callback, a wrong hmac and a foreign shop with 400, and changes nothing', async () => {
    const { callback } = await installShopify();
    const before = await bff.backends.sql.all('SELECT * FROM store_connections');
    expect((await go(callback)).status).toBe(400); // the state and the code were used by installShopify
    const forged = new URL(callback);
    forged.searchParams.set('hmac', '0'.repeat(64));
    expect((await go(forged.toString())).status).toBe(400);
    expect((await go(appUrl(SHOP, 'not-the-secret-of-the-app'))).status).toBe(400);
    // A state issued for loja-demo, answered by another shop's signed callback.
    const begin = await go(appUrl());
    const state = new URL(begin.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const params = {
      code: 'abc',
      shop: 'loja-basica.myshopify.com',
      state,
      timestamp: String(Math.floor(now() / 1000)),
    };
    const foreign = new URLSearchParams({
      ...params,
      hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
    });
    const refused = await go(`${bff.url}/stores/shopify/callback?${foreign}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('another shop');
    // A shop name that is not *.myshopify.com, however well signed.
    expect((await go(appUrl('evil.example.com'))).status).toBe(400);
    // Another shop installing the app while loja-demo is connected: it would take over the BFF's calls.
    const other = await go(appUrl('loja-basica.myshopify.com'));
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('disconnect it on /admin/stores');
    expect(await bff.backends.sql.all('SELECT * FROM store_connections')).toEqual(before);
  });

  it('keeps the tokens sealed at rest and out of every log line and page', async () => {
    const tokens = liveTokens('shopify');
    expect(tokens.length).toBeGreaterThan(0);
    const rows = JSON.stringify(await bff.backends.sql.all('SELECT * FROM store_connections'));
    const page = await (await desk.get('/admin/stores')).text();
    const api = JSON.stringify(await stores());
    for (const token of tokens) {
      expect(rows).not.toContain(token);
      expect(page).not.toContain(token);
      expect(api).not.toContain(token);
      expect(bff.logs.join('\n')).not.toContain(token);
    }
    expect(page).toContain(SHOP);
  });

  it('renews 4-second tokens over 60 periods with no failed store call, a lost refresh answer recovered', async () => {
    let renewed = 0;
    for (let step = 0; step < 240; step += 1) {
      clock += 1000;
      if (step === 100) loseNext = true;
      renewed += await bff.connections.renewDue();
      const access = await bff.connections.access('shopify');
      if (!access) throw new Error('not connected');
      const admin = new ShopifyAdmin({ apiUrl: access.apiUrl, token: access.token });
      await admin.graphql(
        'query { carrierServices(first: 5) { nodes { id } } }',
        {},
        'carrierServices',
        'write_shipping',
      );
    }
    expect(renewed).toBeGreaterThanOrEqual(60);
    expect(loseNext).toBe(false);
    expect(bff.logs.some((line) => line.includes('token not renewed'))).toBe(true);
  });
});

describe('hostile install requests', () => {
  it('answers each with 400 and what was wrong, never a 500, and stores nothing', async () => {
    const before = await bff.backends.sql.all('SELECT * FROM store_connections');
    const signed = new URL(appUrl());
    const twice = new URL(signed);
    twice.searchParams.append('hmac', signed.searchParams.get('hmac') ?? '');
    const added = new URL(signed);
    added.searchParams.append('shop', 'outra.myshopify.com');
    const urls = [
      `${bff.url}/stores/shopify/install`,
      `${bff.url}/stores/shopify/install?shop=${SHOP}`,
      twice.toString(),
      added.toString(),
      `${bff.url}/stores/shopify/install?${'x'.repeat(6000)}=1`,
      `${bff.url}/stores/shopify/callback?code=abc&shop=${SHOP}`,
      `${bff.url}/stores/shopify/callback?${signed.search.slice(1)}&code=`,
      `${bff.url}/stores/nuvemshop/callback`,
      `${bff.url}/stores/nuvemshop/callback?code=${encodeURIComponent('../../etc')}`,
      `${bff.url}/stores/nuvemshop/callback?code=${'a'.repeat(5000)}`,
      `${bff.url}/stores/nuvemshop/callback?code=not-a-code-nuvemshop-gave`,
    ];
    for (const url of urls) {
      const res = await go(url);
      expect([400, 414, 431], url.slice(0, 120)).toContain(res.status);
    }
    const post = await fetch(`${bff.url}/stores/shopify/install`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await bff.backends.sql.all('SELECT * FROM store_connections')).toEqual(before);
  });
});

describe('a connected Shopify store', () => {
  it('renews once however many calls find the token due at the same time', async () => {
    clock += 3000;
    const before = tokenCalls;
    const answers = await Promise.all(Array.from({ length: 10 }, () => bff.connections.access('shopify')));
    expect(tokenCalls - before).toBe(1);
    expect(new Set(answers.map((a) => a?.token)).size).toBe(1);
  });

  it('makes work wait while Shopify cannot be reached, shows why, and carries on after', async () => {
    down = true;
    clock += 5000; // past the token's expiry
    await bff.connections.renewDue();
    const waiting = await bff.connections.access('shopify').catch((error: unknown) => error);
    expect(isStoreRefused(waiting) && waiting.retryable).toBe(true);
    expect((await stores())[0]?.renewal?.error).toMatch(/could not be reached/);
    down = false;
    clock += 1000; // the retry is due within a quarter of the token's life
    expect(await bff.connections.renewDue()).toBe(1);
    expect(await bff.connections.access('shopify')).toMatchObject({ shop: SHOP });
    expect((await stores())[0]?.renewal).toBeUndefined();
  });

  it('does not take an app/uninstalled whose signed body names another shop than its header', async () => {
    const body = JSON.stringify({
      id: 2,
      domain: 'loja-basica.myshopify.com',
      myshopify_domain: 'loja-basica.myshopify.com',
    });
    const res = await fetch(`${bff.url}/stores/shopify/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'app/uninstalled',
        'x-shopify-shop-domain': SHOP,
        'x-shopify-webhook-id': crypto.randomUUID(),
        'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
      },
      body,
    });
    expect(await res.json()).toEqual({ received: 'ignored' });
    expect((await stores())[0]?.connected).toBe(true);
  });

  it('keeps the store connected when Shopify retries an uninstall older than the install', async () => {
    const body = JSON.stringify({ id: 1, domain: SHOP, myshopify_domain: SHOP });
    const res = await fetch(`${bff.url}/stores/shopify/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'app/uninstalled',
        'x-shopify-shop-domain': SHOP,
        'x-shopify-webhook-id': crypto.randomUUID(),
        'x-shopify-triggered-at': new Date(Date.parse('2026-12-06T11:00:00Z')).toISOString(),
        'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
      },
      body,
    });
    expect(await res.json()).toEqual({ received: 'ignored' });
    expect((await stores())[0]?.connected).toBe(true);
  });

  it("answers the emulated checkout's rate request and takes its paid orders", async () => {
    const quote = await sandbox.control(`checkouts/shopify/${SHOP}/quote`, {
      cart: { items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 59.9, weightKg: 0.3 }] },
      destination: { postalCode: '20040-020' },
    });
    const view = (await quote.json()) as { source: string; options: unknown[] };
    expect(view.source).toBe('callback');
    expect(view.options.length).toBeGreaterThan(0);
    const paid = await sandbox.control(`stores/shopify/${SHOP}/orders`, shopifyOrder());
    const { sent, order } = (await paid.json()) as { sent: { status: number }[]; order: { orderId: string } };
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
    const listed = (await (await desk.get('/admin/api/orders')).json()) as { orders: { orderId: string }[] };
    expect(listed.orders.map((o) => o.orderId)).toContain(order.orderId);
    // Its tracking goes back with the installed token.
    expect(await bff.trackingBack.connected('shopify')).toBe(true);
    const stored = await bff.backends.orders.get(order.orderId);
    if (!stored) throw new Error('the order was not kept');
    const tracking = [{ code: 'AA123456785BR', url: `${bff.url}/track?codes=AA123456785BR` }];
    expect(await bff.backends.fulfillments.enqueue(stored, tracking, now())).toBe(true);
    await bff.trackingBack.drain();
    expect((await bff.backends.fulfillments.get(order.orderId))?.state).toBe('sent');
    const emulated = (await (
      await sandbox.control(`stores/shopify/${SHOP}/orders`, undefined, 'GET')
    ).json()) as {
      orders: { orderId: string; fulfillments: { numbers: string[] }[] }[];
    };
    expect(emulated.orders.find((o) => o.orderId === order.orderId)?.fulfillments).toEqual([
      expect.objectContaining({ numbers: ['AA123456785BR'] }),
    ]);
  });
});

describe('app/uninstalled', () => {
  it('deletes the tokens: no call reaches the store after, and the desk says how to reconnect', async () => {
    const uninstall = await sandbox.control(`stores/shopify/${SHOP}/uninstall`);
    expect(((await uninstall.json()) as { sent: { status: number }[] }).sent).toEqual([
      expect.objectContaining({ status: 200 }),
    ]);
    const calls = sandbox.state.checkouts.installs.calls.get(`shopify ${SHOP}`);
    for (let step = 0; step < 20; step += 1) {
      clock += 1000;
      await bff.connections.renewDue();
      expect(await bff.connections.access('shopify')).toBeUndefined();
      await bff.trackingBack.drain();
    }
    expect(sandbox.state.checkouts.installs.calls.get(`shopify ${SHOP}`)).toBe(calls);
    expect(await bff.trackingBack.connected('shopify')).toBe(false);
    expect(await stores()).toEqual([expect.objectContaining({ shop: SHOP, connected: false, webhooks: [] })]);
    expect(await (await desk.get('/admin/stores?lang=en')).text()).toContain('To reconnect');
  });
});

describe('Nuvemshop install', () => {
  const authorize = () =>
    go(
      `${sandbox.url}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent(`${bff.url}/stores/nuvemshop/callback`)}`,
    );

  it('exchanges the code at once, registers the carrier (no free shipping) and the webhooks', async () => {
    const redirect = await authorize();
    const done = await go(redirect.headers.get('location') ?? '');
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/admin/stores');
    await approve('nuvemshop', '1001');
    expect((await stores()).find((s) => s.platform === 'nuvemshop')).toMatchObject({
      shop: '1001',
      connected: true,
      token: { kind: 'nuvemshop' },
      carrier: 'registered',
      webhooks: ['order/paid', 'order/updated', 'order/cancelled', 'app/uninstalled'],
    });
    const [carrier] = sandbox.state.checkouts.carriers.get('1001') ?? [];
    expect(carrier?.callback_url).toBe(`${bff.url}/checkout/nuvemshop/rates/${'n'.repeat(40)}`);
    expect(carrier?.options.length).toBeGreaterThan(0);
    expect(carrier?.options.every((o) => o.allow_free_shipping === false)).toBe(true);
  });

  it('answers the emulated checkout and reads the paid order with the installed token', async () => {
    const quote = await sandbox.control('checkouts/nuvemshop/1001/quote', {
      cart: { items: [{ name: 'Caneca', quantity: 1, unitPriceBRL: 39.9, weightKg: 0.4 }] },
      destination: { postalCode: '80010-010' },
    });
    expect(((await quote.json()) as { source: string }).source).toBe('callback');
    const paid = await sandbox.control('stores/nuvemshop/1001/orders', nuvemshopOrder());
    const { sent, order } = (await paid.json()) as { sent: { status: number }[]; order: { orderId: string } };
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
    const listed = (await (await desk.get('/admin/api/orders')).json()) as { orders: { orderId: string }[] };
    expect(listed.orders.map((o) => o.orderId)).toContain(order.orderId);
    const token = liveTokens('nuvemshop')[0] ?? 'none';
    expect(bff.logs.join('\n')).not.toContain(token);
    expect(await (await desk.get('/admin/stores')).text()).not.toContain(token);
  });

  it('refuses a replayed or a late code with 400 said plainly', async () => {
    const redirect = await authorize();
    const callback = redirect.headers.get('location') ?? '';
    clock += 31_000;
    const late = await go(callback);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('Nuvemshop refused the code');
    const fresh = (await authorize()).headers.get('location') ?? '';
    expect((await go(fresh)).status).toBe(302);
    expect((await go(fresh)).status).toBe(400);
  });
});

describe('disconnect', () => {
  it('takes the Nuvemshop uninstall, and the desk disconnect only with the session and its CSRF token', async () => {
    const uninstall = await sandbox.control('stores/nuvemshop/1001/uninstall');
    expect(((await uninstall.json()) as { sent: { status: number }[] }).sent).toEqual([
      expect.objectContaining({ status: 200 }),
    ]);
    expect(await bff.connections.access('nuvemshop')).toBeUndefined();
    // Shopify again, then "disconnect" from the desk.
    expect((await installShopify()).done.status).toBe(302);
    const forged = await fetch(`${bff.url}/admin/stores/disconnect`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ platform: 'shopify', shop: SHOP }),
    });
    expect(forged.status).toBe(403);
    const noToken = await desk.post(
      '/admin/api/stores/disconnect',
      { platform: 'shopify', shop: SHOP },
      { 'x-csrf-token': 'wrong' },
    );
    expect(noToken.status).toBe(403);
    expect((await stores()).find((s) => s.platform === 'shopify')?.connected).toBe(true);
    const live = liveTokens('shopify');
    expect(live.length).toBeGreaterThan(0);
    const done = await desk.post('/admin/api/stores/disconnect', { platform: 'shopify', shop: SHOP });
    expect(await done.json()).toEqual({ disconnected: true, revoke: 'revoked' });
    expect(await bff.connections.access('shopify')).toBeUndefined();
    // Revoked at Shopify: the app uninstalled from the shop, none of its tokens works any more.
    expect(liveTokens('shopify')).toEqual([]);
    for (const token of live) {
      const call = await fetch(`${sandbox.url}/shopify/${SHOP}/admin/api/2026-01/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query: '{ shop { name } }' }),
      });
      expect(call.status).toBe(401);
    }
  });

  it('disconnects here when Shopify cannot be reached to revoke, and the page says so', async () => {
    expect((await installShopify()).done.status).toBe(302);
    expect((await stores()).find((s) => s.platform === 'shopify')?.connected).toBe(true);
    revokeDown = true;
    try {
      const done = await desk.post('/admin/api/stores/disconnect', { platform: 'shopify', shop: SHOP });
      expect(await done.json()).toEqual({ disconnected: true, revoke: 'failed' });
    } finally {
      revokeDown = false;
    }
    expect(await bff.connections.access('shopify')).toBeUndefined();
    // Shopify still has the app installed: its token still works there until the merchant removes it.
    expect(liveTokens('shopify').length).toBeGreaterThan(0);
    const page = await desk.get('/admin/stores?revoke=failed');
    expect(await page.text()).toContain('Shopify não confirmou a remoção do app');
  });
});

describe('registration that failed', () => {
  it('is tried again with backoff until the carrier and the webhooks are registered', async () => {
    adminDown = true;
    expect((await installShopify()).done.status).toBe(302);
    expect((await stores()).find((s) => s.platform === 'shopify')).toMatchObject({
      connected: true,
      carrier: 'error',
    });
    adminDown = false;
    expect(await bff.connections.registerDue()).toBe(1); // its first retry is due at once
    expect((await stores()).find((s) => s.platform === 'shopify')?.carrier).toBe('registered');
  });

  it('waits its backoff after a failure', async () => {
    await bff.backends.connections.registered('shopify', SHOP, 'error', []);
    adminDown = true;
    expect(await bff.connections.registerDue()).toBe(1);
    adminDown = false;
    expect(await bff.connections.registerDue()).toBe(0);
    clock += 121_000;
    expect(await bff.connections.registerDue()).toBe(1);
    expect((await stores()).find((s) => s.platform === 'shopify')).toMatchObject({
      carrier: 'registered',
      webhooks: [
        'orders/paid',
        'orders/updated',
        'orders/cancelled',
        'fulfillment_orders/hold_released',
        'fulfillment_orders/scheduled_fulfillment_order_ready',
        'app/uninstalled',
      ],
    });
  });
});

describe('client credentials', () => {
  it('gets the token of a Dev Dashboard app with no install and no static token', async () => {
    const own = await startBff(
      sandbox.url,
      {
        BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
        BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
        BFF_SHOPIFY_SHOP: SHOP,
        BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
        // Shopify wants each carrier service's name unique in the shop, and the first BFF's is there.
        BFF_STORE_NAME: 'Loja Própria',
      },
      { now, orders: { timers: false } },
    );
    try {
      const access = await own.connections.access('shopify');
      expect(access?.shop).toBe(SHOP);
      const row = await own.backends.connections.get('shopify', SHOP);
      expect(row?.kind).toBe('client_credentials');
      // Its carrier and webhooks registered with that token, with no command to run.
      expect(row?.carrier, own.logs.filter((l) => l.includes('registration')).join('\n')).toBe('registered');
      clock += 3000; // past its renewal (4 s tokens, renewed at half-life)
      expect(await own.connections.renewDue()).toBe(1);
      expect((await own.backends.connections.get('shopify', SHOP))?.token).not.toBe(row?.token);
      // Uninstalled: no grant asked again, nothing sent to the store.
      await sandbox.control(`stores/shopify/${SHOP}/uninstall`);
      const calls = sandbox.state.checkouts.installs.calls.get(`shopify ${SHOP}`);
      expect(await own.connections.access('shopify')).toBeUndefined();
      expect(await own.trackingBack.connected('shopify')).toBe(false);
      expect(sandbox.state.checkouts.installs.calls.get(`shopify ${SHOP}`)).toBe(calls);
    } finally {
      await own.stop();
    }
  });
});

describe('a static token', () => {
  it('is still taken, shown on the desk, and stays disconnected once disconnected there', async () => {
    const legacy = await startBff(
      sandbox.url,
      {
        BFF_ADMIN_PASSWORD: PASSWORD,
        BFF_SHOPIFY_SHOP: SHOP,
        BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
        BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
      },
      { now, orders: { timers: false } },
    );
    try {
      expect(await legacy.connections.access('shopify')).toMatchObject({
        token: 'shpat_test_demo_0000000001',
      });
      const own = await deskClient(legacy.url, PASSWORD);
      const listed = StoresAnswerSchema.parse(await (await own.get('/admin/api/stores')).json()).stores;
      expect(listed).toEqual([
        expect.objectContaining({ shop: SHOP, connected: true, token: { kind: 'static' } }),
      ]);
      const done = await own.post('/admin/api/stores/disconnect', { platform: 'shopify', shop: SHOP });
      expect(await done.json()).toEqual({ disconnected: true, revoke: 'revoked' });
      expect(await legacy.connections.access('shopify')).toBeUndefined();
      expect(await legacy.trackingBack.connected('shopify')).toBe(false);
      const after = StoresAnswerSchema.parse(await (await own.get('/admin/api/stores')).json()).stores;
      expect(after).toEqual([expect.objectContaining({ shop: SHOP, connected: false })]);
    } finally {
      await legacy.stop();
    }
  });
});
