import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../shared/errors.ts';
import type { Store, StoreRegistry } from '../stores/stores.ts';

export interface MerchantAccess {
  store: Store;
  kind: 'public' | 'secret';
  merchantPermission: boolean;
}

/** The Bearer token of a request, or `undefined`. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
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
  if (!token) throw new ApiError('missing_api_key', 'Send Authorization: Bearer <API_KEY>.');
  const credential = registry.credential(token);
  if (!credential) throw new ApiError('invalid_api_key', 'The API key is not valid.');
  if (credential.kind === 'platform') {
    throw new ApiError(
      'wrong_key_scope',
      'A platform key cannot call merchant routes; use the store key (mk_…).',
    );
  }
  if (credential.kind === 'public' && route === 'tracking') {
    throw new ApiError('secret_key_required', 'Tracking needs the secret key (mk_…), from a backend.');
  }
  if (credential.kind === 'public' && route === 'mcp') {
    throw new ApiError('invalid_api_key', 'The MCP server takes the secret key (mk_…), from a backend.');
  }
  const { store } = credential;
  if (store.deleted) throw new ApiError('merchant_not_found', 'The store bound to this key was not found.');
  return { store, kind: credential.kind, merchantPermission: credential.merchantPermission };
}
