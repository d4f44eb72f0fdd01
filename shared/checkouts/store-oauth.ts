import { createHmac } from 'node:crypto';
import * as z from 'zod/mini';

/**
 * How an app connects to a store, as Shopify and Nuvemshop publish it: the shapes both the BFF (bff/stores/) and the
 * sandbox's emulation (sandbox/checkouts/app-installs.ts) take from here.
 *
 * - Shopify, authorization code grant: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant
 *   (the query's `hmac`: hex HMAC-SHA256 keyed by the client secret of the other parameters sorted as `k=v&…`,
 *   percent-encoded as Shopify/shopify-app-js encodes them);
 *   expiring offline tokens (`expiring=1`, 1 h, rotating refresh token):
 *   https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/offline-access-tokens and
 *   https://shopify.dev/changelog/offline-access-tokens-now-support-expiry-and-refresh; the client credentials grant
 *   (a Dev Dashboard app on its own organization's stores, 24 h tokens):
 *   https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/client-credentials-grant.
 * - Nuvemshop: https://github.com/TiendaNube/api-docs/blob/master/resources/authentication.md (a `code` valid 5 minutes
 *   there, 30 s as the kit's contract keeps it, exchanged at `/apps/authorize/token`; `user_id` is the store id).
 */

/** A shop's permanent name: `<name>.myshopify.com` (Shopify's library's `sanitizeShop` takes the same). */
export const SHOPIFY_SHOP_PATTERN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

/**
 * The `hmac` of a query Shopify signs (the app URL, the OAuth callback): every other parameter (not `hmac`, not
 * `signature`), sorted by name, through `URLSearchParams` with a space as `%20` — as Shopify's own library signs it
 * (Shopify/shopify-app-js packages/apps/shopify-api/lib/utils/hmac-validator.ts and processed-query.ts; its test
 * "Shopify signs with %20, not +"). A `host` with base64 padding is signed with `%3D` (store-oauth.test.ts).
 */
export function shopifyQueryHmac(secret: string, params: URLSearchParams | Record<string, string>): string {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  // A repeated name is one value joined by commas, as the library's `normalizeQuery` reads a URLSearchParams.
  const values = new Map<string, string>();
  for (const [key, value] of entries)
    if (key !== 'hmac' && key !== 'signature') {
      const before = values.get(key);
      values.set(key, before === undefined ? value : `${before},${value}`);
    }
  const signed = [...values].sort(([a], [b]) => a.localeCompare(b));
  const message = new URLSearchParams(signed).toString().replace(/\+/g, '%20');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/**
 * `POST <shop>/admin/oauth/access_token`'s answer: always `access_token` and `scope`; with an expiring token
 * `expires_in` (seconds), and from the code or a refresh `refresh_token` and `refresh_token_expires_in`.
 */
export const ShopifyAccessTokenSchema = /* @__PURE__ */ z.looseObject({
  access_token: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,512}$/)),
  scope: z.optional(z.string()),
  expires_in: z.optional(z.number()),
  refresh_token: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,512}$/))),
  refresh_token_expires_in: z.optional(z.number()),
});
export type ShopifyAccessToken = z.infer<typeof ShopifyAccessTokenSchema>;

/** Nuvemshop's `POST /apps/authorize/token` answer (`user_id`: the store the app was installed in). */
export const NuvemshopAccessTokenSchema = /* @__PURE__ */ z.looseObject({
  access_token: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,512}$/)),
  token_type: z.optional(z.string()),
  scope: z.optional(z.string()),
  user_id: z.union([z.number(), z.string().check(z.regex(/^\d{1,20}$/))]),
});
export type NuvemshopAccessToken = z.infer<typeof NuvemshopAccessTokenSchema>;

/** An OAuth error answer (both platforms: `error` and `error_description`). */
export const OAuthErrorSchema = /* @__PURE__ */ z.looseObject({
  error: z.optional(z.string()),
  error_description: z.optional(z.string()),
});

/**
 * The scopes the kit asks a Shopify shop for: carrier registration, order webhooks, fulfillments with tracking, and the
 * shop's locations (the tracking goes to the fulfillment orders of the shipping location: bff/shopify/fulfillment.ts).
 */
export const SHOPIFY_SCOPES = [
  'write_shipping',
  'read_orders',
  'read_merchant_managed_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'read_locations',
] as const;
