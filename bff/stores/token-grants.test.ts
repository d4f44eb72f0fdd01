import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreRefused, type StoreRefused } from './store-api.ts';
import { nuvemshopToken, shopifyRevoke, shopifyToken } from './token-grants.ts';

/**
 * The platforms' own example answers, verbatim, through the kit's token requests: a scripted platform answers each
 * request with the next example and records what it was sent.
 */
const EXAMPLES = {
  // Shopify's library, packages/apps/shopify-api/lib/auth/oauth/__tests__/refresh-token.test.ts (Shopify/shopify-app-js):
  // "returns a new session with refreshed access token and expiry for offline token with expiry".
  shopifyRefresh: {
    access_token: 'new_access_token',
    scope: 'read_products',
    expires_in: 525600,
    refresh_token: 'new_refresh_token',
    refresh_token_expires_in: 2592000,
  },
  // The same file, "throws error when response is not successful" (status 400).
  shopifyRefused: { error: 'invalid_grant', error_description: 'The refresh token is invalid or expired' },
  // TiendaNube/api-docs, resources/authentication.md, "Example".
  nuvemshop: {
    access_token: '61181d08b7e328d256736hdcb671c3ce50b8af5',
    token_type: 'bearer',
    scope: 'read_orders,write_products',
    user_id: '789',
  },
};

interface Sent {
  url: string;
  body: Record<string, string>;
}
const sent: Sent[] = [];
let next: { status: number; body: unknown } = { status: 200, body: {} };
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      sent.push({ url: req.url ?? '', body: JSON.parse(text) as Record<string, string> });
      res.writeHead(next.status, { 'content-type': 'application/json' }).end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const app = () => ({
  clientId: 'client-id-0001',
  clientSecret: 'shpss_the-client-secret',
  adminOrigin: origin,
});

describe('Shopify token requests', () => {
  it('asks an expiring offline token for a code, the secret in the body and never in the URL', async () => {
    next = { status: 200, body: EXAMPLES.shopifyRefresh };
    const answer = await shopifyToken(app(), { grant: 'authorization_code', code: 'the-code' });
    expect(answer).toEqual(EXAMPLES.shopifyRefresh);
    expect(sent.at(-1)).toEqual({
      url: '/admin/oauth/access_token',
      body: {
        client_id: 'client-id-0001',
        client_secret: 'shpss_the-client-secret',
        code: 'the-code',
        expiring: '1',
      },
    });
  });

  it('rotates with the refresh token and asks the client-credentials grant', async () => {
    next = { status: 200, body: EXAMPLES.shopifyRefresh };
    await shopifyToken(app(), { grant: 'refresh_token', refreshToken: 'old_refresh_token' });
    expect(sent.at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'old_refresh_token',
    });
    await shopifyToken(app(), { grant: 'client_credentials' });
    expect(sent.at(-1)?.body).toMatchObject({ grant_type: 'client_credentials' });
  });

  it("says Shopify's refusal without the secret, and not as worth retrying", async () => {
    next = { status: 400, body: EXAMPLES.shopifyRefused };
    const refused = await shopifyToken(app(), {
      grant: 'refresh_token',
      refreshToken: 'old_refresh_token',
    }).catch((error: unknown) => error);
    expect(isStoreRefused(refused) && refused.retryable).toBe(false);
    expect(String((refused as Error).message)).toContain(
      'invalid_grant: The refresh token is invalid or expired',
    );
    expect(String((refused as Error).message)).not.toContain('shpss_the-client-secret');
    expect(String((refused as Error).message)).not.toContain('old_refresh_token');
  });

  it('takes a busy platform as worth retrying, and an answer without a token as not a token', async () => {
    next = { status: 503, body: { errors: 'Service Unavailable' } };
    const busy = await shopifyToken(app(), { grant: 'client_credentials' }).catch((error: unknown) => error);
    expect(isStoreRefused(busy) && busy.retryable).toBe(true);
    next = { status: 200, body: { access_token: 'has spaces in it', scope: '' } };
    const odd = await shopifyToken(app(), { grant: 'client_credentials' }).catch((error: unknown) => error);
    expect((odd as Error).message).toMatch(/shape the kit does not know/);
  });
});

describe('Shopify uninstall with the app’s own token', () => {
  /** A scripted `fetch`: records each call and answers `status`, with a body it can tell was read or cancelled. */
  function scripted(status: number) {
    const calls: { url: string; init: RequestInit }[] = [];
    let cancelled = false;
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const body = new ReadableStream({
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { status });
    }) as typeof fetch;
    return { fetcher, calls, cancelled: () => cancelled };
  }

  it('sends DELETE /admin/api_permissions/current.json with the token in its header, follows no redirect, and drops the body', async () => {
    const platform = scripted(200);
    await shopifyRevoke(
      { adminOrigin: 'https://loja.myshopify.com', fetch: platform.fetcher },
      'shpat_token',
    );
    expect(platform.calls).toHaveLength(1);
    const [call] = platform.calls;
    expect(call?.url).toBe('https://loja.myshopify.com/admin/api_permissions/current.json');
    expect(call?.init).toMatchObject({
      method: 'DELETE',
      headers: { 'x-shopify-access-token': 'shpat_token', accept: 'application/json' },
      redirect: 'manual',
    });
    expect(platform.cancelled()).toBe(true);
  });

  it('says a refusal with its status and never the token, worth retrying only when Shopify was busy or down', async () => {
    for (const [status, retryable] of [
      [401, false],
      [404, false],
      [302, false],
      [429, true],
      [499, false],
      [500, true],
      [503, true],
    ] as const) {
      const platform = scripted(status);
      const refused = await shopifyRevoke(
        { adminOrigin: 'https://loja.myshopify.com', fetch: platform.fetcher },
        'shpat_token',
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isStoreRefused(refused), String(status)).toBe(true);
      expect((refused as StoreRefused).retryable, String(status)).toBe(retryable);
      expect((refused as Error).message).toBe(`Shopify did not uninstall the app (${status}).`);
    }
  });
});

describe('Nuvemshop token request', () => {
  it("exchanges the code as Nuvemshop's example shows, the store in user_id", async () => {
    next = { status: 200, body: EXAMPLES.nuvemshop };
    const answer = await nuvemshopToken({ appId: '123', clientSecret: 'abcdef', authUrl: origin }, 'xyz');
    expect(answer).toEqual(EXAMPLES.nuvemshop);
    expect(sent.at(-1)).toEqual({
      url: '/apps/authorize/token',
      body: { client_id: '123', client_secret: 'abcdef', grant_type: 'authorization_code', code: 'xyz' },
    });
  });

  it('takes an error answered with 200 as a refusal', async () => {
    next = {
      status: 200,
      body: { error: 'invalid_grant', error_description: 'The authorization code has expired' },
    };
    const refused = await nuvemshopToken(
      { appId: '123', clientSecret: 'abcdef', authUrl: origin },
      'xyz',
    ).catch((error: unknown) => error);
    expect((refused as Error).message).toContain('The authorization code has expired');
  });
});
