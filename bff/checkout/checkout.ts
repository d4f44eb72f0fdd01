import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type * as z from 'zod/mini';
import { FulfillmentOptionsRequestSchema } from '../../shared/checkouts/agentic.ts';
import { NuvemshopRateRequestSchema } from '../../shared/checkouts/nuvemshop.ts';
import { SHOPIFY_HEADER_FAMILIES, ShopifyRateRequestSchema } from '../../shared/checkouts/shopify.ts';
import { ApiError, isApiError } from '../../shared/errors.ts';
import { describeIssues, parseInput } from '../../shared/issues.ts';
import { MAX_BODY_BYTES } from '../../shared/platform-limits.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { fulfillmentOptions } from '../agentic/fulfillment-options.ts';
import type { BffConfig } from '../config.ts';
import { jsonOnly, methodNotAllowed, rateLimited } from '../http/errors.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import { type Logger, messageOf } from '../logger.ts';
import { isNotQuotable, nuvemshopRates } from '../nuvemshop/rate-callback.ts';
import type { QuoteCaller } from '../rates/quote-share.ts';
import { checkoutAuth, quoteShareMessage } from '../rates/routes.ts';
import type { RatesService } from '../rates/service.ts';
import { shopifyRates } from '../shopify/rate-callback.ts';
import { BODY_CAPS, signedBody, UnverifiedBytes } from '../stores/signed-body.ts';
import { beforeDeadline, CheckoutUnavailable, isCheckoutUnavailable } from './quoting.ts';

/** Nuvemshop's callback may carry a long cart: bounded, read after its URL's secret was checked. */
export const CHECKOUT_BODY_LIMIT = 256 * 1024;

export interface CheckoutDeps {
  config: Pick<BffConfig, 'checkout' | 'checkoutTokens'>;
  rates: Pick<RatesService, 'shopperQuote'>;
  serviceCodes: ServiceCodes;
  logger: Logger;
  /** The bytes of bodies not verified yet, shared with the stores' webhooks (bff/stores/signed-body.ts). */
  unverified?: UnverifiedBytes;
  /** The connected (else configured) Shopify shop (`StoreConnections.shopOf`): a callback naming another is refused. */
  shopifyShop?: () => Promise<string | undefined>;
}

/**
 * The checkout adapters (docs/checkout/): Shopify's CarrierService callback, Nuvemshop's shipping-carrier callback
 * and the agentic checkouts' fulfillment options, each a thin translation around the one quote core. Every answer
 * leaves before `BFF_CHECKOUT_DEADLINE_MS` (the clock starts when the request arrives): a price, no option, or 503.
 * A platform's route exists only when its secret is configured.
 */
export function checkoutRoutes(deps: CheckoutDeps): Router {
  const router = Router();
  const { checkout } = deps.config;
  const startClock: RequestHandler = (_req, res, next) => {
    res.locals.deadlineAt = Date.now() + checkout.deadlineMs;
    next();
  };
  const raw = express.raw({ type: () => true, limit: CHECKOUT_BODY_LIMIT });

  const shopifySecret = checkout.shopifySecret;
  if (shopifySecret) {
    const pool = deps.unverified ?? new UnverifiedBytes();
    const route = {
      platform: 'shopify',
      secret: shopifySecret,
      cap: BODY_CAPS.shopifyCarrier,
      pool,
    } as const;
    const quote: RequestHandler = async (req, res) => {
      // Inside `answer`: the connected shop's row, when the call names one, is read within the deadline too.
      await answer(res, deps.logger, 'shopify', async () => {
        await refuseOtherShop(req, deps.shopifyShop, res.locals.deadlineAt);
        const request = parseBody(rawBody(req), ShopifyRateRequestSchema);
        return shopifyRates(request, deps.rates, res.locals.deadlineAt);
      });
    };
    // Signed, as registered before BFF_SHOPIFY_CALLBACK_SECRET: a signature is required here.
    router.post('/checkout/shopify/rates', startClock, signedBody(route), quote);
    router.all('/checkout/shopify/rates', methodNotAllowed('POST'));
    const callbackSecret = checkout.shopifyCallbackSecret;
    if (callbackSecret) {
      // Shopify's carrier-service page documents no signature on rate requests: on the secret URL an unsigned call
      // is taken; a signature, when sent, must still verify. Any other segment is an unknown route, body unread.
      const ours = secretSegment(callbackSecret);
      // Its own pool: only who knows the secret reaches it, so strangers filling the shared pool on the public URLs
      // with bogus signatures cannot make Shopify's checkout (which does not ask again) go without rates.
      const signedOrNot = signedBody({ ...route, pool: new UnverifiedBytes(), unsignedAccepted: true });
      router.post(
        '/checkout/shopify/rates/:secret',
        startClock,
        ours,
        signedOrNot,
        async (req, res, next) => {
          try {
            await quote(req, res, next);
          } catch (error) {
            throw hideSecretPath(error, deps.logger, 'Shopify');
          }
        },
      );
      router.all('/checkout/shopify/rates/:secret', ours, methodNotAllowed('POST'));
    }
  }

  const nuvemshopSecret = checkout.nuvemshopCallbackSecret;
  if (nuvemshopSecret) {
    // The secret is the URL's last segment: any other is an unknown route, and the body is never read.
    const ours = secretSegment(nuvemshopSecret);
    router.post('/checkout/nuvemshop/rates/:secret', startClock, ours, raw, async (req, res) => {
      try {
        const request = parseBody(rawBody(req), NuvemshopRateRequestSchema);
        const storeId = checkout.nuvemshop.storeId;
        if (storeId !== undefined && String(request.store_id) !== storeId)
          throw new ApiError('not_found', 'Not found.');
        await answer(res, deps.logger, 'nuvemshop', () =>
          nuvemshopRates(request, deps, res.locals.deadlineAt),
        );
      } catch (error) {
        if (isNotQuotable(error) || (isApiError(error) && error.code === 'invalid_body')) {
          // Nuvemshop keeps a 422 a minute, and shows no option of this carrier meanwhile.
          res.status(422).json(new ApiError('invalid_body', error.message).toBody());
          return;
        }
        throw hideSecretPath(error, deps.logger, 'Nuvemshop');
      }
    });
    router.all('/checkout/nuvemshop/rates/:secret', ours, methodNotAllowed('POST'));
  }

  const json = express.json({ limit: MAX_BODY_BYTES, type: () => true });
  router.post(
    '/checkout/fulfillment-options',
    startClock,
    checkoutAuth(deps.config.checkoutTokens),
    jsonOnly,
  );
  router.post('/checkout/fulfillment-options', json, async (req, res) => {
    const parsed = FulfillmentOptionsRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      const tooMany = parsed.error.issues.some((i) => i.path[0] === 'items' && i.code === 'too_big');
      throw new ApiError(tooMany ? 'too_many_items' : 'invalid_body', describeIssues(parsed.error.issues));
    }
    const caller: QuoteCaller = res.locals.quoteCaller;
    await answer(res, deps.logger, 'agentic', () =>
      fulfillmentOptions(parsed.data, deps.rates, caller, res.locals.deadlineAt),
    );
  });
  router.all('/checkout/fulfillment-options', methodNotAllowed('POST'));
  return router;
}

/**
 * A signed rate request from another shop of the same app — the store the merchant left, whose carrier service still
 * calls when the revoke failed — is not ours to quote: when the request names its shop (Shopify's page on carrier
 * services documents no such header; its webhooks send `X-Shopify-Shop-Domain`, and we read it, or the events family's
 * `Shopify-Shop-Domain`, when present) and that shop is not the connected one, or none is connected, 404 `not_found`
 * (that shop's checkout shows its backup rates). A request that names no shop is judged by its signature alone.
 */
async function refuseOtherShop(
  req: Request,
  shopifyShop: CheckoutDeps['shopifyShop'],
  deadlineAt: number,
): Promise<void> {
  if (!shopifyShop) return;
  const named = Object.values(SHOPIFY_HEADER_FAMILIES)
    .map((family) => req.get(family.shop)?.trim().toLowerCase())
    .find(Boolean);
  if (named === undefined) return;
  // A database slower than the deadline, or failing: 503 then, as for a slow or failing platform (that shop's checkout
  // shows backup rates), never a 500.
  const read = shopifyShop().catch((error: unknown) => {
    throw new CheckoutUnavailable('platform', `the connected shop could not be read: ${messageOf(error)}`);
  });
  const ours = await beforeDeadline(read, deadlineAt, 'the connected shop was not read before the deadline');
  if (named !== ours?.trim().toLowerCase()) throw new ApiError('not_found', 'Not found.');
}

type Surface = 'shopify' | 'nuvemshop' | 'agentic';

/**
 * Sends a checkout's answer, or why there is none: a spent share is `429` to an agentic checkout (a server that
 * retries) and `503` to a hosted checkout (which then shows backup rates); the platform failing, refusing or being
 * slower than the deadline is `503`. All in the spec 7.1 envelope, without the platform's words.
 */
async function answer(res: Response, logger: Logger, surface: Surface, produce: () => Promise<object>) {
  let body: object;
  try {
    body = await produce();
  } catch (error) {
    if (!isCheckoutUnavailable(error)) throw error;
    unavailable(res, logger, surface, error);
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  res.json(body);
}

function unavailable(res: Response, logger: Logger, surface: Surface, error: CheckoutUnavailable): void {
  const fields = { surface, why: error.why };
  // A platform failure the merchant may have to act on; a spent share or a deadline is the storm the bounds expect.
  if (error.why === 'platform')
    logger.warn({ ...fields, error: error.message }, 'checkout: no price; answered 503');
  else logger.info(fields, 'checkout: no price in time; answered 503');
  if (error.why === 'share' && error.retryAfterSeconds !== undefined) {
    const limited = rateLimited(res, error.retryAfterSeconds, quoteShareMessage(error.retryAfterSeconds));
    if (surface === 'agentic') throw limited;
  }
  const message =
    error.why === 'deadline'
      ? 'The platform did not quote before the checkout deadline; show the store\u2019s backup rates.'
      : 'No price can be given now; show the store\u2019s backup rates and ask again shortly.';
  res.status(503).json(new ApiError('quote_failed', message).toBody());
}

/** The raw body `express.raw` read (empty when there was none). */
export function rawBody(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/**
 * The body as JSON (read by `read`: `parseExactJson` keeps a store's big ids) checked with `schema`: `invalid_json` or
 * `invalid_body` (paths, never values) otherwise.
 */
export function parseBody<T>(
  body: Buffer,
  schema: z.ZodMiniType<T>,
  read: (text: string) => unknown = JSON.parse,
): T {
  let json: unknown;
  try {
    json = read(body.toString('utf8'));
  } catch {
    throw new ApiError('invalid_json');
  }
  return parseInput(schema, json);
}

/**
 * The callback URL's last segment checked against its secret, in time that does not depend on how much of it matched
 * (`sameSecret` hashes both first): any other segment is `404`, as an unknown route.
 */
function secretSegment(secret: string): RequestHandler {
  return (req, _res, next) => {
    if (!sameSecret(secret, String(req.params.secret))) throw new ApiError('not_found', 'Not found.');
    next();
  };
}

/**
 * An unexpected error on a secret-URL callback, logged here without the request's path (its last segment is the
 * callback secret): the error handler, which logs the path, sees only a generic 500.
 */
function hideSecretPath(error: unknown, logger: Logger, platform: string): unknown {
  if (isApiError(error)) return error;
  logger.error({ error: messageOf(error) }, `checkout: unexpected error on the ${platform} callback`);
  return new ApiError('internal_error');
}
