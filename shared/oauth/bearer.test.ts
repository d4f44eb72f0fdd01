import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeProviders,
  fixedProvider,
  flowProvider,
  MCP_RESOURCE,
  registeredClient,
  storedAccessToken,
  tokensFor,
} from './testing/providers.ts';

afterEach(closeProviders);

describe('checkBearer: a token is good only for the resource it was issued for (RFC 8707)', () => {
  it('takes a token for this /mcp, with or without its trailing slash', async () => {
    const oauth = fixedProvider();
    for (const resource of [MCP_RESOURCE, `${MCP_RESOURCE}/`]) {
      const check = await oauth.checkBearer(`Bearer ${await storedAccessToken(oauth, resource)}`);
      expect(check).toMatchObject({ kind: 'valid', subject: 'merchant', scopes: ['rates'] });
    }
  });

  it('refuses a token for a look-alike resource (another port, a longer path, another host)', async () => {
    const oauth = fixedProvider();
    for (const resource of [
      'http://127.0.0.1:4001/mcp',
      `${MCP_RESOURCE}/x`,
      'http://127.0.0.1:4000/mcpx',
      'http://localhost:4000/mcp',
    ]) {
      expect(await oauth.checkBearer(`Bearer ${await storedAccessToken(oauth, resource)}`)).toEqual({
        kind: 'invalid',
      });
    }
  });

  it('refuses a token that names no resource at all (a request may leave it out; a token may not)', async () => {
    const oauth = fixedProvider();
    const token = await storedAccessToken(oauth, MCP_RESOURCE);
    const verify = oauth.verifyAccessToken.bind(oauth);
    oauth.verifyAccessToken = async (t: string): Promise<AuthInfo> => {
      const { resource: _resource, ...auth } = await verify(t);
      return auth;
    };
    expect(await oauth.checkBearer(`Bearer ${token}`)).toEqual({ kind: 'invalid' });
  });

  it('reads the Authorization header: nothing sent, a Bearer token in any case and spacing, or not valid', async () => {
    const oauth = flowProvider();
    const client = await registeredClient(oauth);
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
