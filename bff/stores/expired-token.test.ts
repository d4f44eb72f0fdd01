import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SHOPIFY_APP_SECRET, SANDBOX_SHOPIFY_CLIENT_ID } from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { type DeskClient, deskClient, shopifyOrder } from '../orders/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * Bad luck: Shopify's token endpoint is unreachable for longer than what is left of the installed shop's token, so
 * the token expires before it is renewed. An `orders/paid` webhook carries the whole order and needs no token, yet
 * the route asked `access()` which shop is connected, `access()` refused (expired, renewal pending) and the webhook
 * was answered `200 {"received":"ignored"}`: Shopify does not send it again, and the paid order never reached the
 * desk. The shop is known without a live token.
 */
const SHOP = 'loja-demo.myshopify.com';
const PASSWORD = 'senha-do-lojista-expirado';
let clock = Date.parse('2026-12-06T12:00:00Z');
const now = () => clock;
let down = false;
const network: typeof fetch = async (input, init) => {
  if (down && String(input).endsWith('/admin/oauth/access_token'))
    throw new TypeError('fetch failed: connect ECONNREFUSED');
  return fetch(input, init);
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
    },
    { now, fetch: network, orders: { timers: false } },
  );
  desk = await deskClient(bff.url, PASSWORD);
  const params = { shop: SHOP, timestamp: String(Math.floor(now() / 1000)) };
  const query = new URLSearchParams({
    ...params,
    hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
  });
  const go = (url: string) => fetch(url, { redirect: 'manual' });
  const begin = await go(`${bff.url}/stores/shopify/install?${query}`);
  const approved = await go(begin.headers.get('location') ?? '');
  expect((await go(approved.headers.get('location') ?? '')).status).toBe(302);
  // No BFF_SHOPIFY_SHOP: the first install waits for the merchant's approval on the desk.
  expect((await desk.post('/admin/api/stores/approve', { platform: 'shopify', shop: SHOP })).status).toBe(
    200,
  );
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

describe('a paid order while the installed token has expired and cannot be renewed yet', () => {
  it('is taken (the webhook needs no token), not answered "ignored"', async () => {
    down = true;
    clock += 5000; // past the 4-second token's expiry
    try {
      const paid = await sandbox.control(`stores/shopify/${SHOP}/orders`, shopifyOrder());
      const { sent, order } = (await paid.json()) as {
        sent: { status: number; body?: string }[];
        order: { orderId: string };
      };
      expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
      const listed = (await (await desk.get('/admin/api/orders')).json()) as {
        orders: { orderId: string }[];
      };
      expect(listed.orders.map((o) => o.orderId)).toContain(order.orderId);
    } finally {
      down = false;
    }
  });
});
