import express, { type Request, type Response, Router } from 'express';
import * as z from 'zod/mini';
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
  SHOPIFY_SHOP_HEADER,
  SHOPIFY_TOPIC_HEADER,
  SHOPIFY_WEBHOOK_ID_HEADER,
  ShopifyOrderSchema,
  shopifyHmac,
} from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { describeIssues } from '../../shared/issues.ts';
import { StoreOrderSchema } from '../../shared/orders/order.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { parseBody, rawBody } from '../checkout/checkout.ts';
import type { BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import type { OrderStore, Received } from '../orders/order-store.ts';
import { type DraftOrder, type ReviewDeps, reviewed } from '../orders/review.ts';
import type { StoreConnections } from './connections.ts';
import { NuvemshopApi } from './nuvemshop-api.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';
import { isStoreRefused } from './store-api.ts';

/** An order webhook carries the whole order (Shopify: every line, with properties): bounded, read whole first. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export interface StoreWebhookDeps extends ReviewDeps {
  config: Pick<BffConfig, 'checkout'>;
  orders: Pick<OrderStore, 'receive'>;
  logger: Logger;
  fetch?: typeof fetch | undefined;
  /** Installed stores: their tokens (the order read), and `app/uninstalled` (bff/stores/connections.ts). */
  connections?: Pick<StoreConnections, 'access' | 'disconnect'> | undefined;
}

/** What the BFF answers a platform: 200 with what it did (the platform only reads the status). */
type Outcome = Received | 'ignored' | 'not_paid' | 'nothing_to_ship' | 'uninstalled';

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
      if (topic === 'app/uninstalled')
        return void done(
          res,
          await uninstalled(
            deps,
            'shopify',
            signedShopOf(body, from),
            Date.parse(req.get('x-shopify-triggered-at') ?? ''),
          ),
        );
      if ((shop && from && from !== shop) || !SHOPIFY_ORDER_TOPICS.some((known) => known === topic))
        return void done(res, 'ignored');
      const webhookId = req.get(SHOPIFY_WEBHOOK_ID_HEADER)?.trim();
      if (!webhookId)
        throw new ApiError(
          'invalid_body',
          `Send ${SHOPIFY_WEBHOOK_ID_HEADER} (Shopify sends one with every delivery).`,
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
    router.post('/stores/nuvemshop/webhooks', raw, async (req, res) => {
      const body = rawBody(req);
      verify(req, NUVEMSHOP_HMAC_HEADER, nuvemshopHmac(appSecret, body), 'Nuvemshop');
      const event = parseBody(body, NuvemshopWebhookSchema);
      if (event.event === 'app/uninstalled')
        return void done(res, await uninstalled(deps, 'nuvemshop', String(event.store_id)));
      const access = (await deps.connections?.access('nuvemshop').catch(() => undefined)) ?? {
        shop: nuvemshop.storeId,
        token: nuvemshop.token ?? '',
      };
      if (
        String(event.store_id) !== access.shop ||
        !NUVEMSHOP_ORDER_EVENTS.some((known) => known === event.event)
      )
        return void done(res, 'ignored');
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
      if (order.data.payment_status !== 'paid') return void done(res, 'not_paid');
      const received = await take(deps, nuvemshopDraft(order.data), {
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
 * The shop an `app/uninstalled` is about: the signed body's `myshopify_domain` (the Shop resource), which must be the
 * header's too — the header alone is not signed.
 */
function signedShopOf(body: Buffer, header: string | undefined): string | undefined {
  const shop = parseBody(body, ShopResourceSchema).myshopify_domain?.toLowerCase();
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
