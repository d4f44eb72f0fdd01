import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPIFY_ADMIN_API_VERSION } from '../../shared/checkouts/shopify.ts';
import { ShopifyAccessTokenSchema, shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from './accounts.ts';
import { MAX_INSTALL_CODES } from './app-installs.ts';

const SHOP = 'loja-demo.myshopify.com';
let clock = Date.parse('2026-12-06T12:00:00Z');
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, shopifyTokenTtlS: 10 });
});
afterAll(() => sandbox?.close());

const app = { client_id: SANDBOX_SHOPIFY_CLIENT_ID, client_secret: SANDBOX_SHOPIFY_APP_SECRET };
const tokenCall = (body: Record<string, string>) =>
  sandbox.post(`/shopify/${SHOP}/admin/oauth/access_token`, { ...app, ...body });
const adminCall = (token: string) =>
  fetch(`${sandbox.url}/shopify/${SHOP}/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
    body: JSON.stringify({ query: 'query { carrierServices(first: 1) { nodes { id } } }' }),
  });

async function code(): Promise<URL> {
  const authorize = await fetch(
    `${sandbox.url}/shopify/${SHOP}/admin/oauth/authorize?client_id=${SANDBOX_SHOPIFY_CLIENT_ID}&scope=write_shipping&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&state=s1`,
    { redirect: 'manual' },
  );
  expect(authorize.status).toBe(302);
  return new URL(authorize.headers.get('location') ?? '');
}

describe("the emulated Shopify's OAuth", () => {
  it('redirects with a code, the shop, the state, a timestamp and their hmac', async () => {
    const back = await code();
    const params = Object.fromEntries(back.searchParams);
    expect(Object.keys(params).sort()).toEqual(['code', 'hmac', 'shop', 'state', 'timestamp']);
    expect(params.hmac).toBe(shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, back.searchParams));
    expect(params.state).toBe('s1');
  });

  it('exchanges a code once, and its expiring token stops working when it expires', async () => {
    const given = (await code()).searchParams.get('code') ?? '';
    const first = await tokenCall({ code: given, expiring: '1' });
    const token = ShopifyAccessTokenSchema.parse(await first.json());
    expect(token.expires_in).toBe(10);
    expect(token.refresh_token).toBeDefined();
    expect((await tokenCall({ code: given, expiring: '1' })).status).toBe(400);
    expect((await adminCall(token.access_token)).status).toBe(200);
    clock += 10_000;
    expect((await adminCall(token.access_token)).status).toBe(401);
  });

  it('keeps a used refresh token until the new access token is used, then refuses it', async () => {
    const given = (await code()).searchParams.get('code') ?? '';
    const first = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ code: given, expiring: '1' })).json(),
    );
    const refresh = first.refresh_token ?? '';
    const second = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).json(),
    );
    expect(second.refresh_token).not.toBe(refresh);
    // The answer was lost: the old refresh token still works.
    const again = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).json(),
    );
    expect((await adminCall(again.access_token)).status).toBe(200);
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(400);
  });

  it('refuses a wrong client secret and grants client credentials without a refresh token', async () => {
    expect(
      (await tokenCall({ grant_type: 'client_credentials', client_secret: 'wrong-secret-0000' })).status,
    ).toBe(400);
    const granted = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ grant_type: 'client_credentials' })).json(),
    );
    expect(granted.refresh_token).toBeUndefined();
    expect((await adminCall(granted.access_token)).status).toBe(200);
  });
});

describe("the emulated Shopify's uninstall with the app's token (api_permissions/current.json)", () => {
  const revoke = (token: string) =>
    fetch(`${sandbox.url}/shopify/${SHOP}/admin/api_permissions/current.json`, {
      method: 'DELETE',
      headers: { 'x-shopify-access-token': token },
    });

  it('answers 200, and every token of the app on the shop stops working; an unknown token is 401', async () => {
    const given = (await code()).searchParams.get('code') ?? '';
    const token = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ code: given, expiring: '1' })).json(),
    ).access_token;
    const other = ShopifyAccessTokenSchema.parse(
      await (await tokenCall({ grant_type: 'client_credentials' })).json(),
    ).access_token;
    expect((await adminCall(token)).status).toBe(200);
    expect((await revoke(token)).status).toBe(200);
    expect((await adminCall(token)).status).toBe(401);
    expect((await adminCall(other)).status).toBe(401);
    const again = await revoke(token);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });
  });
});

describe('the emulated authorize endpoints under a loop', () => {
  const authorizeNuvemshop = () =>
    fetch(
      `${sandbox.url}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}`,
      { redirect: 'manual' },
    );

  it('keeps at most MAX_INSTALL_CODES codes (the oldest out), and drops expired ones at the next authorize', async () => {
    const installs = sandbox.state.checkouts.installs;
    // Both platforms' codes share the bound: Shopify's and Nuvemshop's authorize in turn.
    let last = '';
    for (let i = 0; i < MAX_INSTALL_CODES + 50; i++) {
      if (i % 2 === 0) await code();
      else
        last =
          new URL((await authorizeNuvemshop()).headers.get('location') ?? '').searchParams.get('code') ?? '';
    }
    expect(installs.codeCount).toBe(MAX_INSTALL_CODES);
    // The newest still works: the bound drops the oldest.
    const exchanged = await sandbox.post('/nuvemshop/apps/authorize/token', {
      client_id: SANDBOX_NUVEMSHOP_APP_ID,
      client_secret: SANDBOX_NUVEMSHOP_APP_SECRET,
      grant_type: 'authorization_code',
      code: last,
    });
    expect(exchanged.status).toBe(200);
    clock += 10 * 60_000 + 1; // past Shopify's 10 minutes, and Nuvemshop's 30 s
    expect((await authorizeNuvemshop()).status).toBe(302);
    expect(installs.codeCount).toBe(1);
  });
});
