import type { ShopifyAccessToken } from '../../shared/checkouts/store-oauth.ts';
import type { SealedGrant, StorePlatform } from './connection-store.ts';
import type { TokenBox } from './store-key.ts';

/**
 * A platform's token answer as the row keeps it (docs/checkout/connect.md): each secret sealed by `TokenBox`, bound to
 * its row and field (`platform:shop:field`), so a value moved to another store's row, or to the other field, does
 * not open; the times of its life, and when to renew it.
 */

/** What a sealed value is bound to. */
export const binding = (platform: StorePlatform, shop: string, field: 'token' | 'refresh'): string =>
  `${platform}:${shop}:${field}`;

/** Shopify's answer (an install, a grant, a refresh), sealed; renewed halfway through its life when it expires. */
export function sealShopifyGrant(
  box: TokenBox,
  shop: string,
  answer: ShopifyAccessToken,
  kind: SealedGrant['kind'],
  issuedAt: number,
): SealedGrant {
  const expiresAt = answer.expires_in ? issuedAt + answer.expires_in * 1000 : null;
  return {
    kind: expiresAt === null && kind === 'expiring' ? 'static' : kind,
    token: box.seal(answer.access_token, binding('shopify', shop, 'token')),
    refresh: answer.refresh_token
      ? box.seal(answer.refresh_token, binding('shopify', shop, 'refresh'))
      : null,
    issuedAt,
    expiresAt,
    refreshExpiresAt: answer.refresh_token_expires_in
      ? issuedAt + answer.refresh_token_expires_in * 1000
      : null,
    // Halfway through its life: room for a failed renewal's retries before the token stops working.
    renewAt: expiresAt === null ? null : issuedAt + (expiresAt - issuedAt) / 2,
  };
}

/** Nuvemshop's token (it does not expire), sealed. */
export function sealNuvemshopGrant(
  box: TokenBox,
  storeId: string,
  token: string,
  issuedAt: number,
): SealedGrant {
  return {
    kind: 'nuvemshop',
    token: box.seal(token, binding('nuvemshop', storeId, 'token')),
    refresh: null,
    issuedAt,
    expiresAt: null,
    refreshExpiresAt: null,
    renewAt: null,
  };
}

/** A row's sealed field opened, or undefined when it is empty or does not open (another key, row or field). */
export function openSealed(
  box: TokenBox,
  platform: StorePlatform,
  shop: string,
  field: 'token' | 'refresh',
  sealed: string | null | undefined,
): string | undefined {
  return sealed ? box.open(sealed, binding(platform, shop, field)) : undefined;
}
