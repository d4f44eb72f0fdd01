import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { SHOPIFY_SHOP_HEADER, SHOPIFY_TOPIC_HEADER, shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { shopifyQueryHmac } from '../../shared/checkouts/store-oauth.ts';
import { ApiError } from '../../shared/errors.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from './accounts.ts';
import { CLIENT_CREDENTIALS_S, SHOPIFY_REFRESH_S } from './app-installs.ts';
import { type CheckoutPlatforms, callableUrl } from './state.ts';

/**
 * The platforms' install endpoints over `AppInstalls` (app-installs.ts says what each emulates), apart from it so the
 * emulated platforms' state (state.ts) takes the installs without the routes that take the state.
 */

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

  router.post('/_sandbox/stores/:platform/:store/uninstall', loopbackOnly, async (req, res) => {
    const platform = req.params.platform;
    const store = String(req.params.store);
    if (platform !== 'shopify' && platform !== 'nuvemshop') throw new ApiError('not_found');
    const sent = await uninstall(platforms, platform, store);
    res.json({ platform, store, uninstalled: true, sent });
  });

  // The app uninstalls itself with its token (Shopify's "Uninstall a Shopify app with an API request",
  // https://shopify.dev/docs/apps/build/authentication-authorization/app-installation/uninstall-app-api-request):
  // 200, every token of the app on that shop dead, its webhooks' app/uninstalled sent. A token Shopify does not know
  // (expired, revoked) is 401 in the Admin API's envelope.
  router.delete('/shopify/:shop/admin/api_permissions/current.json', async (req, res) => {
    const shop = platforms.shops.get(String(req.params.shop));
    if (!shop) return void res.status(404).json({ errors: 'Not Found' });
    const token = req.get('x-shopify-access-token') ?? '';
    if (!platforms.scopesOf('shopify', shop.domain, token))
      return void res.status(401).json({
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      });
    installs.revoked.add(token);
    await uninstall(platforms, 'shopify', shop.domain);
    res.status(200).json({});
  });
  return router;
}

/** The app removed from a store: its tokens dead, then the signed `app/uninstalled` sent to its subscriptions. */
async function uninstall(
  platforms: CheckoutPlatforms,
  platform: 'shopify' | 'nuvemshop',
  store: string,
): Promise<{ url: string; status: number | 'unreachable' }[]> {
  platforms.installs.uninstall(platform, store);
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
  return sent;
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
