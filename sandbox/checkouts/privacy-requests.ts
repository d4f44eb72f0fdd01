import { randomUUID } from 'node:crypto';
import express, { type Router } from 'express';
import * as z from 'zod/mini';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { NUVEMSHOP_LGPD_EVENTS, SHOPIFY_COMPLIANCE_TOPICS } from '../../shared/checkouts/privacy.ts';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';
import { SANDBOX_NUVEMSHOP_APP_SECRET } from './accounts.ts';
import type { EmulatedOrder } from './emulated-order.ts';
import { SHOPIFY_WEBHOOK_FAMILIES, shopifyWebhookHeaders } from './shopify-headers.ts';
import { type CheckoutPlatforms, callableUrl } from './state.ts';

/** The privacy request a test or the demo asks the emulated platform to send (sandbox/README.md, "Store orders (Shopify, Nuvemshop)"). */
export const PrivacySendSchema = /* @__PURE__ */ z.strictObject({
  topic: z.enum([...new Set([...SHOPIFY_COMPLIANCE_TOPICS, ...NUVEMSHOP_LGPD_EVENTS])]),
  /** The app's compliance URL (Shopify's app configuration) or LGPD URL (Nuvemshop's app panel). */
  url: z.string().check(z.maxLength(2000)),
  /** The emulated orders the request names (their platform ids); the customer defaults to the first one's. */
  orders: z.optional(z.array(z.int()).check(z.maxLength(1000))),
  customer: z.optional(
    z.strictObject({
      id: z.optional(z.int()),
      email: z.optional(z.string().check(z.maxLength(200))),
      phone: z.optional(z.string().check(z.maxLength(40))),
      identification: z.optional(z.string().check(z.maxLength(20))),
    }),
  ),
});
export type PrivacySend = z.infer<typeof PrivacySendSchema>;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The customer an order names, as the platform would put it in a request. */
function customerOf(order: EmulatedOrder | undefined): NonNullable<PrivacySend['customer']> {
  const body = order?.body ?? {};
  const customer = (body.customer ?? {}) as Record<string, unknown>;
  return {
    ...(typeof customer.id === 'number' ? { id: customer.id } : {}),
    ...(text(body.email ?? body.contact_email) ? { email: text(body.email ?? body.contact_email) } : {}),
    ...(text(body.phone ?? body.contact_phone) ? { phone: text(body.phone ?? body.contact_phone) } : {}),
    ...(text(body.contact_identification) ? { identification: text(body.contact_identification) } : {}),
  };
}

/**
 * The payload each platform sends, in its published shape: Shopify's
 * (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance) and Nuvemshop's (TiendaNube/api-docs
 * resources/webhook.md, "Required Webhooks").
 */
function payloadOf(
  platform: 'shopify' | 'nuvemshop',
  store: string,
  send: PrivacySend,
  customer: object,
  sequence: number,
): object {
  const orders = send.orders ?? [];
  const requestId = 9000 + sequence;
  if (platform === 'shopify') {
    const shop = { shop_id: 954889, shop_domain: store };
    if (send.topic === 'shop/redact') return shop;
    if (send.topic === 'customers/redact') return { ...shop, customer, orders_to_redact: orders };
    return { ...shop, orders_requested: orders, customer, data_request: { id: requestId } };
  }
  const storeId = { store_id: Number(store) };
  if (send.topic === 'store/redact') return storeId;
  if (send.topic === 'customers/redact') return { ...storeId, customer, orders_to_redact: orders };
  return {
    ...storeId,
    customer,
    orders_requested: orders,
    checkouts_requested: [],
    drafts_orders_requested: [],
    data_request: { id: requestId },
  };
}

/**
 * `POST /_sandbox/stores/shopify/headers {"family"}` (the header families Shopify's webhooks are signed in) and
 * `POST /_sandbox/stores/<platform>/<store>/privacy {topic, url, orders?, customer?}`: the platform sends a privacy
 * request to the app's URL, signed as its webhooks are; answers what the URL said. Loopback only.
 */
export function privacyRequestRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  const json = express.json({ limit: 100_000, type: () => true });
  const orders = platforms.orders;
  router.use('/_sandbox/stores', loopbackOnly);
  router.post('/_sandbox/stores/shopify/headers', json, (req, res) => {
    const { family } = parseInput(z.strictObject({ family: z.enum(SHOPIFY_WEBHOOK_FAMILIES) }), req.body);
    orders.shopifyFamily = family;
    res.json({ family: orders.shopifyFamily });
  });
  router.post('/_sandbox/stores/:platform/:store/privacy', json, async (req, res) => {
    const platform = req.params.platform;
    const store = String(req.params.store);
    if (platform !== 'shopify' && platform !== 'nuvemshop') throw new ApiError('not_found');
    const known = platform === 'shopify' ? platforms.shops.has(store) : platforms.stores.has(store);
    if (!known) throw new ApiError('not_found', `The sandbox has no ${platform} store ${store}.`);
    const send = parseInput(PrivacySendSchema, req.body);
    const topics: readonly string[] =
      platform === 'shopify' ? SHOPIFY_COMPLIANCE_TOPICS : NUVEMSHOP_LGPD_EVENTS;
    if (!topics.includes(send.topic))
      throw new ApiError('invalid_body', `topic: ${platform} sends ${topics.join(', ')}`);
    if (!callableUrl(send.url)) throw new ApiError('invalid_body', 'url: an https URL, or http on loopback');
    const first = orders.orders.get(orders.key(platform, store, String(send.orders?.[0] ?? '')));
    const customer = send.customer ?? customerOf(first);
    const body = JSON.stringify(payloadOf(platform, store, send, customer, orders.sent.length + 1));
    const id = randomUUID();
    const headers =
      platform === 'shopify'
        ? shopifyWebhookHeaders(orders.shopifyFamily, {
            topic: send.topic,
            shop: store,
            body,
            webhookId: id,
            now: platforms.now(),
          })
        : {
            'content-type': 'application/json',
            'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
          };
    const sent = await orders.deliver({
      id,
      platform,
      store,
      url: send.url,
      topic: send.topic,
      body,
      headers,
    });
    res.json({
      sent: { id: sent.id, url: sent.url, topic: sent.topic, status: sent.status, body: JSON.parse(body) },
    });
  });
  return router;
}
