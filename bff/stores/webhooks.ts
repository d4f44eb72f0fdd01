import express, { type Request, type Response, Router } from 'express';
import type * as z from 'zod/mini';
import {
  NUVEMSHOP_HMAC_HEADER,
  NUVEMSHOP_ORDER_EVENTS,
  NuvemshopOrderSchema,
  NuvemshopWebhookSchema,
  nuvemshopHmac,
} from '../../shared/checkouts/nuvemshop.ts';
import {
  SHOPIFY_HMAC_HEADER,
  SHOPIFY_ORDER_TOPICS,
  SHOPIFY_RELEASE_TOPICS,
  SHOPIFY_SHOP_HEADER,
  SHOPIFY_TOPIC_HEADER,
  SHOPIFY_WEBHOOK_ID_HEADER,
  ShopifyOrderSchema,
  shopifyHmac,
} from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { parseExactJson } from '../../shared/exact-json.ts';
import { describeIssues } from '../../shared/issues.ts';
import { StoreOrderSchema } from '../../shared/orders/order.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { rawBody } from '../checkout/checkout.ts';
import type { BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { withinBounds } from '../orders/order-bounds.ts';
import { labelledContent } from '../orders/order-changes.ts';
import type { OrderStore, Received } from '../orders/order-store.ts';
import { type DraftOrder, type ReviewDeps, reviewed } from '../orders/review.ts';
import { NuvemshopApi } from './nuvemshop-api.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';
import { isStoreRefused } from './store-api.ts';
import type { FulfillmentStore } from './tracking-back.ts';

/** An order webhook carries the whole order (Shopify: every line, with properties): bounded, read whole first. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export interface StoreWebhookDeps extends ReviewDeps {
  config: Pick<BffConfig, 'checkout'>;
  orders: Pick<OrderStore, 'receive' | 'get'>;
  /** The tracking going back: withdrawn when the order is cancelled; woken when a held fulfillment order is released. */
  fulfillments?: Pick<FulfillmentStore, 'withdraw' | 'wake'>;
  /** Sends what is due now (the tracking-back's drain), after a release. */
  drain?: () => Promise<unknown>;
  logger: Logger;
  now?: () => number;
  fetch?: typeof fetch | undefined;
}

/** What the BFF answers a platform: 200 with what it did (the platform only reads the status). */
type Outcome = Received | 'ignored' | 'not_paid' | 'nothing_to_ship' | 'released';

/** Payment states of an order that was paid and still ships (Shopify: a partial refund leaves lines to ship). */
const PAID = new Set(['paid', 'partially_refunded']);
/** Payment states of an order that had been paid before it was called off. */
const WAS_PAID = new Set(['paid', 'partially_refunded', 'refunded']);

/** The body read with the exact reader (ids above 2^53 kept as digits): `invalid_json`, or `invalid_body` naming paths. */
function parseOrderBody<T>(body: Buffer, schema: z.ZodMiniType<T>): T {
  let json: unknown;
  try {
    json = parseExactJson(body.toString('utf8'));
  } catch {
    throw new ApiError('invalid_json');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError('invalid_body', describeIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * The stores' order webhooks (docs/orders.md): `POST /stores/shopify/webhooks` and `POST /stores/nuvemshop/webhooks`.
 * The raw body is read whole and its signature checked before anything else: a bad or missing one is `401` and
 * nothing is read, stored or fetched. A platform's route exists only when its secret is configured. Everything else
 * a platform sends (another topic, an unpaid order, an order of another shop) is answered 200 and kept out, so the
 * platform does not retry it; a body the kit cannot read is `422`, and a Nuvemshop API that cannot be read now is
 * `503` (Nuvemshop sends the webhook again).
 */
export function storeWebhookRoutes(deps: StoreWebhookDeps): Router {
  const router = Router();
  const raw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });
  const { checkout } = deps.config;

  const shopifySecret = checkout.shopifySecret;
  if (shopifySecret) {
    router.post('/stores/shopify/webhooks', raw, async (req, res) => {
      const body = rawBody(req);
      verify(req, SHOPIFY_HMAC_HEADER, shopifyHmac(shopifySecret, body), 'Shopify');
      const shop = checkout.shopify.shop;
      const from = req.get(SHOPIFY_SHOP_HEADER)?.trim().toLowerCase();
      const topic = req.get(SHOPIFY_TOPIC_HEADER)?.trim();
      if (shop && from && from !== shop) return void done(res, 'ignored');
      if (SHOPIFY_RELEASE_TOPICS.some((known) => known === topic))
        return void done(res, await released(deps));
      if (!SHOPIFY_ORDER_TOPICS.some((known) => known === topic)) return void done(res, 'ignored');
      const webhookId = req.get(SHOPIFY_WEBHOOK_ID_HEADER)?.trim();
      if (!webhookId)
        throw new ApiError(
          'invalid_body',
          `Send ${SHOPIFY_WEBHOOK_ID_HEADER} (Shopify sends one with every delivery).`,
        );
      const order = parseOrderBody(body, ShopifyOrderSchema);
      const draft = shopifyDraft(order);
      if (topic === 'orders/cancelled' && !draft.cancelled)
        draft.cancelled = { at: order.cancelled_at ?? order.updated_at ?? '', reason: 'cancelled' };
      const received = await lifecycle(deps, draft, order.financial_status, {
        deliveryId: `shopify:${webhookId}`,
        ...(order.updated_at ? { version: order.updated_at } : {}),
      });
      done(res, received);
    });
    router.all('/stores/shopify/webhooks', methodNotAllowed('POST'));
  }

  const nuvemshop = checkout.nuvemshop;
  const appSecret = nuvemshop.appSecret;
  if (appSecret) {
    router.post('/stores/nuvemshop/webhooks', raw, async (req, res) => {
      const body = rawBody(req);
      verify(req, NUVEMSHOP_HMAC_HEADER, nuvemshopHmac(appSecret, body), 'Nuvemshop');
      const event = parseOrderBody(body, NuvemshopWebhookSchema);
      if (
        String(event.store_id) !== nuvemshop.storeId ||
        !NUVEMSHOP_ORDER_EVENTS.some((known) => known === event.event)
      )
        return void done(res, 'ignored');
      const api = new NuvemshopApi({
        apiUrl: nuvemshop.apiUrl,
        storeId: nuvemshop.storeId ?? '',
        token: nuvemshop.token ?? '',
        fetch: deps.fetch,
      });
      let read: unknown;
      try {
        read = await api.call('GET', `/orders/${encodeURIComponent(String(event.id))}`, 'read_orders');
      } catch (error) {
        if (!isStoreRefused(error)) throw error;
        deps.logger.warn(
          { error: error.message, order: String(event.id) },
          'orders: Nuvemshop order not read',
        );
        throw new ApiError(
          'store_unavailable',
          'The order could not be read from Nuvemshop now; send the webhook again.',
        );
      }
      const order = NuvemshopOrderSchema.safeParse(read);
      if (!order.success)
        throw new ApiError(
          'invalid_body',
          `the order Nuvemshop answered: ${describeIssues(order.error.issues)}`,
        );
      const received = await lifecycle(deps, nuvemshopDraft(order.data), order.data.payment_status, {
        ...(order.data.updated_at ? { version: order.data.updated_at } : {}),
      });
      done(res, received);
    });
    router.all('/stores/nuvemshop/webhooks', methodNotAllowed('POST'));
  }
  return router;
}

/** spec 7.1's 401 codes: no signature at all, or one that is not of this body with the app's secret. */
function verify(req: Request, header: string, expected: string, platform: string): void {
  const presented = req.get(header)?.trim();
  if (!presented) throw new ApiError('missing_api_key', `Send ${header} (${platform} signs every webhook).`);
  if (!sameSecret(expected, presented))
    throw new ApiError('invalid_api_key', `The ${header} signature does not match the body.`);
}

/**
 * Where a store's order event leads (docs/orders.md, "An order's life"): a paid order (or a change to one) is taken; a
 * cancelled, refunded or voided one is taken as cancelled when the kit has it or it had been paid (so a late `paid`
 * cannot revive it) and its tracking back withdrawn; an order never paid is kept out.
 */
async function lifecycle(
  deps: StoreWebhookDeps,
  draft: DraftOrder,
  paymentStatus: string | null | undefined,
  options: { deliveryId?: string; version?: string },
): Promise<Outcome> {
  const status = paymentStatus ?? '';
  if (draft.cancelled) {
    if (!WAS_PAID.has(status) && !(await deps.orders.get(draft.orderId))) return 'not_paid';
  } else if (!PAID.has(status)) return 'not_paid';
  const received = await take(deps, draft, options);
  if (received === 'cancelled')
    await deps.fulfillments?.withdraw(
      draft.orderId,
      'the store cancelled the order',
      (deps.now ?? Date.now)(),
    );
  return received;
}

/**
 * The draft fitted to what a label takes (a paid order is never refused for its content: what does not fit is flagged
 * and logged), reviewed (CEP, service, weights) and kept, or why not.
 */
async function take(
  deps: StoreWebhookDeps,
  draft: DraftOrder,
  options: { deliveryId?: string; version?: string },
): Promise<Outcome> {
  if (draft.items.length === 0) return 'nothing_to_ship';
  const fitted = withinBounds(draft);
  const order = StoreOrderSchema.safeParse(await reviewed(fitted, deps));
  if (!order.success) throw new ApiError('invalid_body', `the order: ${describeIssues(order.error.issues)}`);
  const received = await deps.orders.receive(order.data, { ...options, sent: labelledContent(fitted) });
  const fields = { order: order.data.orderId, source: draft.source, received };
  const outside = order.data.needsReview.filter(
    (r) => r.reason === 'out_of_bounds' || r.reason === 'malformed',
  );
  if (outside.length > 0)
    deps.logger.warn(
      { ...fields, fields: outside.map((r) => `${r.field}: ${r.detail ?? r.reason}`) },
      'orders: a paid order the kit cannot label as sent; kept for review',
    );
  if (received === 'conflict')
    deps.logger.warn(fields, 'orders: another order already has this orderId; kept out');
  else deps.logger.info(fields, `orders: ${draft.source} order ${received}`);
  return received;
}

/** A held or scheduled fulfillment order was released: the tracking that waited for it is due now. */
async function released(deps: StoreWebhookDeps): Promise<Outcome> {
  const woken = (await deps.fulfillments?.wake('shopify', (deps.now ?? Date.now)())) ?? 0;
  if (woken > 0) void deps.drain?.().catch(() => undefined);
  return 'released';
}

function done(res: Response, received: Outcome): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(200).json({ received });
}
