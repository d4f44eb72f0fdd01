import type { RequestHandler, Router } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { isLoopbackUrl } from '../../shared/security/loopback.ts';
import { readJsonBody } from '../http/body.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';
import { appInstallRoutes } from './app-install-routes.ts';
import { CheckoutQuoteSchema, nuvemshopCheckout, shopifyCheckout } from './checkout.ts';
import { nuvemshopAdminRoutes } from './nuvemshop-admin.ts';
import { privacyRequestRoutes } from './privacy-requests.ts';
import { shopifyAdminRoutes } from './shopify-admin.ts';
import type { CheckoutPlatforms } from './state.ts';
import { storeOrderRoutes } from './store-order-routes.ts';

/**
 * The store platforms the sandbox plays (sandbox/README.md, "Store platforms' checkouts"): Shopify's and Nuvemshop's
 * Admin APIs where a carrier is registered, and `POST /_sandbox/checkouts/<platform>/<storeId>/quote`, a shopper's
 * checkout asking the registered callback (loopback only, like the rest of `/_sandbox`).
 */
export function checkoutPlatformRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  router.use(appInstallRoutes(platforms));
  router.use(shopifyAdminRoutes(platforms));
  router.use(nuvemshopAdminRoutes(platforms));
  router.use(storeOrderRoutes(platforms));
  router.use(privacyRequestRoutes(platforms));
  const path = '/_sandbox/checkouts/:platform/:storeId/quote';
  router.options(path, loopbackOnly, loopbackCors);
  router.post(path, loopbackOnly, loopbackCors, async (req, res) => {
    const quote = parseInput(CheckoutQuoteSchema, await readJsonBody(req));
    const storeId = String(req.params.storeId);
    if (req.params.platform === 'shopify')
      return void res.json(await shopifyCheckout(platforms, storeId, quote));
    if (req.params.platform === 'nuvemshop')
      return void res.json(await nuvemshopCheckout(platforms, storeId, quote));
    throw new ApiError('not_found', 'The sandbox plays the checkouts of shopify and nuvemshop.');
  });
  return router;
}

/**
 * CORS only for a page served from a loopback origin (the demo page of `npm start` shows the emulated checkout beside
 * the calculator); after `loopbackOnly`, so only from this machine.
 */
const loopbackCors: RequestHandler = (req, res, next) => {
  const origin = req.get('origin');
  if (origin && isLoopbackUrl(origin)) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
    res.status(204).end();
    return;
  }
  next();
};
