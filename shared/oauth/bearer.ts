import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { checkResource } from './scopes.ts';

/** What an `Authorization` header amounts to on `/mcp`. */
export type BearerCheck =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'valid'; auth: AuthInfo; subject: string; scopes: string[]; clientIdHash: string };

/**
 * What a `/mcp` request's `Authorization` header amounts to: nothing sent, not valid, or an OAuth access token that
 * `verify` accepts and that was issued for `resource`.
 */
export async function checkBearer(
  authorization: string | undefined,
  verify: (token: string) => Promise<AuthInfo>,
  resource: string,
): Promise<BearerCheck> {
  if (!authorization?.trim()) return { kind: 'none' };
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (!token || token.length > 200) return { kind: 'invalid' };
  try {
    const auth = await verify(token);
    // Unlike a request's optional `resource`, a token must name ours: one naming none is refused too.
    if (auth.resource === undefined) return { kind: 'invalid' };
    checkResource(resource, auth.resource);
    return {
      kind: 'valid',
      auth,
      subject: String(auth.extra?.subject),
      scopes: auth.scopes,
      clientIdHash: auth.clientId,
    };
  } catch {
    return { kind: 'invalid' };
  }
}

/**
 * RFC 9728 §5.1, RFC 6750 §3.1: the challenge on a 401 from `/mcp`, pointing at the protected-resource metadata; no
 * `error` parameter when no credentials were sent.
 */
export function bearerChallenge(resourceMetadataUrl: string, credentialsSent: boolean): string {
  const metadata = `resource_metadata="${resourceMetadataUrl}"`;
  return credentialsSent ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`;
}
