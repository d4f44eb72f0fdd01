import { createHmac } from 'node:crypto';
import * as z from 'zod/mini';

/**
 * Nuvemshop's (Tiendanube's) shipping carrier callback, as its API documentation publishes it (docs/checkout/
 * nuvemshop.md cites it): the request the carrier's `callback_url` receives and the rates it answers. Shared by the
 * BFF's adapter (bff/nuvemshop/rate-callback.ts) and the sandbox's emulated checkout (sandbox/checkouts/). Requests are
 * loose (the platform adds fields); answers are what we promise.
 */

/** A number as Nuvemshop writes it: a number, or its digits in a string ("101", "2.00"). */
export const NuvemshopNumberSchema = /* @__PURE__ */ z.union([
  z.number(),
  z.string().check(z.trim(), z.regex(/^-?\d+(\.\d+)?$/)),
]);

/** Such a number read as the number, then checked. */
const numeric = (check: z.ZodMiniNumber<number>) =>
  z.pipe(NuvemshopNumberSchema, z.pipe(z.transform(Number), check));

/**
 * One line of the cart: `price` in BRL, `grams` of one unit, `free_shipping` set by the merchant. Numbers as numbers
 * or numeric strings (ARCHITECTURE "Store orders as the store sees them").
 */
export const NuvemshopRateItemSchema = /* @__PURE__ */ z.looseObject({
  id: z.optional(z.nullable(z.union([z.int(), z.string()]))),
  product_id: z.optional(z.nullable(z.union([z.int(), z.string()]))),
  name: z.optional(z.nullable(z.string())),
  sku: z.optional(z.nullable(z.string())),
  quantity: numeric(z.int().check(z.gte(1), z.lte(1_000_000))),
  free_shipping: z.optional(z.nullable(z.boolean())),
  grams: numeric(z.number().check(z.gte(0), z.lte(100_000_000))),
  price: numeric(z.number().check(z.gte(0), z.lte(100_000_000))),
  dimensions: z.optional(
    z.nullable(
      z.looseObject({
        width: z.optional(z.nullable(numeric(z.number()))),
        height: z.optional(z.nullable(numeric(z.number()))),
        depth: z.optional(z.nullable(numeric(z.number()))),
      }),
    ),
  ),
});

/** An address: on product and cart pages only `postal_code` (and `country`) are set, the rest null. */
export const NuvemshopAddressSchema = /* @__PURE__ */ z.looseObject({
  country: z.optional(z.nullable(z.string())),
  postal_code: z.optional(z.nullable(z.string())),
  province: z.optional(z.nullable(z.string())),
  city: z.optional(z.nullable(z.string())),
});

/** The body Nuvemshop POSTs to the carrier's callback. */
export const NuvemshopRateRequestSchema = /* @__PURE__ */ z.looseObject({
  store_id: z.union([z.int(), z.string()]),
  currency: z.optional(z.nullable(z.string())),
  language: z.optional(z.nullable(z.string())),
  origin: z.optional(z.nullable(NuvemshopAddressSchema)),
  destination: NuvemshopAddressSchema,
  items: z.array(NuvemshopRateItemSchema).check(z.maxLength(1000)),
});
export type NuvemshopRateRequest = z.infer<typeof NuvemshopRateRequestSchema>;

/**
 * One rate: `code` must equal a registered option's code or the checkout drops it; `price` is what the shopper
 * pays, `price_merchant` what the merchant pays (they differ only when free-shipping items are in the cart).
 */
export const NuvemshopRateSchema = /* @__PURE__ */ z.strictObject({
  name: z.string().check(z.minLength(1)),
  code: z.string().check(z.minLength(1)),
  price: z.number().check(z.gte(0)),
  price_merchant: z.optional(z.number().check(z.gte(0))),
  currency: z.string().check(z.length(3)),
  type: z.enum(['ship', 'pickup']),
  min_delivery_date: z.optional(z.nullable(z.string())),
  max_delivery_date: z.optional(z.nullable(z.string())),
  reference: z.optional(z.string()),
});
export type NuvemshopRate = z.infer<typeof NuvemshopRateSchema>;

export const NuvemshopRatesAnswerSchema = /* @__PURE__ */ z.strictObject({
  rates: z.array(NuvemshopRateSchema),
});
export type NuvemshopRatesAnswer = z.infer<typeof NuvemshopRatesAnswerSchema>;

/** A shipping carrier as `POST /shipping_carriers` answers it. */
export const NuvemshopCarrierSchema = /* @__PURE__ */ z.looseObject({
  id: z.int(),
  name: z.string(),
  callback_url: z.string(),
  types: z.optional(z.string()),
  active: z.boolean(),
});
export type NuvemshopCarrier = z.infer<typeof NuvemshopCarrierSchema>;

/** A carrier option as `POST /shipping_carriers/{id}/options` answers it. */
export const NuvemshopCarrierOptionSchema = /* @__PURE__ */ z.looseObject({
  id: z.int(),
  code: z.string(),
  name: z.string(),
  additional_days: z.optional(z.number()),
  additional_cost: z.optional(z.number()),
  allow_free_shipping: z.optional(z.boolean()),
  active: z.boolean(),
});

/** Nuvemshop's webhook signature: hex HMAC-SHA256 of the raw body with the app's client secret. */
export const NUVEMSHOP_HMAC_HEADER = 'x-linkedstore-hmac-sha256';

export function nuvemshopHmac(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The order events the BFF takes: a paid order, a change to it afterwards, its cancellation
 * (tiendanube.github.io/api-documentation/resources/webhook: order `paid`, `updated`, `cancelled`).
 */
export const NUVEMSHOP_ORDER_EVENTS = ['order/paid', 'order/updated', 'order/cancelled'] as const;

/** A webhook's body: which store, what happened, to which resource (the BFF reads the order through the API). */
export const NuvemshopWebhookSchema = /* @__PURE__ */ z.looseObject({
  store_id: z.union([z.int(), z.string()]),
  event: z.string().check(z.maxLength(60)),
  id: z.union([z.int(), z.string()]),
});

const nullableText = z.optional(z.nullable(z.string()));
/** Nuvemshop writes measures as strings ("0.500") or numbers. */
const measure = z.optional(z.nullable(z.union([z.string(), z.number()])));

/**
 * An order as `GET /orders/{id}` answers it (the fields the kit reads; Orders API v1, github.com/TiendaNube/api-docs
 * resources/order.md): `status` open/closed/cancelled, `payment_status` … paid/voided/refunded, `shipping_pickup_type`
 * ship/pickup. No bound on what the store may sell: see ShopifyOrderSchema.
 */
export const NuvemshopOrderSchema = /* @__PURE__ */ z.looseObject({
  id: z.union([z.int(), z.string()]),
  number: z.union([z.int(), z.string()]),
  store_id: z.optional(z.union([z.int(), z.string()])),
  status: nullableText,
  cancel_reason: nullableText,
  cancelled_at: nullableText,
  shipping_pickup_type: nullableText,
  payment_status: nullableText,
  updated_at: nullableText,
  contact_email: nullableText,
  contact_phone: nullableText,
  contact_identification: nullableText,
  shipping_option_code: nullableText,
  shipping_address: z.optional(
    z.nullable(
      z.looseObject({
        name: nullableText,
        address: nullableText,
        number: nullableText,
        floor: nullableText,
        locality: nullableText,
        city: nullableText,
        province: nullableText,
        zipcode: nullableText,
        phone: nullableText,
      }),
    ),
  ),
  products: z.array(
    z.looseObject({
      name: nullableText,
      sku: nullableText,
      quantity: NuvemshopNumberSchema,
      price: measure,
      weight: measure,
      width: measure,
      height: measure,
      depth: measure,
    }),
  ),
});
export type NuvemshopOrder = z.infer<typeof NuvemshopOrderSchema>;
