import { createHmac } from 'node:crypto';
import * as z from 'zod/mini';

/**
 * Shopify's carrier-calculated shipping, as Shopify publishes it (docs/checkout/shopify.md cites the pages): the
 * request a CarrierService's callback receives and the answer Shopify reads. Both the BFF's adapter
 * (bff/shopify/rate-callback.ts) and the sandbox's emulated checkout (sandbox/checkouts/) take them from here. Requests
 * are loose (Shopify adds fields over time); answers are what we promise, strict.
 */

/** One line of the cart: `grams` and `price` (centavos) are integers; `requires_shipping: false` is not shipped. */
export const ShopifyRateItemSchema = /* @__PURE__ */ z.looseObject({
  name: z.optional(z.nullable(z.string())),
  sku: z.optional(z.nullable(z.string())),
  quantity: z.int().check(z.gte(1), z.lte(1_000_000)),
  grams: z.int().check(z.gte(0), z.lte(100_000_000)),
  price: z.int().check(z.gte(0), z.lte(10_000_000_000)),
  requires_shipping: z.optional(z.nullable(z.boolean())),
});

/** An address as Shopify sends it (every field may be null). */
export const ShopifyAddressSchema = /* @__PURE__ */ z.looseObject({
  country: z.optional(z.nullable(z.string())),
  postal_code: z.optional(z.nullable(z.string())),
  province: z.optional(z.nullable(z.string())),
  city: z.optional(z.nullable(z.string())),
});

/** The body Shopify POSTs to the callback: `{"rate": {origin, destination, items, currency, locale}}`. */
export const ShopifyRateRequestSchema = /* @__PURE__ */ z.looseObject({
  rate: z.looseObject({
    origin: z.optional(z.nullable(ShopifyAddressSchema)),
    destination: ShopifyAddressSchema,
    items: z.array(ShopifyRateItemSchema).check(z.maxLength(1000)),
    currency: z.optional(z.nullable(z.string())),
    locale: z.optional(z.nullable(z.string())),
  }),
});
export type ShopifyRateRequest = z.infer<typeof ShopifyRateRequestSchema>;

/** One option at the checkout: `total_price` is a string of centavos; dates as "YYYY-MM-DD HH:MM:SS -0300". */
export const ShopifyRateSchema = /* @__PURE__ */ z.strictObject({
  service_name: z.string().check(z.minLength(1)),
  service_code: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  currency: z.string().check(z.length(3)),
  total_price: z.string().check(z.regex(/^\d+$/)),
  min_delivery_date: z.optional(z.string()),
  max_delivery_date: z.optional(z.string()),
});
export type ShopifyRate = z.infer<typeof ShopifyRateSchema>;

/** The callback's answer: `rates: []` means "this carrier does not serve this cart" (no backup rates). */
export const ShopifyRatesAnswerSchema = /* @__PURE__ */ z.strictObject({ rates: z.array(ShopifyRateSchema) });
export type ShopifyRatesAnswer = z.infer<typeof ShopifyRatesAnswerSchema>;

/** The header that carries the signature of the raw body. */
export const SHOPIFY_HMAC_HEADER = 'x-shopify-hmac-sha256';

/** Shopify's signature of a callback or webhook: base64(HMAC-SHA256(app client secret, raw body)). */
export function shopifyHmac(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** The Admin API version the kit speaks (supported for a year from its release: bump it with the docs). */
export const SHOPIFY_ADMIN_API_VERSION = '2026-10';

/** Webhooks (docs/orders.md): the topic, the delivery's id (the same on every retry of one delivery), the shop. */
export const SHOPIFY_TOPIC_HEADER = 'x-shopify-topic';
export const SHOPIFY_WEBHOOK_ID_HEADER = 'x-shopify-webhook-id';
export const SHOPIFY_SHOP_HEADER = 'x-shopify-shop-domain';

/**
 * The two header families Shopify signs with, as `shopify-app-js` reads them
 * (packages/apps/shopify-api/lib/webhooks/header-names.ts, `WEBHOOK_HEADER_NAMES`): the `x-shopify-*` webhooks family
 * and the `shopify-*` events family ("events webhooks currently send both", lib/webhooks/validate.ts). The library
 * names the new family's delivery id `shopify-event-id`; `shopify-webhook-id` is taken too.
 */
export const SHOPIFY_HEADER_FAMILIES = {
  webhooks: {
    hmac: SHOPIFY_HMAC_HEADER,
    topic: SHOPIFY_TOPIC_HEADER,
    shop: SHOPIFY_SHOP_HEADER,
    deliveryIds: [SHOPIFY_WEBHOOK_ID_HEADER],
  },
  events: {
    hmac: 'shopify-hmac-sha256',
    topic: 'shopify-topic',
    shop: 'shopify-shop-domain',
    deliveryIds: ['shopify-webhook-id', 'shopify-event-id'],
  },
} as const;
export type ShopifyHeaderFamily = keyof typeof SHOPIFY_HEADER_FAMILIES;
/**
 * The order topics the BFF takes: a paid order, a change to it afterwards, its cancellation; and the fulfillment orders'
 * releases, after which tracking that waited on a hold or a schedule is sent (shopify.dev/docs/api/webhooks, topics
 * `fulfillment_orders/hold_released` and `fulfillment_orders/scheduled_fulfillment_order_ready`).
 */
export const SHOPIFY_ORDER_TOPICS = ['orders/paid', 'orders/updated', 'orders/cancelled'] as const;
export const SHOPIFY_RELEASE_TOPICS = [
  'fulfillment_orders/hold_released',
  'fulfillment_orders/scheduled_fulfillment_order_ready',
] as const;
/** The same topics as `webhookSubscriptionCreate`'s `WebhookSubscriptionTopic` enum names them. */
export const SHOPIFY_SUBSCRIBED_TOPICS = [
  'ORDERS_PAID',
  'ORDERS_UPDATED',
  'ORDERS_CANCELLED',
  'FULFILLMENT_ORDERS_HOLD_RELEASED',
  'FULFILLMENT_ORDERS_SCHEDULED_FULFILLMENT_ORDER_READY',
] as const;

const nullableText = z.optional(z.nullable(z.string()));

/** A shipping or billing address of an order (Shopify's REST/webhook shape; every field may be null). */
export const ShopifyOrderAddressSchema = /* @__PURE__ */ z.looseObject({
  name: nullableText,
  first_name: nullableText,
  last_name: nullableText,
  company: nullableText,
  address1: nullableText,
  address2: nullableText,
  city: nullableText,
  province: nullableText,
  province_code: nullableText,
  zip: nullableText,
  country_code: nullableText,
  phone: nullableText,
});

/**
 * An order as the `orders/paid`, `orders/updated` and `orders/cancelled` webhooks carry it (the fields the kit reads).
 * Read with `parseExactJson` (an id above 2^53 is its digits, a string). No bound on what the store may sell (lines,
 * quantities, lengths): a paid order is kept whatever its content, and what cannot go on a label is flagged
 * (bff/orders/order-bounds.ts); the body's size is bounded by the route.
 */
export const ShopifyOrderSchema = /* @__PURE__ */ z.looseObject({
  id: z.union([z.int(), z.string()]),
  admin_graphql_api_id: z.optional(z.string()),
  name: z.string().check(z.minLength(1)),
  email: nullableText,
  phone: nullableText,
  financial_status: nullableText,
  cancelled_at: nullableText,
  cancel_reason: nullableText,
  updated_at: nullableText,
  currency: nullableText,
  shipping_address: z.optional(z.nullable(ShopifyOrderAddressSchema)),
  billing_address: z.optional(z.nullable(ShopifyOrderAddressSchema)),
  line_items: z.array(
    z.looseObject({
      name: nullableText,
      title: nullableText,
      sku: nullableText,
      quantity: z.int().check(z.gte(0)),
      /** What is left of the line after edits and refunds (Shopify's Order resource: `current_quantity`). */
      current_quantity: z.optional(z.nullable(z.int().check(z.gte(0)))),
      grams: z.optional(z.nullable(z.number().check(z.gte(0)))),
      price: z.optional(z.nullable(z.union([z.string(), z.number()]))),
      requires_shipping: z.optional(z.nullable(z.boolean())),
    }),
  ),
  shipping_lines: z.optional(
    z.nullable(z.array(z.looseObject({ code: nullableText, title: nullableText, source: nullableText }))),
  ),
});
export type ShopifyOrder = z.infer<typeof ShopifyOrderSchema>;
