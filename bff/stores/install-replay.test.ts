import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SHOPIFY_APP_SECRET, SANDBOX_SHOPIFY_CLIENT_ID } from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { INSTALL_STATE_LIMIT } from './connection-store.ts';

/**
 * The app URL Shopify signs (`shop`, `timestamp`, `hmac`) is taken for 24 hours and leaks where URLs leak (browser
 * history, a proxy's log, a shared screen): each replay keeps a new install state. A stranger replaying one link in a
 * loop must not grow the table without bound; the merchant's last install must still complete.
 */
const SHOP = 'loja-demo.myshopify.com';

let sandbox: RunningSandbox;
let bff: RunningBff;
beforeAll(async () => {
  sandbox = await startSandbox({});
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: 'senha-do-lojista-replay',
      BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
      BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
      BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
    },
    { orders: { timers: false } },
  );
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const go = (url: string) => fetch(url, { redirect: 'manual' });

describe('a replayed Shopify app URL', () => {
  it('keeps a bounded number of install states for the shop, and the newest still completes the install', async () => {
    const params = { shop: SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
    const query = new URLSearchParams({
      ...params,
      hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
    });
    const appUrl = `${bff.url}/stores/shopify/install?${query}`;
    let last: Response | undefined;
    for (let i = 0; i < 40; i++) {
      last = await go(appUrl);
      expect(last.status).toBe(302);
    }
    const [count] = await bff.backends.sql.all('SELECT COUNT(*) AS n FROM store_install_states');
    expect(Number(count?.n)).toBeLessThanOrEqual(INSTALL_STATE_LIMIT);
    const approved = await go(last?.headers.get('location') ?? '');
    const done = await go(approved.headers.get('location') ?? '');
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/admin/stores');
  });
});

describe('two installs begun while no store is connected', () => {
  it('connects only the first to finish: the callback checks again that no other store is connected', async () => {
    await bff.connections.disconnect('shopify', SHOP, 'test');
    const params = { shop: SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
    const query = new URLSearchParams({
      ...params,
      hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params),
    });
    const begin = await go(`${bff.url}/stores/shopify/install?${query}`);
    expect(begin.status).toBe(302);
    // Meanwhile another shop's install finished (written as its callback writes it; the sandbox emulates one
    // admin origin, so the second shop's OAuth cannot run here).
    await bff.connections.connectShopify(
      'loja-basica.myshopify.com',
      { access_token: 'shpat_other_shop_000000001' },
      'static',
    );
    const approved = await go(begin.headers.get('location') ?? '');
    const done = await go(approved.headers.get('location') ?? '');
    expect(done.status).toBe(400);
    expect((await bff.backends.connections.connected('shopify'))?.shop).toBe('loja-basica.myshopify.com');
  });
});
