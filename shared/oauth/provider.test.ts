import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../security/hash.ts';
import { SqliteSql } from '../sql/sqlite.ts';
import { type ClientMetadataDocument, ClientMetadataError } from './client-metadata.ts';
import { formActionSource, redirectHost, redirectUriProblem, registrationSender } from './clients.ts';
import { OAuthProvider } from './provider.ts';
import { OAuthStore } from './store.ts';
import type { PendingAuthorization } from './tokens.ts';

const RESOURCE = 'http://127.0.0.1:4000/mcp';
const NOW = 1_763_800_000_000;

let sql: SqliteSql;
afterEach(() => sql?.close());

function provider(): OAuthProvider {
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  return new OAuthProvider({
    store: new OAuthStore(sql),
    resource: RESOURCE,
    scopes: ['rates', 'tracking'],
    renderLogin: () => undefined,
    now: () => NOW,
  });
}

/** An access token stored as a grant for `resource` would store it. */
async function stored(oauth: OAuthProvider, resource: string): Promise<string> {
  const token = `token-${resource.length}-${Math.random().toString(16).slice(2)}`;
  await oauth.store.putToken(sha256Hex(token), {
    clientIdHash: 'client',
    grantId: `grant-${token}`,
    subject: 'merchant',
    scopes: ['rates'],
    resource,
    kind: 'access',
    expiresAt: NOW + 60_000,
  });
  return token;
}

describe('checkBearer: a token is good only for the resource it was issued for (RFC 8707)', () => {
  it('takes a token for this /mcp, with or without its trailing slash', async () => {
    const oauth = provider();
    for (const resource of [RESOURCE, `${RESOURCE}/`]) {
      const check = await oauth.checkBearer(`Bearer ${await stored(oauth, resource)}`);
      expect(check).toMatchObject({ kind: 'valid', subject: 'merchant', scopes: ['rates'] });
    }
  });

  it('refuses a token for a look-alike resource (another port, a longer path, another host)', async () => {
    const oauth = provider();
    for (const resource of [
      'http://127.0.0.1:4001/mcp',
      `${RESOURCE}/x`,
      'http://127.0.0.1:4000/mcpx',
      'http://localhost:4000/mcp',
    ]) {
      expect(await oauth.checkBearer(`Bearer ${await stored(oauth, resource)}`)).toEqual({ kind: 'invalid' });
    }
  });

  it('refuses a token that names no resource at all (a request may leave it out; a token may not)', async () => {
    const oauth = provider();
    const token = await stored(oauth, RESOURCE);
    const verify = oauth.verifyAccessToken.bind(oauth);
    oauth.verifyAccessToken = async (t: string): Promise<AuthInfo> => {
      const { resource: _resource, ...auth } = await verify(t);
      return auth;
    };
    expect(await oauth.checkBearer(`Bearer ${token}`)).toEqual({ kind: 'invalid' });
  });
});

/** A provider with a clock the test moves, and an optional document resolver (the BFF's client ID documents). */
let clock = NOW;
function flowProvider(resolve?: (url: string) => Promise<ClientMetadataDocument>): OAuthProvider {
  clock = NOW;
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  return new OAuthProvider({
    store: new OAuthStore(sql),
    resource: RESOURCE,
    scopes: ['rates', 'labels'],
    renderLogin: () => undefined,
    now: () => clock,
    ...(resolve ? { clientMetadata: { resolve } } : {}),
  });
}

const CALLBACK = 'http://127.0.0.1:6274/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

async function register(
  oauth: OAuthProvider,
  metadata: Partial<OAuthClientInformationFull> = {},
): Promise<OAuthClientInformationFull> {
  return (await oauth.clientsStore.registerClient?.({
    client_id: crypto.randomUUID(),
    redirect_uris: [CALLBACK],
    client_name: 'Agente',
    ...metadata,
  } as OAuthClientInformationFull)) as OAuthClientInformationFull;
}

const pendingFor = (client: OAuthClientInformationFull, more: Partial<PendingAuthorization> = {}) => ({
  clientId: client.client_id,
  redirectUri: CALLBACK,
  codeChallenge: CHALLENGE,
  scopes: ['rates', 'labels'],
  ...more,
});

async function tokensFor(
  oauth: OAuthProvider,
  client: OAuthClientInformationFull,
  scopes = ['rates', 'labels'],
) {
  const code = await oauth.issueCode(pendingFor(client), 'merchant', scopes);
  return oauth.exchangeAuthorizationCode(client, code, undefined, CALLBACK);
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) =>
      error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error),
  );

describe('redirect URIs', () => {
  it.each([
    'https://app.example/cb',
    'http://127.0.0.1:6274/callback',
    'http://localhost/cb',
    'http://[::1]:9/cb',
    'com.example.app:/callback',
    `https://app.example/${'x'.repeat(2000 - 'https://app.example/'.length)}`,
  ])('takes %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['https://app.example/cb#x', 'redirect_uri must not have a fragment'],
    ['https://app.example/cb#', 'redirect_uri must not have a fragment'],
    ['javascript:alert(1)', 'redirect_uri scheme javascript: is not allowed'],
    ['data:text/html,x', 'redirect_uri scheme data: is not allowed'],
    ['file:///etc/passwd', 'redirect_uri scheme file: is not allowed'],
    ['vbscript:x', 'redirect_uri scheme vbscript: is not allowed'],
    ['blob:https://app.example/x', 'redirect_uri scheme blob: is not allowed'],
    ['about:blank', 'redirect_uri scheme about: is not allowed'],
    ['http://app.example/cb', 'http redirect_uri must be a loopback address'],
    ['not a url', 'redirect_uri is not a URL'],
    [`https://app.example/${'x'.repeat(2001 - 'https://app.example/'.length)}`, 'redirect_uri is too long'],
  ])('refuses %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });

  it('names where a redirect URI sends the browser, and the form-action source that lets it', () => {
    expect(redirectHost('https://app.example:8443/cb?x=1')).toBe('app.example:8443');
    expect(formActionSource('https://app.example:8443/cb?x=1')).toBe('https://app.example:8443');
    expect(redirectHost('http://127.0.0.1:6274/cb')).toBe('127.0.0.1:6274');
    expect(redirectHost('com.example.app:/cb')).toBe('com.example.app:');
    expect(formActionSource('com.example.app:/cb')).toBe('com.example.app:');
  });

  it('matches a registered URI exactly, or a loopback one on any port with the same path and query', () => {
    const oauth = flowProvider();
    const client = {
      client_id: 'c',
      redirect_uris: ['http://127.0.0.1:6274/callback?x=1', 'https://app.example/cb'],
    } as OAuthClientInformationFull;
    expect(oauth.redirectRegistered(client, 'https://app.example/cb')).toBe(true);
    expect(oauth.redirectRegistered(client, 'http://127.0.0.1:5555/callback?x=1')).toBe(true);
    for (const other of [
      'http://127.0.0.1:5555/other?x=1',
      'http://127.0.0.1:5555/callback?x=2',
      'http://127.0.0.1:5555/callback?x=1#f',
      'http://localhost:5555/callback?x=1',
      'https://app.example:8443/cb',
      'https://app.example/cb/',
      'not a url',
    ])
      expect(oauth.redirectRegistered(client, other), other).toBe(false);
    const secure = {
      client_id: 'c',
      redirect_uris: ['https://127.0.0.1:6274/cb'],
    } as OAuthClientInformationFull;
    expect(oauth.redirectRegistered(secure, 'https://127.0.0.1:5555/cb')).toBe(false);
    expect(oauth.redirectRegistered(secure, 'http://127.0.0.1:6274/cb')).toBe(false);
  });
});

describe('registration (RFC 7591, public clients only)', () => {
  it('registers a public client: no secret, the code flow and refresh, issued now; and finds it by its id', async () => {
    const oauth = flowProvider();
    const client = await register(oauth, { client_secret: 'asked-for', client_secret_expires_at: 0 });
    expect(client).toEqual({
      client_id: expect.any(String),
      redirect_uris: [CALLBACK],
      client_name: 'Agente',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      client_id_issued_at: Math.floor(NOW / 1000),
    });
    expect(await oauth.getClient(client.client_id)).toEqual(client);
    const own = await register(oauth, { grant_types: ['authorization_code'], client_id_issued_at: 42 });
    expect(own).toMatchObject({ grant_types: ['authorization_code'], client_id_issued_at: 42 });
  });

  it('refuses what a registration may not ask for, naming it', async () => {
    const oauth = flowProvider();
    const eleven = Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${6000 + i}/cb`);
    expect(await failure(register(oauth, { redirect_uris: [] }))).toBe(
      'InvalidClientMetadataError: redirect_uris must list 1 to 10 URIs',
    );
    expect(await failure(register(oauth, { redirect_uris: eleven }))).toBe(
      'InvalidClientMetadataError: redirect_uris must list 1 to 10 URIs',
    );
    expect(await failure(register(oauth, { redirect_uris: eleven.slice(1) }))).toBeUndefined();
    expect(await failure(register(oauth, { redirect_uris: ['http://app.example/cb'] }))).toBe(
      'CustomOAuthError: http redirect_uri must be a loopback address',
    );
    expect(await failure(register(oauth, { client_name: 'x'.repeat(101) }))).toBe(
      'InvalidClientMetadataError: client_name must have at most 100 characters',
    );
    expect(await failure(register(oauth, { client_name: 'x'.repeat(100) }))).toBeUndefined();
    expect(
      await failure(register(oauth, { grant_types: ['authorization_code', 'client_credentials'] })),
    ).toBe('InvalidClientMetadataError: grant_types may only be authorization_code and refresh_token');
    expect(await failure(register(oauth, { response_types: ['code', 'token'] }))).toBe(
      'InvalidClientMetadataError: response_types may only be code',
    );
    expect(await failure(register(oauth, { scope: 'rates  admin' }))).toBe(
      'InvalidScopeError: unknown scope: admin',
    );
    expect(await failure(register(oauth, { scope: 'rates labels' }))).toBeUndefined();
  });

  it('never looks up a client id over 200 characters', async () => {
    const oauth = flowProvider();
    const long = await register(oauth, { client_id: 'x'.repeat(201) });
    const edge = await register(oauth, { client_id: 'y'.repeat(200) });
    expect(await oauth.getClient(long.client_id)).toBeUndefined();
    expect(await oauth.getClient(edge.client_id)).toBeDefined();
    expect(await oauth.getClient('never-registered')).toBeUndefined();
  });

  it('keeps at most 1,000 clients without consent in all, the oldest going first, from any address', async () => {
    const oauth = flowProvider();
    const ids: string[] = [];
    for (let i = 0; i < 1_001; i++) {
      clock += 1;
      ids.push((await registrationSender.run(`addr-${i % 70}`, () => register(oauth))).client_id);
    }
    expect(await oauth.getClient(ids[0] ?? '')).toBeUndefined();
    expect(await oauth.getClient(ids[1] ?? '')).toBeDefined();
    expect(await oauth.getClient(ids[1_000] ?? '')).toBeDefined();
  });

  it('keeps at most 20 clients without consent per address, the oldest going first', async () => {
    const oauth = flowProvider();
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      clock += 1;
      ids.push((await registrationSender.run('one-address', () => register(oauth))).client_id);
    }
    const other = await registrationSender.run('another', () => register(oauth));
    expect(await oauth.getClient(ids[0] ?? '')).toBeUndefined();
    expect(await oauth.getClient(ids[1] ?? '')).toBeDefined();
    expect(await oauth.getClient(other.client_id)).toBeDefined();
  });
});

describe('scopes and the resource', () => {
  it('takes only scopes it offers, and tokens only for its own /mcp', () => {
    const oauth = flowProvider();
    expect(() => oauth.checkScopes(['rates', 'labels'])).not.toThrow();
    expect(() => oauth.checkScopes(['rates', 'admin', 'root'])).toThrow('unknown scope: admin root');
    expect(() => oauth.checkResource(undefined)).not.toThrow();
    expect(() => oauth.checkResource(`${RESOURCE}/`)).not.toThrow();
    expect(() => oauth.checkResource(new URL(RESOURCE))).not.toThrow();
    expect(() => oauth.checkResource('http://127.0.0.1:4001/mcp')).toThrow(
      `tokens are issued only for ${RESOURCE}`,
    );
  });

  it('re-validates a pending authorization posted back by a form', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    expect(await oauth.pendingClient(pendingFor(client))).toEqual(client);
    expect(await oauth.pendingClient(pendingFor(client, { clientId: 'unknown' }))).toBeUndefined();
    expect(
      await oauth.pendingClient(pendingFor(client, { redirectUri: 'http://127.0.0.1:1/other' })),
    ).toBeUndefined();
    expect(await oauth.pendingClient(pendingFor(client, { codeChallenge: `${CHALLENGE}x` }))).toBeUndefined();
    expect(await oauth.pendingClient(pendingFor(client, { scopes: ['rates', 'admin'] }))).toBeUndefined();
  });
});

describe('codes', () => {
  it('issues a single-use code for the consented scopes, and keeps the client from then on', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const code = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await oauth.challengeForAuthorizationCode(client, code)).toBe(CHALLENGE);
    expect((await oauth.store.getClient(sha256Hex(client.client_id)))?.consentedAt).toBe(NOW);
    const tokens = await oauth.exchangeAuthorizationCode(client, code, undefined, CALLBACK);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3_600,
      refresh_token: expect.any(String),
      scope: 'rates',
    });
    expect(await oauth.checkBearer(`Bearer ${tokens.access_token}`)).toMatchObject({
      kind: 'valid',
      subject: 'merchant',
      scopes: ['rates'],
      clientIdHash: sha256Hex(client.client_id),
    });
    expect(await failure(oauth.issueCode(pendingFor(client), 'merchant', ['admin']))).toBe(
      'InvalidScopeError: unknown scope: admin',
    );
  });

  it("refuses another client's code, an unknown one, and a second exchange, which ends the first one's tokens", async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const other = await register(oauth);
    const code = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await failure(oauth.challengeForAuthorizationCode(other, code))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    expect(await failure(oauth.challengeForAuthorizationCode(client, 'nope'))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    expect(await failure(oauth.exchangeAuthorizationCode(client, 'nope'))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    const stolen = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    expect(await failure(oauth.exchangeAuthorizationCode(other, stolen))).toBe(
      'InvalidGrantError: the authorization code is not valid',
    );
    const tokens = await oauth.exchangeAuthorizationCode(client, code);
    expect(await failure(oauth.exchangeAuthorizationCode(client, code))).toBe(
      'InvalidGrantError: the authorization code was already used',
    );
    expect(await oauth.checkBearer(`Bearer ${tokens.access_token}`)).toEqual({ kind: 'invalid' });
  });

  it('takes a code for 60 seconds, to the millisecond, with its redirect URI and resource only', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const onTime = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const late = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const moved = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    const elsewhere = await oauth.issueCode(pendingFor(client), 'merchant', ['rates']);
    clock += 60_000;
    expect(
      await failure(oauth.exchangeAuthorizationCode(client, onTime, undefined, CALLBACK)),
    ).toBeUndefined();
    expect(
      await failure(oauth.exchangeAuthorizationCode(client, moved, undefined, 'http://127.0.0.1:1/x')),
    ).toBe('InvalidGrantError: redirect_uri does not match the authorization request');
    expect(
      await failure(
        oauth.exchangeAuthorizationCode(
          client,
          elsewhere,
          undefined,
          undefined,
          new URL('http://x.example/mcp'),
        ),
      ),
    ).toBe(`InvalidTargetError: tokens are issued only for ${RESOURCE}`);
    clock += 1;
    expect(await failure(oauth.exchangeAuthorizationCode(client, late))).toBe(
      'InvalidGrantError: the authorization code has expired',
    );
  });
});

describe('tokens', () => {
  it('rotates a refresh token; a rotated one used again ends the whole grant', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const first = await tokensFor(oauth, client);
    const second = await oauth.exchangeRefreshToken(client, first.refresh_token ?? '');
    expect(second.scope).toBe('rates labels');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await failure(oauth.exchangeRefreshToken(client, first.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token was already used',
    );
    expect(await oauth.checkBearer(`Bearer ${second.access_token}`)).toEqual({ kind: 'invalid' });
    expect(await failure(oauth.exchangeRefreshToken(client, second.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
  });

  it('gives one of two refreshes at once new tokens, and ends the grant for the other', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const first = await tokensFor(oauth, client);
    const results = await Promise.allSettled([
      oauth.exchangeRefreshToken(client, first.refresh_token ?? ''),
      oauth.exchangeRefreshToken(client, first.refresh_token ?? ''),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const won = results.find((r) => r.status === 'fulfilled');
    if (won?.status !== 'fulfilled') throw new Error('none won');
    expect(await oauth.checkBearer(`Bearer ${won.value.access_token}`)).toEqual({ kind: 'invalid' });
  });

  it("refuses another client's refresh token, an access token as one, and one past its 30 days", async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const other = await register(oauth);
    const tokens = await tokensFor(oauth, client);
    expect(await failure(oauth.exchangeRefreshToken(other, tokens.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
    expect(await failure(oauth.exchangeRefreshToken(client, tokens.access_token))).toBe(
      'InvalidGrantError: the refresh token is not valid',
    );
    clock += 30 * 24 * 3_600_000;
    const lastDay = await oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '');
    const later = await tokensFor(oauth, client);
    clock += 30 * 24 * 3_600_000 + 1;
    expect(await failure(oauth.exchangeRefreshToken(client, later.refresh_token ?? ''))).toBe(
      'InvalidGrantError: the refresh token has expired',
    );
    expect(lastDay.refresh_token).toBeDefined();
  });

  it('narrows the scopes on a refresh, never widens them, and a refused refresh spends nothing', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const tokens = await tokensFor(oauth, client, ['rates']);
    expect(
      await failure(oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', ['rates', 'labels'])),
    ).toBe('InvalidScopeError: a refresh cannot widen the granted scopes');
    expect(
      await failure(
        oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', [], new URL('http://x.example/')),
      ),
    ).toBe(`InvalidTargetError: tokens are issued only for ${RESOURCE}`);
    const narrowed = await oauth.exchangeRefreshToken(client, tokens.refresh_token ?? '', ['rates', '']);
    expect(narrowed.scope).toBe('rates');
    const wide = await tokensFor(oauth, client);
    expect((await oauth.exchangeRefreshToken(client, wide.refresh_token ?? '', ['labels'])).scope).toBe(
      'labels',
    );
  });

  it('takes an access token for one hour, to the millisecond, and says what it allows', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const tokens = await tokensFor(oauth, client, ['rates']);
    expect(await oauth.verifyAccessToken(tokens.access_token)).toEqual({
      token: tokens.access_token,
      clientId: sha256Hex(client.client_id),
      scopes: ['rates'],
      expiresAt: Math.floor((NOW + 3_600_000) / 1000),
      resource: new URL(RESOURCE),
      extra: { subject: 'merchant' },
    });
    expect(await failure(oauth.verifyAccessToken(tokens.refresh_token ?? ''))).toBe(
      'InvalidTokenError: the access token is not valid',
    );
    clock += 3_600_000 - 1;
    expect(await failure(oauth.verifyAccessToken(tokens.access_token))).toBeUndefined();
    clock += 1;
    expect(await failure(oauth.verifyAccessToken(tokens.access_token))).toBe(
      'InvalidTokenError: the access token has expired',
    );
  });

  it("records a client's last use at most once a minute", async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const tokens = await tokensFor(oauth, client);
    const lastUse = async () => (await oauth.store.getClient(sha256Hex(client.client_id)))?.lastUsedAt;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(NOW);
    clock += 59_999;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(NOW);
    clock += 1;
    await oauth.verifyAccessToken(tokens.access_token);
    expect(await lastUse()).toBe(NOW + 60_000);
  });

  it("revokes a grant by either of its tokens, and ignores another client's or an unknown one", async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const other = await register(oauth);
    const kept = await tokensFor(oauth, client);
    await oauth.revokeToken(other, { token: kept.access_token });
    await oauth.revokeToken(client, { token: 'unknown' });
    expect((await oauth.checkBearer(`Bearer ${kept.access_token}`)).kind).toBe('valid');
    await oauth.revokeToken(client, { token: kept.refresh_token ?? '' });
    expect((await oauth.checkBearer(`Bearer ${kept.access_token}`)).kind).toBe('invalid');
  });

  it('reads the Authorization header: nothing sent, a Bearer token in any case and spacing, or not valid', async () => {
    const oauth = flowProvider();
    const client = await register(oauth);
    const { access_token: token } = await tokensFor(oauth, client);
    for (const none of [undefined, '', '   '])
      expect(await oauth.checkBearer(none)).toEqual({ kind: 'none' });
    for (const valid of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}  `])
      expect((await oauth.checkBearer(valid)).kind).toBe('valid');
    for (const invalid of [
      `Basic ${token}`,
      'Bearer',
      `Bearer ${token} extra`,
      `Bearer ${'t'.repeat(201)}`,
      `x Bearer ${token}`,
    ])
      expect(await oauth.checkBearer(invalid)).toEqual({ kind: 'invalid' });
  });
});

describe('client ID metadata documents', () => {
  const URL_ID = 'https://app.agente.test/oauth/client.json';
  const document = (more: Partial<ClientMetadataDocument> = {}): ClientMetadataDocument => ({
    client_id: URL_ID,
    client_name: 'Agente de documento',
    redirect_uris: [CALLBACK],
    ...more,
  });

  it('takes a document as a client, with the defaults of a registration, and keeps it at consent', async () => {
    let fetched = 0;
    const oauth = flowProvider(async () => {
      fetched += 1;
      return document({ client_uri: 'https://app.agente.test', scope: 'anything' });
    });
    const client = await oauth.getClient(URL_ID);
    expect(client).toEqual({
      client_id: URL_ID,
      client_name: 'Agente de documento',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      client_uri: 'https://app.agente.test',
    });
    // within one request, the document is read once
    await oauth.withinRequest(client as OAuthClientInformationFull, async () => {
      expect(await oauth.getClient(URL_ID)).toEqual(client);
      expect(await oauth.getClient(URL_ID)).toEqual(client);
    });
    expect(fetched).toBe(1);
    expect(await oauth.store.getClient(sha256Hex(URL_ID))).toBeUndefined();
    await oauth.issueCode(pendingFor(client as OAuthClientInformationFull), 'merchant', ['rates']);
    expect(await oauth.store.getClient(sha256Hex(URL_ID))).toMatchObject({
      metadata: { client_name: 'Agente de documento', redirect_uris: [CALLBACK] },
      consentedAt: NOW,
    });
  });

  it("keeps a document's own grant and response types and logo, and holds it to a registration's rules", async () => {
    const logo = flowProvider(async () =>
      document({
        grant_types: ['authorization_code'],
        response_types: ['code'],
        logo_uri: 'https://app.agente.test/l.png',
      }),
    );
    expect(await logo.getClient(URL_ID)).toMatchObject({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      logo_uri: 'https://app.agente.test/l.png',
    });
    const bad = flowProvider(async () => document({ redirect_uris: ['http://app.agente.test/cb'] }));
    const refused = await bad.getClient(URL_ID).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientMetadataError);
    expect(refused).toMatchObject({
      reason: 'document',
      message: `client metadata document ${URL_ID}: http redirect_uri must be a loopback address`,
    });
  });

  it('has no document clients without a resolver: a URL client id is no client, and gets no code', async () => {
    const oauth = flowProvider();
    expect(await oauth.getClient(URL_ID)).toBeUndefined();
    const pending = { clientId: URL_ID, redirectUri: CALLBACK, codeChallenge: CHALLENGE, scopes: ['rates'] };
    expect(await failure(oauth.issueCode(pending, 'merchant', ['rates']))).toBe(
      'InvalidClientError: client_id is not a client of this server',
    );
  });
});
