import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../security/hash.ts';
import { type ClientMetadataDocument, ClientMetadataError } from './client-metadata.ts';
import { formActionSource, redirectHost, redirectUriProblem, registrationSender } from './clients.ts';
import {
  closeProviders,
  FLOW_START,
  flowClock,
  flowProvider,
  LOOPBACK_CALLBACK,
  oauthFailure,
  pendingFor,
  registeredClient,
  S256_CHALLENGE,
} from './testing/providers.ts';

afterEach(closeProviders);

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
    const client = await registeredClient(oauth, { client_secret: 'asked-for', client_secret_expires_at: 0 });
    expect(client).toEqual({
      client_id: expect.any(String),
      redirect_uris: [LOOPBACK_CALLBACK],
      client_name: 'Agente',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      client_id_issued_at: Math.floor(FLOW_START / 1000),
    });
    expect(await oauth.getClient(client.client_id)).toEqual(client);
    const own = await registeredClient(oauth, {
      grant_types: ['authorization_code'],
      client_id_issued_at: 42,
    });
    expect(own).toMatchObject({ grant_types: ['authorization_code'], client_id_issued_at: 42 });
  });

  it('refuses what a registration may not ask for, naming it', async () => {
    const oauth = flowProvider();
    const eleven = Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${6000 + i}/cb`);
    expect(await oauthFailure(registeredClient(oauth, { redirect_uris: [] }))).toBe(
      'InvalidClientMetadataError: redirect_uris must list 1 to 10 URIs',
    );
    expect(await oauthFailure(registeredClient(oauth, { redirect_uris: eleven }))).toBe(
      'InvalidClientMetadataError: redirect_uris must list 1 to 10 URIs',
    );
    expect(await oauthFailure(registeredClient(oauth, { redirect_uris: eleven.slice(1) }))).toBeUndefined();
    expect(await oauthFailure(registeredClient(oauth, { redirect_uris: ['http://app.example/cb'] }))).toBe(
      'CustomOAuthError: http redirect_uri must be a loopback address',
    );
    expect(await oauthFailure(registeredClient(oauth, { client_name: 'x'.repeat(101) }))).toBe(
      'InvalidClientMetadataError: client_name must have at most 100 characters',
    );
    expect(await oauthFailure(registeredClient(oauth, { client_name: 'x'.repeat(100) }))).toBeUndefined();
    expect(
      await oauthFailure(
        registeredClient(oauth, { grant_types: ['authorization_code', 'client_credentials'] }),
      ),
    ).toBe('InvalidClientMetadataError: grant_types may only be authorization_code and refresh_token');
    expect(await oauthFailure(registeredClient(oauth, { response_types: ['code', 'token'] }))).toBe(
      'InvalidClientMetadataError: response_types may only be code',
    );
    expect(await oauthFailure(registeredClient(oauth, { scope: 'rates  admin' }))).toBe(
      'InvalidScopeError: unknown scope: admin',
    );
    expect(await oauthFailure(registeredClient(oauth, { scope: 'rates labels' }))).toBeUndefined();
  });

  it('never looks up a client id over 200 characters', async () => {
    const oauth = flowProvider();
    const long = await registeredClient(oauth, { client_id: 'x'.repeat(201) });
    const edge = await registeredClient(oauth, { client_id: 'y'.repeat(200) });
    expect(await oauth.getClient(long.client_id)).toBeUndefined();
    expect(await oauth.getClient(edge.client_id)).toBeDefined();
    expect(await oauth.getClient('never-registered')).toBeUndefined();
  });

  it('keeps at most 1,000 clients without consent in all, the oldest going first, from any address', async () => {
    const oauth = flowProvider();
    const ids: string[] = [];
    for (let i = 0; i < 1_001; i++) {
      flowClock.now += 1;
      ids.push((await registrationSender.run(`addr-${i % 70}`, () => registeredClient(oauth))).client_id);
    }
    expect(await oauth.getClient(ids[0] ?? '')).toBeUndefined();
    expect(await oauth.getClient(ids[1] ?? '')).toBeDefined();
    expect(await oauth.getClient(ids[1_000] ?? '')).toBeDefined();
  });

  it('keeps at most 20 clients without consent per address, the oldest going first', async () => {
    const oauth = flowProvider();
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      flowClock.now += 1;
      ids.push((await registrationSender.run('one-address', () => registeredClient(oauth))).client_id);
    }
    const other = await registrationSender.run('another', () => registeredClient(oauth));
    expect(await oauth.getClient(ids[0] ?? '')).toBeUndefined();
    expect(await oauth.getClient(ids[1] ?? '')).toBeDefined();
    expect(await oauth.getClient(other.client_id)).toBeDefined();
  });
});

describe('client ID metadata documents', () => {
  const URL_ID = 'https://app.agente.test/oauth/client.json';
  const document = (more: Partial<ClientMetadataDocument> = {}): ClientMetadataDocument => ({
    client_id: URL_ID,
    client_name: 'Agente de documento',
    redirect_uris: [LOOPBACK_CALLBACK],
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
      redirect_uris: [LOOPBACK_CALLBACK],
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
      metadata: { client_name: 'Agente de documento', redirect_uris: [LOOPBACK_CALLBACK] },
      consentedAt: FLOW_START,
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
    const pending = {
      clientId: URL_ID,
      redirectUri: LOOPBACK_CALLBACK,
      codeChallenge: S256_CHALLENGE,
      scopes: ['rates'],
    };
    expect(await oauthFailure(oauth.issueCode(pending, 'merchant', ['rates']))).toBe(
      'InvalidClientError: client_id is not a client of this server',
    );
  });
});
