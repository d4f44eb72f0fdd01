import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_NUVEMSHOP_APP_ID, SANDBOX_NUVEMSHOP_APP_SECRET } from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { type DeskClient, deskClient } from '../orders/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { NUVEMSHOP_CALLBACKS_PER_MINUTE } from './install-routes.ts';

/**
 * Nuvemshop's redirect URL takes no signature and no state: every GET with a code-shaped string made the BFF send the
 * app's client secret to Nuvemshop's token endpoint. A stranger looping on it turns the BFF into a client hammering
 * Nuvemshop with the app's credentials (which Nuvemshop may throttle or block, and the merchant's install with them).
 * The exchanges one address can cause are bounded; past the bound, 429 and nothing is sent.
 */
let sandbox: RunningSandbox;
let bff: RunningBff;
let desk: DeskClient;
const PASSWORD = 'senha-do-lojista-limite';
let tokenCalls = 0;
/** The BFF's clock: the limiter's minute passes without waiting it. */
let clock = Date.now();
const network: typeof fetch = async (input, init) => {
  if (String(input).endsWith('/apps/authorize/token')) tokenCalls += 1;
  return fetch(input, init);
};

beforeAll(async () => {
  sandbox = await startSandbox({});
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_NUVEMSHOP_APP_ID: SANDBOX_NUVEMSHOP_APP_ID,
      BFF_NUVEMSHOP_APP_SECRET: SANDBOX_NUVEMSHOP_APP_SECRET,
      BFF_NUVEMSHOP_AUTH_URL: `${sandbox.url}/nuvemshop`,
      BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
      BFF_NUVEMSHOP_CALLBACK_SECRET: 'n'.repeat(40),
    },
    { fetch: network, now: () => clock, orders: { timers: false } },
  );
  desk = await deskClient(bff.url, PASSWORD);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

describe('the Nuvemshop redirect URL under a loop of made-up codes', () => {
  it('exchanges a bounded number per address, then answers 429 without calling Nuvemshop', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < NUVEMSHOP_CALLBACKS_PER_MINUTE + 5; i++) {
      const res = await fetch(`${bff.url}/stores/nuvemshop/callback?code=made-up-code-${i}`, {
        redirect: 'manual',
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, NUVEMSHOP_CALLBACKS_PER_MINUTE)).toEqual(
      Array(NUVEMSHOP_CALLBACKS_PER_MINUTE).fill(400),
    );
    expect(new Set(statuses.slice(NUVEMSHOP_CALLBACKS_PER_MINUTE))).toEqual(new Set([429]));
    expect(tokenCalls).toBe(NUVEMSHOP_CALLBACKS_PER_MINUTE);
  });
});

describe('an install while no store is configured', () => {
  /**
   * Issue 44, finding 14: with `BFF_NUVEMSHOP_STORE_ID` (or `BFF_SHOPIFY_SHOP`) unset, the first store to install the
   * app became the BFF's store: once the app is listed, a stranger's store that installs it before the merchant (or
   * after the merchant uninstalls) got the carrier quotes on the merchant's platform account, its paid orders on the
   * merchant's desk to label at the merchant's cost, and the erasures. Now such an install is held (its code
   * exchanged at once, its token sealed) until the merchant approves it on /admin/stores.
   */
  const install = async () => {
    const redirect = await fetch(
      `${sandbox.url}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent(`${bff.url}/stores/nuvemshop/callback`)}`,
      { redirect: 'manual' },
    );
    return fetch(redirect.headers.get('location') ?? '', { redirect: 'manual' });
  };
  const quote = async () => {
    const res = await sandbox.control('checkouts/nuvemshop/1001/quote', {
      cart: { items: [{ name: 'Caneca', quantity: 1, unitPriceBRL: 39.9, weightKg: 0.4 }] },
      destination: { postalCode: '80010-010' },
    });
    return ((await res.json()) as { source: string }).source;
  };

  it('gives a stranger store that installs first nothing: no connection, no carrier, no orders', async () => {
    clock += 61_000; // past the made-up codes' minute
    const done = await install();
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/admin/stores');
    expect(await bff.backends.connections.connected('nuvemshop')).toBeUndefined();
    expect(await bff.backends.connections.get('nuvemshop', '1001')).toBeUndefined();
    // Nothing registered at the store: its checkout gets no rates from the BFF.
    expect(sandbox.state.checkouts.carriers.get('1001') ?? []).toEqual([]);
    expect(await quote()).not.toBe('callback');
    // Its paid order is not taken (no webhook was subscribed; one sent anyway is "ignored").
    const body = JSON.stringify({ store_id: 1001, event: 'order/paid', id: 1 });
    const webhook = await fetch(`${bff.url}/stores/nuvemshop/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
      },
      body,
    });
    expect(await webhook.json()).toEqual({ received: 'ignored' });
    expect(await bff.backends.sql.all('SELECT order_id FROM store_orders')).toEqual([]);
    // The token is held sealed, never in plain text.
    const held = await bff.backends.sql.all('SELECT token FROM store_pending_installs');
    expect(held).toHaveLength(1);
    const live = [...sandbox.state.checkouts.installs.tokens.keys()];
    expect(live.length).toBeGreaterThan(0);
    for (const token of live) expect(JSON.stringify(held)).not.toContain(token);
  });

  it('connects it only when the merchant approves it on the desk (session and CSRF), then registers the carrier', async () => {
    const forged = await fetch(`${bff.url}/admin/stores/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ platform: 'nuvemshop', shop: '1001' }),
    });
    expect(forged.status).toBeGreaterThanOrEqual(300);
    const withoutCsrf = await desk.post(
      '/admin/api/stores/approve',
      { platform: 'nuvemshop', shop: '1001' },
      {
        'x-csrf-token': 'wrong',
      },
    );
    expect(withoutCsrf.status).toBe(403);
    expect(await bff.backends.connections.connected('nuvemshop')).toBeUndefined();
    const approved = await desk.post('/admin/api/stores/approve', { platform: 'nuvemshop', shop: '1001' });
    expect(await approved.json()).toEqual({ approved: true });
    expect((await bff.backends.connections.connected('nuvemshop'))?.shop).toBe('1001');
    expect((sandbox.state.checkouts.carriers.get('1001') ?? []).length).toBe(1);
    expect(await quote()).toBe('callback');
    const again = await desk.post('/admin/api/stores/approve', { platform: 'nuvemshop', shop: '1001' });
    expect(again.status).toBe(404);
    // The page's form says why an approve did nothing, where it lands (it said nothing before).
    const csrf =
      /name="csrf" value="([^"]+)"/.exec(await (await desk.get('/admin/stores')).text())?.[1] ?? '';
    expect(csrf).not.toBe('');
    const formApprove = (shop: string) =>
      desk.post(
        '/admin/stores/approve',
        new URLSearchParams({ platform: 'nuvemshop', shop, csrf }).toString(),
        { 'content-type': 'application/x-www-form-urlencoded' },
      );
    const gone = await formApprove('1001');
    expect(new URL(gone.url).search).toBe('?approve=not_found');
    expect(await gone.text()).toContain('Esta instalação não espera mais aprovação');
    await bff.backends.connections.hold(
      'nuvemshop',
      '3003',
      {
        kind: 'nuvemshop',
        token: 'v1.sealed.elsewhere.y',
        refresh: null,
        issuedAt: clock,
        expiresAt: null,
        refreshExpiresAt: null,
        renewAt: null,
      },
      clock,
    );
    const other = await formApprove('3003');
    expect(new URL(other.url).search).toBe('?approve=other_connected');
    expect(await other.text()).toContain('outra loja desta plataforma está conectada');
    expect((await bff.backends.connections.connected('nuvemshop'))?.shop).toBe('1001');
    const english = await desk.get('/admin/stores?approve=other_connected&lang=en');
    expect(await english.text()).toContain('Not approved: another store of this platform is connected');
    expect(await (await desk.get('/admin/stores?approve=%3Cscript%3E')).text()).not.toContain('Not approved');
    await desk.post('/admin/api/stores/reject', { platform: 'nuvemshop', shop: '3003' });
  });

  it('discards a rejected install: nothing connects, the sealed token is gone', async () => {
    const disconnect = await desk.post('/admin/api/stores/disconnect', {
      platform: 'nuvemshop',
      shop: '1001',
    });
    expect(await disconnect.json()).toEqual({ disconnected: true, revoke: 'none' });
    await bff.backends.connections.hold(
      'nuvemshop',
      '2002',
      {
        kind: 'nuvemshop',
        token: 'v1.sealed.elsewhere.x',
        refresh: null,
        issuedAt: clock,
        expiresAt: null,
        refreshExpiresAt: null,
        renewAt: null,
      },
      clock,
    );
    const rejected = await desk.post('/admin/api/stores/reject', { platform: 'nuvemshop', shop: '2002' });
    expect(await rejected.json()).toEqual({ rejected: true, revoke: 'none' });
    expect(await bff.backends.sql.all('SELECT shop FROM store_pending_installs')).toEqual([]);
    expect(await bff.backends.connections.get('nuvemshop', '2002')).toBeUndefined();
  });
});
