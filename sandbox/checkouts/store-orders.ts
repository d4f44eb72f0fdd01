import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { SANDBOX_NUVEMSHOP_APP_SECRET } from './accounts.ts';
import { type ShopifyWebhookFamily, shopifyWebhookHeaders } from './shopify-headers.ts';

/**
 * The store platforms' orders, emulated (sandbox/README.md, "Store orders"): a paid order is made by the control API
 * (`POST /_sandbox/stores/<platform>/<store>/orders`), kept in the platform's own shape, and announced to every webhook
 * subscribed to its topic, signed as the platform signs (Shopify: the whole order, base64 HMAC, a webhook id;
 * Nuvemshop: `{store_id, event, id}`, hex HMAC). The Admin APIs read it and fulfil it with tracking.
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
}

/** An emulated order: its platform body (what the API answers) and what was done to it. */
export interface EmulatedOrder {
  platform: 'shopify' | 'nuvemshop';
  store: string;
  id: number;
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

export class StoreOrders {
  readonly orders = new Map<string, EmulatedOrder>();
  /** Subscriptions by `<platform> <store>`. */
  readonly subscriptions = new Map<string, WebhookSubscription[]>();
  readonly sent: SentWebhook[] = [];
  /** The header families Shopify's webhooks are signed in (`POST /_sandbox/stores/shopify/headers`). */
  shopifyFamily: ShopifyWebhookFamily = 'x-shopify';
  /** The next `n` fulfillment calls of a platform fail (500), for tests of the BFF's retries. */
  readonly failNext = new Map<'shopify' | 'nuvemshop', number>();
  private sequence = 0;
  private subscriptionSequence = 0;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  reset(): void {
    this.orders.clear();
    this.subscriptions.clear();
    this.sent.length = 0;
    this.shopifyFamily = 'x-shopify';
    this.failNext.clear();
    this.sequence = 0;
    this.subscriptionSequence = 0;
    this.subscriptionSequence = 0;
  }

  key(platform: string, store: string, id: number | string): string {
    return `${platform} ${store} ${id}`;
  }

  subscribe(
    platform: 'shopify' | 'nuvemshop',
    store: string,
    topic: string,
    url: string,
  ): WebhookSubscription {
    const list = this.subscriptions.get(`${platform} ${store}`) ?? [];
    const found = list.find((s) => s.topic === topic && s.url === url);
    if (found) return found;
    this.subscriptionSequence += 1;
    const subscription = {
      id: 9000 + this.subscriptionSequence,
      topic,
      url,
      created_at: new Date(this.now()).toISOString(),
    };
    this.subscriptions.set(`${platform} ${store}`, [...list, subscription]);
    return subscription;
  }

  /** Whether this fulfillment call is one a test asked to fail. */
  failing(platform: 'shopify' | 'nuvemshop'): boolean {
    const left = this.failNext.get(platform) ?? 0;
    if (left <= 0) return false;
    this.failNext.set(platform, left - 1);
    return true;
  }

  /** A paid order made in the platform's shape, and its `paid` webhook sent (unless `notify: false`). */
  async create(platform: 'shopify' | 'nuvemshop', store: string, input: NewStoreOrder) {
    this.sequence += 1;
    const n = this.sequence;
    const at = new Date(this.now()).toISOString();
    const order: EmulatedOrder =
      platform === 'shopify'
        ? {
            platform,
            store,
            id: 5_000_000 + n,
            body: shopifyBody(5_000_000 + n, 1000 + n, input, at),
            fulfillments: [],
          }
        : {
            platform,
            store,
            id: 8_000_000 + n,
            body: nuvemshopBody(store, 8_000_000 + n, 100 + n, input, at),
            fulfillments: [],
          };
    this.orders.set(this.key(platform, store, order.id), order);
    const sent =
      input.notify === false
        ? []
        : await this.announce(order, platform === 'shopify' ? 'orders/paid' : 'order/paid');
    return { order, sent };
  }

  /** A change after payment (a new address): the order's version moves on and `updated` is announced. */
  async update(order: EmulatedOrder, address: Partial<NewStoreOrder['address']>) {
    const at = new Date(this.now() + 1000).toISOString();
    if (order.platform === 'shopify') {
      const current = order.body.shipping_address as Record<string, unknown>;
      order.body.shipping_address = {
        ...current,
        ...(address.address1 === undefined ? {} : { address1: address.address1 }),
        ...(address.address2 === undefined ? {} : { address2: address.address2 }),
        ...(address.city === undefined ? {} : { city: address.city }),
        ...(address.province === undefined ? {} : { province_code: address.province }),
        ...(address.zip === undefined ? {} : { zip: address.zip }),
      };
    } else {
      const current = order.body.shipping_address as Record<string, unknown>;
      order.body.shipping_address = {
        ...current,
        ...(address.street === undefined ? {} : { address: address.street }),
        ...(address.number === undefined ? {} : { number: address.number }),
        ...(address.locality === undefined ? {} : { locality: address.locality }),
        ...(address.city === undefined ? {} : { city: address.city }),
        ...(address.province === undefined ? {} : { province: address.province }),
        ...(address.zip === undefined ? {} : { zipcode: address.zip }),
      };
    }
    order.body.updated_at = at;
    return this.announce(order, order.platform === 'shopify' ? 'orders/updated' : 'order/updated');
  }

  /** Sends a topic's webhook for the order to every subscription, signed; answers what each URL said. */
  async announce(order: EmulatedOrder, topic: string): Promise<SentWebhook[]> {
    const subscriptions = (this.subscriptions.get(`${order.platform} ${order.store}`) ?? []).filter(
      (s) => s.topic === topic,
    );
    const sent: SentWebhook[] = [];
    for (const subscription of subscriptions) {
      const webhook =
        order.platform === 'shopify'
          ? shopifyWebhook(order, topic, subscription.url, this.now(), this.shopifyFamily)
          : nuvemshopWebhook(order, topic, subscription.url);
      sent.push(await this.deliver(webhook));
    }
    return sent;
  }

  /** Posts a webhook as the platform does (raw body, its headers) and records what the URL answered. */
  async deliver(webhook: Omit<SentWebhook, 'status'>): Promise<SentWebhook> {
    let status: SentWebhook['status'];
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: webhook.headers,
        body: webhook.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 'unreachable';
    }
    const sent = { ...webhook, status };
    this.sent.push(sent);
    return sent;
  }
}

function shopifyBody(id: number, number: number, input: NewStoreOrder, at: string): Record<string, unknown> {
  const [first = '', ...last] = input.customer.name.split(' ');
  const subtotal = input.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${number}`,
    order_number: number,
    email: input.customer.email ?? null,
    phone: input.customer.phone ?? null,
    created_at: at,
    updated_at: at,
    currency: 'BRL',
    financial_status: 'paid',
    fulfillment_status: null,
    subtotal_price: subtotal.toFixed(2),
    shipping_address: {
      first_name: first,
      last_name: last.join(' '),
      name: input.customer.name,
      company: null,
      address1: input.address.address1 ?? '',
      address2: input.address.address2 ?? null,
      city: input.address.city,
      province: input.address.province,
      province_code: input.address.province,
      zip: input.address.zip,
      country: 'Brazil',
      country_code: 'BR',
      phone: input.customer.phone ?? null,
    },
    line_items: input.items.map((item, i) => ({
      id: id * 10 + i,
      name: item.name,
      title: item.name,
      sku: item.sku ?? null,
      quantity: item.quantity,
      grams: item.grams,
      price: item.price.toFixed(2),
      requires_shipping: true,
      fulfillable_quantity: item.quantity,
    })),
    shipping_lines: [
      { code: input.serviceCode, title: input.serviceCode, source: 'frete-kit', price: '0.00' },
    ],
    fulfillment_orders: [{ id: `gid://shopify/FulfillmentOrder/${id}`, status: 'OPEN' }],
  };
}

function nuvemshopBody(
  store: string,
  id: number,
  number: number,
  input: NewStoreOrder,
  at: string,
): Record<string, unknown> {
  return {
    id,
    number,
    store_id: Number(store),
    token: randomUUID().replaceAll('-', ''),
    created_at: at,
    updated_at: at,
    currency: 'BRL',
    payment_status: 'paid',
    shipping_status: 'unpacked',
    contact_email: input.customer.email ?? null,
    contact_phone: input.customer.phone ?? null,
    contact_identification: input.customer.cpf ?? null,
    shipping_option: input.serviceCode,
    shipping_option_code: input.serviceCode,
    shipping_tracking_number: null,
    shipping_tracking_url: null,
    shipping_address: {
      name: input.customer.name,
      address: input.address.street ?? '',
      number: input.address.number ?? '',
      floor: input.address.floor ?? null,
      locality: input.address.locality ?? '',
      city: input.address.city,
      province: input.address.province,
      zipcode: input.address.zip,
      country: 'BR',
      phone: input.customer.phone ?? null,
    },
    products: input.items.map((item, i) => ({
      id: id * 10 + i,
      name: item.name,
      sku: item.sku ?? null,
      quantity: String(item.quantity),
      price: item.price.toFixed(2),
      weight: (item.grams / 1000).toFixed(3),
      width: item.dimensions ? String(item.dimensions.width) : '0.00',
      height: item.dimensions ? String(item.dimensions.height) : '0.00',
      depth: item.dimensions ? String(item.dimensions.depth) : '0.00',
    })),
  };
}

function shopifyWebhook(
  order: EmulatedOrder,
  topic: string,
  url: string,
  now: number,
  family: ShopifyWebhookFamily,
): Omit<SentWebhook, 'status'> {
  const { fulfillment_orders: _internal, ...payload } = order.body;
  const body = JSON.stringify(payload);
  const id = randomUUID();
  return {
    id,
    platform: 'shopify',
    store: order.store,
    url,
    topic,
    body,
    headers: shopifyWebhookHeaders(family, { topic, shop: order.store, body, webhookId: id, now }),
  };
}

function nuvemshopWebhook(order: EmulatedOrder, event: string, url: string): Omit<SentWebhook, 'status'> {
  const body = JSON.stringify({ store_id: Number(order.store), event, id: order.id });
  return {
    id: randomUUID(),
    platform: 'nuvemshop',
    store: order.store,
    url,
    topic: event,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Nuvemshop Webhooks (frete-kit sandbox)',
      'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
    },
  };
}
