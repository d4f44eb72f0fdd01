import type * as z from 'zod/mini';
import {
  type NuvemshopAccessToken,
  NuvemshopAccessTokenSchema,
  OAuthErrorSchema,
  type ShopifyAccessToken,
  ShopifyAccessTokenSchema,
} from '../../shared/checkouts/store-oauth.ts';
import { StoreRefused, storeCall } from './store-api.ts';

/**
 * The platforms' token endpoints (shared/checkouts/store-oauth.ts cites their pages): Shopify's
 * `<admin origin>/admin/oauth/access_token` for an authorization code (an expiring offline token asked for with
 * `expiring=1`), a refresh token, or the client-credentials grant; Nuvemshop's `/apps/authorize/token`. The client
 * secret goes in the body, never in a URL; an answer is parsed before it is trusted. A refusal is `StoreRefused`,
 * retryable only when the platform was down, busy or unreachable; its message never carries a token.
 */
export interface ShopifyApp {
  clientId: string;
  clientSecret: string;
  /** `BFF_SHOPIFY_API_URL`, else `https://<shop>`. */
  adminOrigin: string;
  fetch?: typeof fetch | undefined;
}

export type ShopifyGrant =
  | { grant: 'authorization_code'; code: string }
  | { grant: 'refresh_token'; refreshToken: string }
  | { grant: 'client_credentials' };

export async function shopifyToken(app: ShopifyApp, request: ShopifyGrant): Promise<ShopifyAccessToken> {
  const body: Record<string, string> = { client_id: app.clientId, client_secret: app.clientSecret };
  if (request.grant === 'authorization_code') Object.assign(body, { code: request.code, expiring: '1' });
  else if (request.grant === 'refresh_token')
    Object.assign(body, { grant_type: 'refresh_token', refresh_token: request.refreshToken });
  else body.grant_type = 'client_credentials';
  return post(
    app.fetch,
    'Shopify',
    `${app.adminOrigin}/admin/oauth/access_token`,
    body,
    ShopifyAccessTokenSchema,
  );
}

/**
 * The app uninstalled from the shop with its own token: `DELETE <admin origin>/admin/api_permissions/current.json`,
 * `X-Shopify-Access-Token`, 200 on success; Shopify then deletes the app's webhooks, kills its tokens and sends
 * `app/uninstalled` (https://shopify.dev/docs/apps/build/authentication-authorization/app-installation/uninstall-app-api-request).
 * A refusal is `StoreRefused` with the status; the token is never in its message.
 */
export async function shopifyRevoke(
  app: Pick<ShopifyApp, 'adminOrigin' | 'fetch'>,
  token: string,
): Promise<void> {
  const res = await storeCall(app.fetch, 'Shopify', `${app.adminOrigin}/admin/api_permissions/current.json`, {
    method: 'DELETE',
    headers: { 'x-shopify-access-token': token, accept: 'application/json' },
    redirect: 'manual',
  });
  await res.body?.cancel();
  if (!res.ok)
    throw new StoreRefused(
      `Shopify did not uninstall the app (${res.status}).`,
      res.status === 429 || res.status >= 500,
    );
}

export interface NuvemshopApp {
  appId: string;
  clientSecret: string;
  /** `BFF_NUVEMSHOP_AUTH_URL` (default https://www.tiendanube.com). */
  authUrl: string;
  fetch?: typeof fetch | undefined;
}

export function nuvemshopToken(app: NuvemshopApp, code: string): Promise<NuvemshopAccessToken> {
  return post(
    app.fetch,
    'Nuvemshop',
    `${app.authUrl}/apps/authorize/token`,
    { client_id: app.appId, client_secret: app.clientSecret, grant_type: 'authorization_code', code },
    NuvemshopAccessTokenSchema,
  );
}

async function post<T>(
  fetcher: typeof fetch | undefined,
  platform: string,
  url: string,
  body: Record<string, string>,
  schema: z.ZodMiniType<T>,
): Promise<T> {
  const res = await storeCall(fetcher, platform, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  const json: unknown = await res.json().catch(() => undefined);
  const said = OAuthErrorSchema.safeParse(json).data;
  if (!res.ok || said?.error) {
    const why = said?.error
      ? `${said.error}${said.error_description ? `: ${said.error_description}` : ''}`
      : `${res.status}`;
    throw new StoreRefused(
      `${platform} refused the token request (${why}).`,
      res.status === 429 || res.status >= 500,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new StoreRefused(`${platform} answered the token request in a shape the kit does not know.`, true);
  return parsed.data;
}
