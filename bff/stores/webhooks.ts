import { type Response, Router } from 'express';
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
  ShopifyOrderSchema,
} from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { describeIssues } from '../../shared/issues.ts';
import { StoreOrderSchema } from '../../shared/orders/order.ts';
import { parseBody, rawBody } from '../checkout/checkout.ts';
import type { BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import type { OrderStore, Received } from '../orders/order-store.ts';
import { type DraftOrder, type ReviewDeps, reviewed } from '../orders/review.ts';
import type { Privacy, PrivacyOutcome } from '../privacy/privacy.ts';
import { NuvemshopApi } from './nuvemshop-api.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';
import { BODY_CAPS, shopifyDeliveryOf, signedBody, UnverifiedBytes } from './signed-body.ts';
import { isStoreRefused } from './store-api.ts';

export interface StoreWebhookDeps extends ReviewDeps {
  config: Pick<BffConfig, 'checkout'>;
  orders: Pick<OrderStore, 'receive'>;
  logger: Logger;
  fetch?: typeof fetch | undefined;
  /** The bytes of bodies not verified yet, shared with the carrier callback (signed-body.ts). */
  unverified?: UnverifiedBytes;
  /** Where the compliance and LGPD requests go (bff/privacy/). */
  privacy?: Pick<Privacy, 'handle'>;
}

/** What the BFF answers a platform: 200 with what it did (the platform only reads the status). */
type Outcome = Received | PrivacyOutcome | 'ignored' | 'not_paid' | 'nothing_to_ship';

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

  const shopifySecret = checkout.shopifySecret;
  if (shopifySecret) {
    const signed = signedBody({
      platform: 'shopify',
      secret: shopifySecret,
      cap: BODY_CAPS.shopifyWebhook,
      pool,
    });
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
        const payload = parseBody(body, ShopifyPrivacyPayloadSchema);
        if (!deps.privacy || payload.shop_domain.trim().toLowerCase() !== from)
          return void done(res, 'ignored');
        const request = shopifyPrivacyRequest(compliance, from, payload);
        return void done(res, await deps.privacy.handle(request, webhookId && `shopify:${webhookId}`));
      }
      if (from !== checkout.shopify.shop || !SHOPIFY_ORDER_TOPICS.some((known) => known === topic))
        return void done(res, 'ignored');
      if (!webhookId)
        throw new ApiError(
          'invalid_body',
          `Send ${names.deliveryIds[0]} (Shopify sends one with every delivery).`,
        );
      const order = parseBody(body, ShopifyOrderSchema);
      if (order.financial_status !== 'paid') return void done(res, 'not_paid');
      const received = await take(deps, shopifyDraft(order), {
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
    const signed = signedBody({
      platform: 'nuvemshop',
      secret: appSecret,
      cap: BODY_CAPS.nuvemshopWebhook,
      pool,
    });
    router.post('/stores/nuvemshop/webhooks', signed, async (req, res) => {
      const body = rawBody(req);
      const event = parseBody(body, NuvemshopWebhookSchema);
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
      if (order.data.payment_status !== 'paid') return void done(res, 'not_paid');
      const received = await take(deps, nuvemshopDraft(order.data), {
        ...(order.data.updated_at ? { version: order.data.updated_at } : {}),
      });
      done(res, received);
    });
    router.all('/stores/nuvemshop/webhooks', methodNotAllowed('POST'));
    // LGPD: each event on its own URL, as the app's panel sets them (TiendaNube/api-docs resources/authentication.md).
    for (const event of NUVEMSHOP_LGPD_EVENTS) {
      router.post(`/stores/nuvemshop/webhooks/${event}`, signed, async (req, res) => {
        const payload = parseBody(rawBody(req), NuvemshopPrivacyPayloadSchema);
        if (!deps.privacy) return void done(res, 'ignored');
        done(res, await deps.privacy.handle(nuvemshopPrivacyRequest(event, payload)));
      });
      router.all(`/stores/nuvemshop/webhooks/${event}`, methodNotAllowed('POST'));
    }
  }
  return router;
}

/** The draft reviewed (CEP, service, weights) and kept, or why not. */
async function take(
  deps: StoreWebhookDeps,
  draft: DraftOrder,
  options: { deliveryId?: string; version?: string },
): Promise<Outcome> {
  if (draft.items.length === 0) return 'nothing_to_ship';
  const order = StoreOrderSchema.safeParse(await reviewed(draft, deps));
  if (!order.success) throw new ApiError('invalid_body', `the order: ${describeIssues(order.error.issues)}`);
  const received = await deps.orders.receive(order.data, options);
  const fields = { order: draft.orderId, source: draft.source, received };
  if (received === 'conflict')
    deps.logger.warn(fields, 'orders: another order already has this orderId; kept out');
  else deps.logger.info(fields, `orders: ${draft.source} order ${received}`);
  return received;
}

function done(res: Response, received: Outcome): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(200).json({ received });
}
