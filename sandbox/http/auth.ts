import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../shared/errors.ts';
import type { Store, StoreRegistry } from '../stores/stores.ts';

export interface MerchantAccess {
  store: Store;
  kind: 'public' | 'secret';
  merchantPermission: boolean;
}

/**
 * `Authorization: Bearer <token>` exactly (RFC 6750 §2.1): the scheme in any case, one or more spaces, one token68.
 * Anything else (`Basic …`, a second word, no token) is not a Bearer credential.
 */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/** The Bearer token of a request, or `undefined` (none sent, or not in the Bearer form). */
export function bearerToken(req: IncomingMessage): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

/** Whether the request sent an `Authorization` header at all (a blank one counts as none). */
export function authorizationSent(req: IncomingMessage): boolean {
  return (req.headers.authorization ?? '').trim() !== '';
}

/** The `WWW-Authenticate` challenge of a REST 401 (RFC 6750 §3: no `error` when no credentials were sent). */
export function restChallenge(code: 'missing_api_key' | 'invalid_api_key'): string {
  return code === 'missing_api_key'
    ? 'Bearer realm="shipping-platform-sandbox"'
    : 'Bearer realm="shipping-platform-sandbox", error="invalid_token"';
}

/**
 * Spec 5.1: the store always comes from the key. `route` decides what a key may do: `pk_` quotes only,
 * a platform key never reaches merchant routes. Never echoes the key.
 */
export function authenticate(
  req: IncomingMessage,
  registry: StoreRegistry,
  route: 'rates' | 'tracking' | 'mcp',
): MerchantAccess {
  const token = bearerToken(req);
  if (!token) {
    // A header was sent, in another scheme or with extra words: the credential is invalid, not missing.
    if (authorizationSent(req))
      throw new ApiError('invalid_api_key', 'The Authorization header must be exactly Bearer <API_KEY>.');
    throw new ApiError('missing_api_key');
  }
  const credential = registry.credential(token);
  if (!credential) throw new ApiError('invalid_api_key');
  if (credential.kind === 'platform') {
    throw new ApiError(
      'wrong_key_scope',
      'A platform key cannot call merchant routes; use the store key (mk_…).',
    );
  }
  if (credential.kind === 'public' && route === 'tracking') {
    throw new ApiError('secret_key_required');
  }
  if (credential.kind === 'public' && route === 'mcp') {
    throw new ApiError('invalid_api_key', 'The MCP server takes the secret key (mk_…), from a backend.');
  }
  const { store } = credential;
  if (store.deleted) throw new ApiError('merchant_not_found');
  return { store, kind: credential.kind, merchantPermission: credential.merchantPermission };
}

/** Who is on the other end of `/mcp`: a store (by key), a partner (platform key), or anyone (local mode). */
export type McpCaller =
  | { kind: 'merchant'; access: MerchantAccess }
  | { kind: 'partner'; partnerId: string }
  | { kind: 'local' };

/**
 * The mode switch of `/mcp` (sandbox/README.md "Partner provisioning", "Local unauthenticated MCP"). A platform key
 * gets the partner scope (spec 4.4.6); under `SANDBOX_AUTH=off` a request *without* an Authorization header is
 * the local caller whose `instanceId` picks the store, while one with a header is authenticated as always.
 */
export function authenticateMcp(
  req: IncomingMessage,
  registry: StoreRegistry,
  mode: 'keys' | 'off',
): McpCaller {
  if (mode === 'off' && !authorizationSent(req)) return { kind: 'local' };
  const token = bearerToken(req);
  const credential = token === undefined ? undefined : registry.credential(token);
  if (credential?.kind === 'platform') return { kind: 'partner', partnerId: credential.partnerId };
  return { kind: 'merchant', access: authenticate(req, registry, 'mcp') };
}
