import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { SHOPIFY_SHOP_HEADER, SHOPIFY_TOPIC_HEADER, shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { ApiError } from '../../shared/errors.ts';
import { isLoopbackAddress } from '../../shared/security/loopback.ts';
import { strictRouter } from '../http/router.ts';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from './accounts.ts';
import { type CheckoutPlatforms, callableUrl } from './state.ts';

/**
 * The platforms' side of an app install (sandbox/README.md, "App installs"), as strict as they publish it
 * (shared/checkouts/store-oauth.ts cites the pages):
 *
 * - Shopify, at `/shopify/<shop>/admin/oauth/authorize` (approves at once: 302 to `redirect_uri` with `code`, `shop`,
 *   `state`, `timestamp` and their `hmac`) and `/shopify/<shop>/admin/oauth/access_token` (an authorization code once;
 *   `expiring=1` for a token of `tokenTtlS` with a refresh token; `grant_type=refresh_token` rotates it, the old refresh
 *   token kept until the new access token is first used, as Shopify's changelog of 2026-08-28 says;
 *   `grant_type=client_credentials`, no refresh token). Tokens really stop working when they expire.
 * - Nuvemshop, at `/nuvemshop/apps/<app id>/authorize` (302 with a `code` valid 30 s) and
 *   `/nuvemshop/apps/authorize/token`.
 * - `POST /_sandbox/stores/:platform/:store/uninstall`: the app removed, its tokens dead, the signed `app/uninstalled`
 *   webhook sent to the subscriptions (Nuvemshop's `{store_id, event, id: <app id>}`, TiendaNube/api-docs
 *   resources/webhook.md; Shopify's the shop's domain in the body and the headers).
 */
export interface IssuedToken {
  platform: 'shopify' | 'nuvemshop';
  store: string;
  scopes: readonly string[];
  /** Epoch ms; undefined: until uninstalled (Nuvemshop, non-expiring Shopify tokens). */
  expiresAt: number | undefined;
  used: boolean;
}

interface Grant {
  store: string;
  scopes: readonly string[];
  expiresAt: number;
}

interface RefreshGrant {
  store: string;
  scopes: readonly string[];
  expiresAt: number;
  /** The access token this refresh token came with: the refresh token stays until a later one is used. */
  accessToken: string;
  /** The refresh token that replaced it (set on use): it dies once the replacement's access token is used. */
  replacedBy: string | undefined;
}

/** Shopify codes are short-lived (the sandbox: 10 minutes); Nuvemshop's 30 s as the kit's contract says. */
const SHOPIFY_CODE_MS = 10 * 60_000;
const NUVEMSHOP_CODE_MS = 30_000;
/** Shopify: expiring offline tokens 1 h, refresh tokens 90 days, client-credentials tokens 24 h (86 399 s). */
const SHOPIFY_TOKEN_S = 3600;
const SHOPIFY_REFRESH_S = 90 * 86_400;
const CLIENT_CREDENTIALS_S = 86_399;

export class AppInstalls {
  readonly tokens = new Map<string, IssuedToken>();
  /** Calls that presented a token of each `<platform> <store>` (Admin API and token endpoint), for uninstall tests. */
  readonly calls = new Map<string, number>();
  private readonly codes = new Map<string, Grant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  private readonly now: () => number;
  private readonly ttlS: number | undefined;

  constructor(now: () => number, tokenTtlS?: number) {
    this.now = now;
    this.ttlS = tokenTtlS;
  }

  reset(): void {
    this.tokens.clear();
    this.calls.clear();
    this.codes.clear();
    this.refresh.clear();
  }

  /** The scopes of a live token of this store, counting the call; undefined: unknown, expired or uninstalled. */
  scopesOf(platform: 'shopify' | 'nuvemshop', store: string, token: string): readonly string[] | undefined {
    const issued = this.tokens.get(token);
    if (!issued || issued.platform !== platform || issued.store !== store) return undefined;
    this.count(platform, store);
    if (issued.expiresAt !== undefined && issued.expiresAt <= this.now()) return undefined;
    if (!issued.used) {
      issued.used = true;
      // The first use of a refreshed token retires the refresh token it replaced.
      for (const [key, grant] of this.refresh)
        if (grant.replacedBy && this.refresh.get(grant.replacedBy)?.accessToken === token)
          this.refresh.delete(key);
    }
    return issued.scopes;
  }

  count(platform: string, store: string): void {
    const key = `${platform} ${store}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  issueCode(platform: 'shopify' | 'nuvemshop', store: string, scopes: readonly string[]): string {
    const code = randomBytes(16).toString('hex');
    const ms = platform === 'shopify' ? SHOPIFY_CODE_MS : NUVEMSHOP_CODE_MS;
    this.codes.set(`${platform} ${code}`, { store, scopes, expiresAt: this.now() + ms });
    return code;
  }

  /** The code's grant, once: a second exchange (or a late one) finds nothing. */
  takeCode(platform: 'shopify' | 'nuvemshop', code: string): Grant | undefined {
    const grant = this.codes.get(`${platform} ${code}`);
    this.codes.delete(`${platform} ${code}`);
    return grant && grant.expiresAt > this.now() ? grant : undefined;
  }

  issueToken(
    platform: 'shopify' | 'nuvemshop',
    store: string,
    scopes: readonly string[],
    seconds: number | undefined,
  ): string {
    const token = `${platform === 'shopify' ? 'shpat' : 'nuvem'}_${randomBytes(16).toString('hex')}`;
    // Nuvemshop: a new token makes the store's older ones invalid (its authentication page).
    if (platform === 'nuvemshop')
      for (const [key, old] of this.tokens)
        if (old.platform === platform && old.store === store) this.tokens.delete(key);
    this.tokens.set(token, {
      platform,
      store,
      scopes,
      expiresAt: seconds === undefined ? undefined : this.now() + seconds * 1000,
      used: false,
    });
    return token;
  }

  /** `expires_in` of an expiring Shopify token: `SANDBOX_SHOPIFY_TOKEN_TTL_S`, else Shopify's hour. */
  ttl(fallback = SHOPIFY_TOKEN_S): number {
    return this.ttlS ?? fallback;
  }

  issueRefresh(store: string, scopes: readonly string[], accessToken: string): string {
    const token = `shprt_${randomBytes(16).toString('hex')}`;
    this.refresh.set(token, {
      store,
      scopes,
      accessToken,
      expiresAt: this.now() + SHOPIFY_REFRESH_S * 1000,
      replacedBy: undefined,
    });
    return token;
  }

  takeRefresh(store: string, token: string): RefreshGrant | undefined {
    const grant = this.refresh.get(token);
    if (!grant || grant.store !== store || grant.expiresAt <= this.now()) return undefined;
    return grant;
  }

  /** The app removed from the store: every token, code and refresh token of it dead. */
  uninstall(platform: 'shopify' | 'nuvemshop', store: string): void {
    for (const [key, issued] of this.tokens)
      if (issued.platform === platform && issued.store === store) this.tokens.delete(key);
    for (const [key, grant] of this.refresh)
      if (platform === 'shopify' && grant.store === store) this.refresh.delete(key);
  }
}

/** The form or JSON body of a token request, as strings. */
function fieldsOf(req: Request): Record<string, string> {
  const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
      .map(([key, value]) => [key, String(value)]),
  );
}

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

export function appInstallRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  const installs = platforms.installs;
  const body = [express.json({ limit: 10_000 }), express.urlencoded({ extended: false, limit: 10_000 })];

  router.get('/shopify/:shop/admin/oauth/authorize', (req, res) => {
    const shop = platforms.shops.get(String(req.params.shop));
    if (!shop) return void res.status(404).type('text').send('There is no store at this address.');
    const query = req.query as Record<string, unknown>;
    if (query.client_id !== SANDBOX_SHOPIFY_CLIENT_ID)
      return void res
        .status(400)
        .type('text')
        .send('Oauth error invalid_request: The client_id is not valid.');
    const redirect = query.redirect_uri;
    if (!callableUrl(redirect))
      return void res
        .status(400)
        .type('text')
        .send('Oauth error invalid_request: The redirect_uri is not whitelisted.');
    const scopes = (typeof query.scope === 'string' ? query.scope : '').split(',').filter(Boolean);
    const params: Record<string, string> = {
      code: installs.issueCode('shopify', shop.domain, scopes),
      shop: shop.domain,
      state: typeof query.state === 'string' ? query.state : '',
      timestamp: String(Math.floor(platforms.now() / 1000)),
    };
    const url = new URL(redirect);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    url.searchParams.set('hmac', shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params));
    res.redirect(302, url.toString());
  });

  router.post('/shopify/:shop/admin/oauth/access_token', ...body, (req, res) => {
    const shop = platforms.shops.get(String(req.params.shop));
    if (!shop) return void res.status(404).json({ errors: 'Not Found' });
    const fields = fieldsOf(req);
    if (fields.client_id !== SANDBOX_SHOPIFY_CLIENT_ID || fields.client_secret !== SANDBOX_SHOPIFY_APP_SECRET)
      return void oauthError(res, 400, 'invalid_client', 'Client authentication failed.');
    installs.count('shopify', shop.domain);
    const grantType = fields.grant_type ?? (fields.code ? 'authorization_code' : '');
    if (grantType === 'client_credentials') {
      const scopes = [
        'write_shipping',
        'read_orders',
        'read_merchant_managed_fulfillment_orders',
        'write_merchant_managed_fulfillment_orders',
      ];
      const seconds = installs.ttl(CLIENT_CREDENTIALS_S);
      const token = installs.issueToken('shopify', shop.domain, scopes, seconds);
      return void res.json({ access_token: token, scope: scopes.join(','), expires_in: seconds });
    }
    if (grantType === 'refresh_token') {
      const grant = installs.takeRefresh(shop.domain, fields.refresh_token ?? '');
      if (!grant)
        return void oauthError(res, 400, 'invalid_grant', 'The refresh token is invalid or expired.');
      const seconds = installs.ttl();
      const token = installs.issueToken('shopify', shop.domain, grant.scopes, seconds);
      const refresh = installs.issueRefresh(shop.domain, grant.scopes, token);
      grant.replacedBy = refresh;
      return void res.json(tokenAnswer(token, grant.scopes, seconds, refresh));
    }
    if (grantType !== 'authorization_code')
      return void oauthError(res, 400, 'unsupported_grant_type', 'The grant type is not supported.');
    const grant = installs.takeCode('shopify', fields.code ?? '');
    if (!grant || grant.store !== shop.domain)
      return void oauthError(
        res,
        400,
        'invalid_request',
        'The authorization code was not found or was already used',
      );
    if (fields.expiring !== '1') {
      const token = installs.issueToken('shopify', shop.domain, grant.scopes, undefined);
      return void res.json({ access_token: token, scope: grant.scopes.join(',') });
    }
    const seconds = installs.ttl();
    const token = installs.issueToken('shopify', shop.domain, grant.scopes, seconds);
    res.json(
      tokenAnswer(token, grant.scopes, seconds, installs.issueRefresh(shop.domain, grant.scopes, token)),
    );
  });

  router.get('/nuvemshop/apps/:app/authorize', (req, res) => {
    const query = req.query as Record<string, unknown>;
    if (req.params.app !== SANDBOX_NUVEMSHOP_APP_ID)
      return void res.status(404).type('text').send('App not found');
    const store = platforms.stores.get(typeof query.store_id === 'string' ? query.store_id : '1001');
    if (!store || !callableUrl(query.redirect_uri))
      return void res.status(400).type('text').send('Invalid store or redirect URL');
    const url = new URL(query.redirect_uri);
    url.searchParams.set('code', installs.issueCode('nuvemshop', store.id, NUVEMSHOP_SCOPES));
    if (typeof query.state === 'string') url.searchParams.set('state', query.state);
    res.redirect(302, url.toString());
  });

  router.post('/nuvemshop/apps/authorize/token', ...body, (req, res) => {
    const fields = fieldsOf(req);
    if (
      fields.client_id !== SANDBOX_NUVEMSHOP_APP_ID ||
      fields.client_secret !== SANDBOX_NUVEMSHOP_APP_SECRET
    )
      return void oauthError(res, 401, 'invalid_client', 'The client credentials are invalid');
    if (fields.grant_type !== 'authorization_code')
      return void oauthError(res, 400, 'unsupported_grant_type', 'The grant type is not supported');
    const grant = installs.takeCode('nuvemshop', fields.code ?? '');
    if (!grant) return void oauthError(res, 400, 'invalid_grant', 'The authorization code has expired');
    installs.count('nuvemshop', grant.store);
    const token = installs.issueToken('nuvemshop', grant.store, grant.scopes, undefined);
    res.json({
      access_token: token,
      token_type: 'bearer',
      scope: grant.scopes.join(','),
      user_id: grant.store,
    });
  });

  router.post('/_sandbox/stores/:platform/:store/uninstall', async (req, res) => {
    if (!isLoopbackAddress(req.socket.remoteAddress)) throw new ApiError('not_found');
    const platform = req.params.platform;
    const store = String(req.params.store);
    if (platform !== 'shopify' && platform !== 'nuvemshop') throw new ApiError('not_found');
    installs.uninstall(platform, store);
    const topic = 'app/uninstalled';
    const subscriptions = (platforms.orders.subscriptions.get(`${platform} ${store}`) ?? []).filter(
      (s) => s.topic === topic,
    );
    const sent = [];
    for (const subscription of subscriptions) {
      const payload =
        platform === 'shopify'
          ? JSON.stringify({ id: 1, domain: store, myshopify_domain: store })
          : JSON.stringify({ store_id: Number(store), event: topic, id: Number(SANDBOX_NUVEMSHOP_APP_ID) });
      const headers: Record<string, string> =
        platform === 'shopify'
          ? {
              'content-type': 'application/json',
              [SHOPIFY_TOPIC_HEADER]: topic,
              [SHOPIFY_SHOP_HEADER]: store,
              'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, payload),
              'x-shopify-webhook-id': randomBytes(8).toString('hex'),
              'x-shopify-triggered-at': platforms.timestamp(),
            }
          : {
              'content-type': 'application/json',
              'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, payload),
            };
      const delivered = await platforms.orders.deliver({
        id: randomBytes(8).toString('hex'),
        platform,
        store,
        url: subscription.url,
        topic,
        body: payload,
        headers,
      });
      sent.push({ url: delivered.url, status: delivered.status });
    }
    res.json({ platform, store, uninstalled: true, sent });
  });
  return router;
}

/** What Nuvemshop grants the sandbox's app (its scopes as the partner portal lists them). */
const NUVEMSHOP_SCOPES = ['write_shipping', 'read_orders', 'write_orders', 'read_customers'] as const;

function tokenAnswer(token: string, scopes: readonly string[], seconds: number, refresh: string) {
  return {
    access_token: token,
    scope: scopes.join(','),
    expires_in: seconds,
    refresh_token: refresh,
    refresh_token_expires_in: SHOPIFY_REFRESH_S,
  };
}
