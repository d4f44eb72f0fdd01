import { type Response, Router } from 'express';
import * as z from 'zod/mini';
import {
  NUVEMSHOP_ORDER_EVENTS,
  NuvemshopOrderSchema,
  NuvemshopWebhookSchema,
} from '../../shared/checkouts/nuvemshop.ts';
import {
  NUVEMSHOP_LGPD_EVENTS,
  NuvemshopPrivacyPayloadSchema,
  nuvemshopPrivacyRequest,
  SHOPIFY_COMPLIANCE_TOPICS,
  ShopifyPrivacyPayloadSchema,
  shopifyPrivacyRequest,
} from '../../shared/checkouts/privacy.ts';
import {
  SHOPIFY_HEADER_FAMILIES,
  SHOPIFY_ORDER_TOPICS,
  SHOPIFY_RELEASE_TOPICS,
  ShopifyOrderSchema,
} from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { parseExactJson } from '../../shared/exact-json.ts';
import { describeIssues } from '../../shared/issues.ts';
import { StoreOrderSchema } from '../../shared/orders/order.ts';
import { parseBody, rawBody } from '../checkout/checkout.ts';
import type { BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { NuvemshopApi } from '../nuvemshop/api-client.ts';
import { withinBounds } from '../orders/order-bounds.ts';
import { labelledContent } from '../orders/order-changes.ts';
import type { OrderStore, Received } from '../orders/order-store.ts';
import { type DraftOrder, type ReviewDeps, reviewed } from '../orders/review.ts';
import type { Privacy, PrivacyOutcome } from '../privacy/privacy.ts';
import type { StoreConnections } from './connections.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';
import { BODY_CAPS, shopifyDeliveryOf, signedBody, UnverifiedBytes } from './signed-body.ts';
import { isStoreRefused } from './store-api.ts';
import type { FulfillmentStore } from './tracking-back.ts';

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
  /** The bytes of bodies not verified yet, shared with the carrier callback (signed-body.ts). */
  unverified?: UnverifiedBytes;
  /** Where the compliance and LGPD requests go (bff/privacy/). */
  privacy?: Pick<Privacy, 'handle'>;
  /** Installed stores: their tokens (the order read), and `app/uninstalled` (bff/stores/connections.ts). */
  connections?: Pick<StoreConnections, 'access' | 'disconnect' | 'shopOf'> | undefined;
}

/** What the BFF answers a platform: 200 with what it did (the platform only reads the status). */
type Outcome =
  | Received
  | PrivacyOutcome
  | 'ignored'
  | 'not_paid'
  | 'nothing_to_ship'
  | 'uninstalled'
  | 'released';

/** Payment states of an order that was paid and still ships (Shopify: a partial refund leaves lines to ship). */
const PAID = new Set(['paid', 'partially_refunded']);
/** Payment states of an order that had been paid before it was called off. */
const WAS_PAID = new Set(['paid', 'partially_refunded', 'refunded']);

/**
 * Every body a store platform sends, read with the exact reader (ids above 2^53 kept as digits: Shopify's test orders,
 * and the order ids of its compliance requests): `invalid_json`, or `invalid_body` naming paths.
 */
function parseExactBody<T>(body: Buffer, schema: z.ZodMiniType<T>): T {
  return parseBody(body, schema, parseExactJson);
}

/**
 * The stores' order webhooks (docs/orders.md): `POST /stores/shopify/webhooks` and `POST /stores/nuvemshop/webhooks`.
 * The body's signature is checked before anything else (signed-body.ts: both Shopify header families, bounded
 * reads): a bad or missing one is `401` and nothing is read, stored or fetched. A Shopify webhook names its shop, and
 * only the connected shop's are taken. A platform's route exists only when its secret is configured. Everything else
 * a platform sends (another topic, an unpaid order, an order of another shop) is answered 200 and kept out, so the
 * platform does not retry it; a body the kit cannot read is `422`, and a Nuvemshop API that cannot be read now is
 * `503` (Nuvemshop sends the webhook again).
 */
export function storeWebhookRoutes(deps: StoreWebhookDeps): Router {
  const router = Router();
  const { checkout } = deps.config;
  const pool = deps.unverified ?? new UnverifiedBytes();
  const signedWebhook = (platform: 'shopify' | 'nuvemshop', secret: string) =>
    signedBody({ platform, secret, cap: BODY_CAPS[`${platform}Webhook`], pool });

  const shopifySecret = checkout.shopifySecret;
  if (shopifySecret) {
    const signed = signedWebhook('shopify', shopifySecret);
    router.post('/stores/shopify/webhooks', signed, async (req, res) => {
      const body = rawBody(req);
      const { family, topic, shop: from, deliveryId: webhookId } = shopifyDeliveryOf(req);
      const names = SHOPIFY_HEADER_FAMILIES[family];
      // docs/security.md, "Signed bodies": a webhook names its shop, and only the connected shop's are taken.
      if (!from)
        throw new ApiError('invalid_body', `Send ${names.shop} (Shopify names the shop of every delivery).`);
      // Compliance topics also come for a shop no longer connected (shop/redact, 48 h after the uninstall).
      const compliance = SHOPIFY_COMPLIANCE_TOPICS.find((known) => known === topic);
      if (compliance) {
        const payload = parseExactBody(body, ShopifyPrivacyPayloadSchema);
        if (!deps.privacy || payload.shop_domain.trim().toLowerCase() !== from)
          return void done(res, 'ignored');
        const request = shopifyPrivacyRequest(compliance, from, payload);
        return void done(res, await deps.privacy.handle(request, webhookId && `shopify:${webhookId}`));
      }
      if (topic === 'app/uninstalled')
        return void done(
          res,
          await uninstalled(
            deps,
            'shopify',
            signedShopOf(body, from),
            Date.parse(req.get('x-shopify-triggered-at') ?? req.get('shopify-triggered-at') ?? ''),
          ),
        );
      // The shop is the configured one (BFF_SHOPIFY_SHOP), else the installed one (bff/stores/connections.ts).
      // Not `access()`: a token expired and not renewed yet would make the connected shop's paid order "ignored".
      const shop = checkout.shopify.shop ?? (await deps.connections?.shopOf('shopify'));
      if (!shop || from !== shop) return void done(res, 'ignored');
      if (SHOPIFY_RELEASE_TOPICS.some((known) => known === topic))
        return void done(res, await released(deps));
      if (!SHOPIFY_ORDER_TOPICS.some((known) => known === topic)) return void done(res, 'ignored');
      if (!webhookId)
        throw new ApiError(
          'invalid_body',
          `Send ${names.deliveryIds[0]} (Shopify sends one with every delivery).`,
        );
      const order = parseExactBody(body, ShopifyOrderSchema);
      const draft = shopifyDraft(order);
      if (topic === 'orders/cancelled' && !draft.cancelled)
        draft.cancelled = { at: order.cancelled_at ?? order.updated_at ?? '', reason: 'cancelled' };
      const received = await lifecycle(deps, draft, order.financial_status, {
        store: shop,
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
    const signed = signedWebhook('nuvemshop', appSecret);
    router.post('/stores/nuvemshop/webhooks', signed, async (req, res) => {
      const body = rawBody(req);
      const event = parseExactBody(body, NuvemshopWebhookSchema);
      if (event.event === 'app/uninstalled')
        return void done(res, await uninstalled(deps, 'nuvemshop', String(event.store_id)));
      const shop = nuvemshop.storeId ?? (await deps.connections?.shopOf('nuvemshop'));
      if (String(event.store_id) !== shop || !NUVEMSHOP_ORDER_EVENTS.some((known) => known === event.event))
        return void done(res, 'ignored');
      // Our store's order: a token that cannot be used now is a 503 (Nuvemshop sends it again), never "ignored".
      const access = (await deps.connections?.access('nuvemshop').catch(() => undefined)) ?? {
        shop,
        token: nuvemshop.token ?? '',
      };
      if (!access.token)
        throw new ApiError(
          'store_unavailable',
          'The Nuvemshop token cannot be used now; send the webhook again.',
        );
      const api = new NuvemshopApi({
        apiUrl: nuvemshop.apiUrl,
        storeId: access.shop ?? '',
        token: access.token,
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
        store: shop,
        ...(order.data.updated_at ? { version: order.data.updated_at } : {}),
      });
      done(res, received);
    });
    router.all('/stores/nuvemshop/webhooks', methodNotAllowed('POST'));
    // LGPD: each event on its own URL, as the app's panel sets them (TiendaNube/api-docs resources/authentication.md).
    for (const event of NUVEMSHOP_LGPD_EVENTS) {
      router.post(`/stores/nuvemshop/webhooks/${event}`, signed, async (req, res) => {
        const payload = parseExactBody(rawBody(req), NuvemshopPrivacyPayloadSchema);
        if (!deps.privacy) return void done(res, 'ignored');
        done(res, await deps.privacy.handle(nuvemshopPrivacyRequest(event, payload)));
      });
      router.all(`/stores/nuvemshop/webhooks/${event}`, methodNotAllowed('POST'));
    }
  }
  return router;
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
  options: { deliveryId?: string; version?: string; store: string },
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
  options: { deliveryId?: string; version?: string; store: string },
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

/**
 * The shop an `app/uninstalled` is about: the signed body's `myshopify_domain` (the Shop resource), which must be the
 * header's too — the header alone is not signed.
 */
function signedShopOf(body: Buffer, header: string | undefined): string | undefined {
  const shop = parseExactBody(body, ShopResourceSchema).myshopify_domain?.toLowerCase();
  return shop && shop === header ? shop : undefined;
}

const ShopResourceSchema = z.looseObject({
  myshopify_domain: z.optional(z.string().check(z.maxLength(255))),
});

/** `app/uninstalled`: the store's tokens deleted, nothing more sent to it (bff/stores/connections.ts). */
async function uninstalled(
  deps: StoreWebhookDeps,
  platform: 'shopify' | 'nuvemshop',
  shop: string | undefined,
  triggeredAt = Number.NaN,
): Promise<Outcome> {
  if (!shop || !deps.connections) return 'ignored';
  // Shopify's X-Shopify-Triggered-At: a retry of an uninstall older than the current install leaves it connected.
  const happenedAt = Number.isFinite(triggeredAt) ? triggeredAt : undefined;
  return (await deps.connections.disconnect(platform, shop, 'app/uninstalled', happenedAt))
    ? 'uninstalled'
    : 'ignored';
}
