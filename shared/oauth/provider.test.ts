import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../security/hash.ts';
import { SqliteSql } from '../sql/sqlite.ts';
import { OAuthProvider } from './provider.ts';
import { OAuthStore } from './store.ts';

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
