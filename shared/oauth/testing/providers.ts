import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { sha256Hex } from '../../security/hash.ts';
import { SqliteSql } from '../../sql/sqlite.ts';
import type { ClientMetadataDocument } from '../client-metadata.ts';
import { OAuthProvider } from '../provider.ts';
import { OAuthStore } from '../store.ts';
import type { PendingAuthorization } from '../tokens.ts';

// Providers for the tests of the provider's nouns (clients.test.ts, tokens.test.ts, bearer.test.ts): a database in
// memory each, a fixed clock or one the test moves.

export const MCP_RESOURCE = 'http://127.0.0.1:4000/mcp';
export const FLOW_START = 1_763_800_000_000;

let sql: SqliteSql | undefined;

/** Closes the database of the provider the test made last (`afterEach`). */
export function closeProviders(): void {
  sql?.close();
  sql = undefined;
}

export function fixedProvider(): OAuthProvider {
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  return new OAuthProvider({
    store: new OAuthStore(sql),
    resource: MCP_RESOURCE,
    scopes: ['rates', 'tracking'],
    renderLogin: () => undefined,
    now: () => FLOW_START,
  });
}

/** An access token stored as a grant for `resource` would store it. */
export async function storedAccessToken(oauth: OAuthProvider, resource: string): Promise<string> {
  const token = `token-${resource.length}-${Math.random().toString(16).slice(2)}`;
  await oauth.store.putToken(sha256Hex(token), {
    clientIdHash: 'client',
    grantId: `grant-${token}`,
    subject: 'merchant',
    scopes: ['rates'],
    resource,
    kind: 'access',
    expiresAt: FLOW_START + 60_000,
  });
  return token;
}

/** The clock of `flowProvider`'s provider: a test moves it (`flowClock.now += 60_000`). */
export const flowClock = { now: FLOW_START };

/** A provider with a clock the test moves, and an optional document resolver (the BFF's client ID documents). */
export function flowProvider(resolve?: (url: string) => Promise<ClientMetadataDocument>): OAuthProvider {
  flowClock.now = FLOW_START;
  sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  return new OAuthProvider({
    store: new OAuthStore(sql),
    resource: MCP_RESOURCE,
    scopes: ['rates', 'labels'],
    renderLogin: () => undefined,
    now: () => flowClock.now,
    ...(resolve ? { clientMetadata: { resolve } } : {}),
  });
}

export const LOOPBACK_CALLBACK = 'http://127.0.0.1:6274/callback';
export const S256_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

export async function registeredClient(
  oauth: OAuthProvider,
  metadata: Partial<OAuthClientInformationFull> = {},
): Promise<OAuthClientInformationFull> {
  return (await oauth.clientsStore.registerClient?.({
    client_id: crypto.randomUUID(),
    redirect_uris: [LOOPBACK_CALLBACK],
    client_name: 'Agente',
    ...metadata,
  } as OAuthClientInformationFull)) as OAuthClientInformationFull;
}

export const pendingFor = (client: OAuthClientInformationFull, more: Partial<PendingAuthorization> = {}) => ({
  clientId: client.client_id,
  redirectUri: LOOPBACK_CALLBACK,
  codeChallenge: S256_CHALLENGE,
  scopes: ['rates', 'labels'],
  ...more,
});

export async function tokensFor(
  oauth: OAuthProvider,
  client: OAuthClientInformationFull,
  scopes = ['rates', 'labels'],
) {
  const code = await oauth.issueCode(pendingFor(client), 'merchant', scopes);
  return oauth.exchangeAuthorizationCode(client, code, undefined, LOOPBACK_CALLBACK);
}

export const oauthFailure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) =>
      error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error),
  );
