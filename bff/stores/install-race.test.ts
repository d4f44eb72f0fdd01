import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SHOPIFY_APP_SECRET, SANDBOX_SHOPIFY_CLIENT_ID } from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { type DeskClient, deskClient } from '../orders/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * One store per platform (install-routes.ts, `pinned`): a Shopify install checks that no other store is connected
 * before it exchanges its code, and the exchange takes a while. A held install approved on the desk meanwhile (or another
 * install finishing) connected a second store beside it: the check is made again where the connection is written.
 */
let sandbox: RunningSandbox;
let bff: RunningBff;
let desk: DeskClient;
const PASSWORD = 'senha-do-lojista-corrida';
const SHOP = 'loja-demo.myshopify.com';
const OTHER = 'outra-loja.myshopify.com';
/** Holds Shopify's token endpoint while armed: the install has passed its check and waits for its token. */
let gate: { reached: () => void; open: Promise<void> } | undefined;
const network: typeof fetch = async (input, init) => {
  if (gate && String(input).endsWith('/admin/oauth/access_token')) {
    gate.reached();
    await gate.open;
  }
  return fetch(input, init);
};

beforeAll(async () => {
  sandbox = await startSandbox({});
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
      BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
      BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
    },
    { fetch: network, orders: { timers: false } },
  );
  desk = await deskClient(bff.url, PASSWORD);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

/** The merchant's browser from the app URL (signed as Shopify's admin opens it) to the callback. */
async function install(): Promise<Response> {
  const params = { shop: SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
  const query = new URLSearchParams({
    ...params,
    hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
  });
  const begin = await fetch(`${bff.url}/stores/shopify/install?${query}`, { redirect: 'manual' });
  const authorized = await fetch(begin.headers.get('location') ?? '', { redirect: 'manual' });
  return fetch(authorized.headers.get('location') ?? '', { redirect: 'manual' });
}

describe('an install and an approve at once', () => {
  it('connects one store: the install that checked before the approve is refused when it ends', async () => {
    // The shop was connected once (approved), then disconnected: its next install needs no approval.
    expect((await install()).status).toBe(302);
    const approved = await desk.post('/admin/api/stores/approve', { platform: 'shopify', shop: SHOP });
    expect(await approved.json()).toEqual({ approved: true });
    const disconnect = await desk.post('/admin/api/stores/disconnect', { platform: 'shopify', shop: SHOP });
    expect((await disconnect.json()).disconnected).toBe(true);
    // Another store's install waits for approval.
    await bff.backends.connections.hold(
      'shopify',
      OTHER,
      {
        kind: 'static',
        token: 'v1.sealed.elsewhere.x',
        refresh: null,
        issuedAt: Date.now(),
        expiresAt: null,
        refreshExpiresAt: null,
        renewAt: null,
      },
      Date.now(),
    );

    const { promise: atGate, resolve: reached } = Promise.withResolvers<void>();
    const { promise: opened, resolve: open } = Promise.withResolvers<void>();
    gate = { reached, open: opened };
    const reinstall = install();
    await atGate; // the shop's install found no store connected and is exchanging its code
    const approve = await desk.post('/admin/api/stores/approve', { platform: 'shopify', shop: OTHER });
    expect(await approve.json()).toEqual({ approved: true });
    open();
    gate = undefined;
    const done = await reinstall;
    expect(done.status).toBe(400);
    expect(await done.text()).toContain(OTHER);
    const connected = await bff.backends.sql.all(
      "SELECT shop FROM store_connections WHERE platform = 'shopify' AND token IS NOT NULL",
    );
    expect(connected).toEqual([{ shop: OTHER }]);
    // The refused install's token is revoked at Shopify: no live token of the shop is left behind.
    const live = [...sandbox.state.checkouts.installs.tokens.values()].filter((t) => t.store === SHOP);
    expect(live).toEqual([]);
  });
});
