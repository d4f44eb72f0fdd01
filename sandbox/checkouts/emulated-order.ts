import * as z from 'zod/mini';

/**
 * An emulated store order and what is sent about it (sandbox/README.md, "Store orders"): what a test or the demo asks
 * for, the order in its platform's shape with what was done to it, its fulfillment orders, the webhooks sent.
 */

/** What a test or the demo asks for: a shopper, an address, the cart, the chosen service. */
export const NewStoreOrderSchema = /* @__PURE__ */ z.strictObject({
  customer: z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    email: z.optional(z.string().check(z.maxLength(100))),
    phone: z.optional(z.string().check(z.maxLength(30))),
    cpf: z.optional(z.string().check(z.maxLength(20))),
  }),
  /** Shopify: `address1` is street and number in one line ("Rua X, 123"); Nuvemshop: `street` and `number`. */
  address: z.strictObject({
    address1: z.optional(z.string().check(z.maxLength(200))),
    address2: z.optional(z.string().check(z.maxLength(200))),
    street: z.optional(z.string().check(z.maxLength(200))),
    number: z.optional(z.string().check(z.maxLength(20))),
    floor: z.optional(z.string().check(z.maxLength(100))),
    locality: z.optional(z.string().check(z.maxLength(100))),
    city: z.string().check(z.maxLength(100)),
    /** Shopify: the UF code ("SP"); Nuvemshop: the state's name ("São Paulo"). */
    province: z.string().check(z.maxLength(60)),
    zip: z.string().check(z.maxLength(10)),
  }),
  items: z
    .array(
      z.strictObject({
        name: z.string().check(z.minLength(1), z.maxLength(200)),
        sku: z.optional(z.string().check(z.maxLength(60))),
        quantity: z.int().check(z.gte(1), z.lte(999)),
        grams: z.int().check(z.gte(0), z.lte(100_000)),
        price: z.number().check(z.gte(0), z.lte(1_000_000)),
        /** Nuvemshop only: the product's sizes in cm. */
        dimensions: z.optional(z.strictObject({ width: z.number(), height: z.number(), depth: z.number() })),
      }),
    )
    .check(z.minLength(1), z.maxLength(50)),
  /** The option the shopper chose at the checkout: the carrier's `service_code` / option `code` (a serviceId). */
  serviceCode: z.string().check(z.minLength(1), z.maxLength(60)),
  /** Picked up at the store: Shopify's order has no shipping address, Nuvemshop's `shipping_pickup_type: "pickup"`. */
  pickup: z.optional(z.boolean()),
  /**
   * Shopify only: how the order's items are split into fulfillment orders, each at a location (`gid://shopify/Location/<n>`
   * or its number) and in a status (default: one `OPEN` at the shop's location with every item).
   */
  fulfillmentOrders: z.optional(
    z
      .array(
        z.strictObject({
          location: z.string().check(z.regex(/^(\d{1,12}|gid:\/\/shopify\/Location\/\d{1,12})$/)),
          status: z.enum(['OPEN', 'ON_HOLD', 'SCHEDULED']),
          items: z.array(z.int().check(z.gte(0), z.lte(49))).check(z.minLength(1)),
        }),
      )
      .check(z.minLength(1), z.maxLength(10)),
  ),
  /**
   * Shopify only: the order's id, digits (default the next of the sandbox's). Shopify's own test orders carry ids above
   * 2^53 (`820982911946154508`), written in the webhook as a JSON number that a double cannot hold.
   */
  id: z.optional(z.string().check(z.regex(/^[1-9]\d{0,18}$/))),
  /** `false`: the order is made and no webhook is sent (a test sends one itself). */
  notify: z.optional(z.boolean()),
});
export type NewStoreOrder = z.infer<typeof NewStoreOrderSchema>;

/** One fulfillment the store received: the tracking the shopper's account and e-mails now show. */
export interface StoreFulfillment {
  company: string;
  numbers: string[];
  urls: string[];
  at: string;
  /** Shopify: the fulfillment orders it fulfilled. */
  fulfillmentOrders?: string[];
  /** Whether the app asked the platform to e-mail the shopper (Shopify `notifyCustomer`, Nuvemshop `notify_customer`). */
  notifyCustomer?: boolean;
}

/** An emulated order: its platform body (what the API answers) and what was done to it. */
export interface EmulatedOrder {
  platform: 'shopify' | 'nuvemshop';
  store: string;
  /** A number, or digits (a Shopify id above 2^53). */
  id: number | string;
  /** The order as the platform's API (and Shopify's webhook) shows it; changed in place. */
  body: Record<string, unknown>;
  fulfillments: StoreFulfillment[];
}

/** A webhook the platform sent: kept whole, so the control API can send the very same delivery again (a replay). */
export interface SentWebhook {
  id: string;
  platform: 'shopify' | 'nuvemshop';
  store: string;
  url: string;
  topic: string;
  body: string;
  headers: Record<string, string>;
  status: number | 'unreachable';
}

export interface WebhookSubscription {
  id: number;
  topic: string;
  url: string;
  created_at: string;
}

/** A fulfillment order as the sandbox keeps it (Shopify: `FulfillmentOrder`, its location and line items by index). */
export interface EmulatedFulfillmentOrder {
  id: string;
  status: 'OPEN' | 'IN_PROGRESS' | 'ON_HOLD' | 'SCHEDULED' | 'CLOSED' | 'CANCELLED';
  location: string;
  items: number[];
  fulfillAt: string | null;
}

/** The order's next `updated_at`: now, and always after the last one (a platform's versions only move forward). */
export function nextVersion(order: EmulatedOrder, now: number): string {
  const last = Date.parse(String(order.body.updated_at ?? '')) || 0;
  const at = new Date(Math.max(now, last + 1000)).toISOString();
  order.body.updated_at = at;
  return at;
}
