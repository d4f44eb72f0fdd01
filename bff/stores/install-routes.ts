import { randomBytes } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import {
  SHOPIFY_SCOPES,
  SHOPIFY_SHOP_PATTERN,
  shopifyQueryHmac,
} from '../../shared/checkouts/store-oauth.ts';
import { ApiError } from '../../shared/errors.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { CounterPolicy, MemoryCounter } from '../../shared/windowed-counter.ts';
import type { BffConfig } from '../config.ts';
import { methodNotAllowed, rateLimited } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import type { ConnectionStore, StorePlatform } from './connection-store.ts';
import { configuredShop, type StoreConnections, type StoreRegistrar } from './connections.ts';
import { isStoreRefused } from './store-api.ts';
import { nuvemshopToken, shopifyRevoke, shopifyToken } from './token-grants.ts';

export interface InstallDeps {
  config: Pick<BffConfig, 'publicUrl' | 'checkout' | 'serviceCodes' | 'store'>;
  connections: StoreConnections;
  store: ConnectionStore;
  logger: Logger;
  now: () => number;
  /** The carrier and the webhooks registered with the new token (store-registration.ts). */
  register: StoreRegistrar;
  fetch?: typeof fetch | undefined;
}

/**
 * Code exchanges one address may cause on Nuvemshop's redirect URL per minute: it takes no signature and no state, so
 * without a bound a stranger's loop would make the BFF hammer Nuvemshop with the app's client secret.
 */
export const NUVEMSHOP_CALLBACKS_PER_MINUTE = 10;

/** A Shopify query signed at most this long ago is taken: the state (10 minutes, once) is what stops a replay. */
const QUERY_MAX_AGE_S = 24 * 3600;

/**
 * The install flows (docs/checkout/connect.md): Shopify's app URL and OAuth callback, Nuvemshop's redirect URL. Each
 * refusal is `400` with what was wrong, and nothing is stored or changed; a success registers the carrier and the
 * webhooks with the new token and ends on `/admin/stores` — or, for a store the merchant has not approved yet, holds
 * the install there for approval (`approvalNeeded`). No token, code or secret is ever in a log line, an answer
 * or a URL the BFF sends (the Shopify state is a random nonce).
 */
export function installRoutes(deps: InstallDeps): Router {
  const router = Router();
  const { checkout } = deps.config;
  const secret = checkout.shopifySecret;
  const clientId = checkout.shopify.clientId;
  if (secret && clientId) {
    router.get('/stores/shopify/install', async (req, res) => {
      const shop = signedShop(req, secret, deps.now());
      await pinned(deps, 'shopify', shop);
      const state = randomBytes(24).toString('base64url');
      await deps.store.addState(state, 'shopify', shop, deps.now());
      const authorize = new URL(`${deps.connections.adminOrigin(shop)}/admin/oauth/authorize`);
      authorize.searchParams.set('client_id', clientId);
      authorize.searchParams.set('scope', SHOPIFY_SCOPES.join(','));
      authorize.searchParams.set('redirect_uri', `${deps.config.publicUrl}/stores/shopify/callback`);
      authorize.searchParams.set('state', state);
      noStore(res);
      res.redirect(302, authorize.toString());
    });
    router.get('/stores/shopify/callback', async (req, res) => {
      const shop = signedShop(req, secret, deps.now());
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      if (!code) refuse('Shopify sent no code.');
      const stateShop = state ? await deps.store.takeState(state, 'shopify', deps.now()) : undefined;
      if (!stateShop)
        refuse(
          'This install link was already used or is older than 10 minutes: start the install again from Shopify.',
        );
      if (stateShop !== shop) refuse('The callback names another shop than the install started for.');
      // Again here: another shop's install may have finished since this one began.
      await pinned(deps, 'shopify', shop);
      let answer: Awaited<ReturnType<typeof shopifyToken>>;
      try {
        answer = await shopifyToken(
          {
            clientId,
            clientSecret: secret,
            adminOrigin: deps.connections.adminOrigin(shop),
            fetch: deps.fetch,
          },
          { grant: 'authorization_code', code },
        );
      } catch (error) {
        if (!isStoreRefused(error)) throw error;
        refuse(`Shopify did not exchange the code: ${error.message} Start the install again from Shopify.`);
      }
      if (await approvalNeeded(deps, 'shopify', shop)) {
        if (!(await deps.connections.holdShopify(shop, answer))) refuse(TOO_MANY_HELD);
        deps.logger.info({ platform: 'shopify', shop }, 'stores: Shopify install held for approval');
      } else {
        const other = await deps.connections.connectShopify(
          shop,
          answer,
          answer.expires_in ? 'expiring' : 'static',
        );
        if (other) {
          // Its token is of no use here: the app uninstalled from the shop again (a failed revoke changes nothing).
          const revoke = { adminOrigin: deps.connections.adminOrigin(shop), fetch: deps.fetch };
          await shopifyRevoke(revoke, answer.access_token).catch(() => undefined);
          refuse(connectedAlready(other, shop));
        }
        deps.logger.info(
          { platform: 'shopify', shop, expiring: Boolean(answer.expires_in) },
          'stores: Shopify app installed',
        );
        await deps.register('shopify', shop);
      }
      noStore(res);
      res.redirect(302, '/admin/stores');
    });
    router.all(['/stores/shopify/install', '/stores/shopify/callback'], methodNotAllowed('GET'));
  }

  const nuvemshop = checkout.nuvemshop;
  const appId = nuvemshop.appId;
  const appSecret = nuvemshop.appSecret;
  if (appId && appSecret) {
    const exchanges = new CounterPolicy(
      new MemoryCounter(deps.now ? { now: deps.now } : {}),
      'nuvemshop-callback',
      { calls: NUVEMSHOP_CALLBACKS_PER_MINUTE, seconds: 60 },
    );
    router.get('/stores/nuvemshop/callback', async (req, res) => {
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(code))
        refuse('Nuvemshop sent no code: install the app again from the Nuvemshop admin.');
      const allowed = await exchanges.take(req.ip ?? 'unknown');
      if (!allowed.ok)
        throw rateLimited(
          res,
          allowed.retryAfterSeconds,
          'Too many installs from this address: install the app again from the Nuvemshop admin in a minute.',
        );
      // The code is valid 30 seconds: exchanged before anything else.
      let answer: Awaited<ReturnType<typeof nuvemshopToken>>;
      try {
        answer = await nuvemshopToken(
          { appId, clientSecret: appSecret, authUrl: nuvemshop.authUrl, fetch: deps.fetch },
          code,
        );
      } catch (error) {
        if (!isStoreRefused(error)) throw error;
        refuse(
          `Nuvemshop refused the code (it is valid 30 seconds and once): ${error.message} Install the app again from the Nuvemshop admin.`,
        );
      }
      const storeId = String(answer.user_id);
      await pinned(deps, 'nuvemshop', storeId);
      if (await approvalNeeded(deps, 'nuvemshop', storeId)) {
        if (!(await deps.connections.holdNuvemshop(storeId, answer.access_token))) refuse(TOO_MANY_HELD);
        deps.logger.info(
          { platform: 'nuvemshop', shop: storeId },
          'stores: Nuvemshop install held for approval',
        );
      } else {
        const other = await deps.connections.connectNuvemshop(storeId, answer.access_token);
        if (other) refuse(connectedAlready(other, storeId));
        deps.logger.info({ platform: 'nuvemshop', shop: storeId }, 'stores: Nuvemshop app installed');
        await deps.register('nuvemshop', storeId);
      }
      noStore(res);
      res.redirect(302, '/admin/stores');
    });
    router.all('/stores/nuvemshop/callback', methodNotAllowed('GET'));
  }
  return router;
}

/**
 * One store per platform: the one of `BFF_SHOPIFY_SHOP` / `BFF_NUVEMSHOP_STORE_ID` when set, else the one connected
 * now. Another store installing the app (anyone can, once it is listed) would otherwise take over the BFF's calls.
 */
async function pinned(deps: InstallDeps, platform: StorePlatform, shop: string): Promise<void> {
  const configured = configuredShop(deps.config.checkout, platform);
  const connected = (await deps.store.connected(platform))?.shop;
  const allowed = configured ?? connected;
  if (allowed && allowed !== shop)
    refuse(
      configured
        ? `This BFF serves ${configured} (${platform === 'shopify' ? 'BFF_SHOPIFY_SHOP' : 'BFF_NUVEMSHOP_STORE_ID'}); ${shop} cannot connect to it.`
        : connectedAlready(connected ?? '', shop),
    );
}

const connectedAlready = (connected: string, shop: string) =>
  `${connected} is connected to this BFF: disconnect it on /admin/stores before connecting ${shop}.`;

const TOO_MANY_HELD =
  'Too many installs are waiting for the merchant’s approval: approve or reject them on /admin/stores first.';

/**
 * Whether an install waits for the merchant's approval on `/admin/stores` (issue 44, finding 14): when the platform
 * has no configured store (`BFF_SHOPIFY_SHOP`, `BFF_NUVEMSHOP_STORE_ID`) and this store was never connected. Anyone
 * can install a listed app: without it, the first store to install (a stranger's) became the BFF's store — its rates
 * on the merchant's account, its orders on the merchant's desk. A store approved once reconnects by installing again.
 */
async function approvalNeeded(deps: InstallDeps, platform: StorePlatform, shop: string): Promise<boolean> {
  if (configuredShop(deps.config.checkout, platform) === shop) return false;
  return (await deps.store.get(platform, shop)) === undefined;
}

function refuse(message: string): never {
  throw new ApiError('invalid_body', message);
}

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** The query's shop, once its `hmac` verifies (keyed by the client secret) and it is a `*.myshopify.com` name. */
function signedShop(req: Request, secret: string, now: number): string {
  const query = new URL(req.originalUrl, 'http://bff').searchParams;
  const presented = query.get('hmac') ?? '';
  if (
    query.getAll('hmac').length !== 1 ||
    !sameSecret(shopifyQueryHmac(secret, query), presented.toLowerCase())
  )
    refuse('The link is not signed by Shopify (hmac). Open the app from the Shopify admin.');
  const shop = (query.get('shop') ?? '').toLowerCase();
  if (!SHOPIFY_SHOP_PATTERN.test(shop)) refuse('The shop must be a <name>.myshopify.com address.');
  const timestamp = Number(query.get('timestamp'));
  if (!Number.isFinite(timestamp) || Math.abs(now / 1000 - timestamp) > QUERY_MAX_AGE_S)
    refuse('The link is too old: open the app from the Shopify admin again.');
  return shop;
}
