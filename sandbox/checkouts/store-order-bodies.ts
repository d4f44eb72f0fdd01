import { randomUUID } from 'node:crypto';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { SANDBOX_NUVEMSHOP_APP_SECRET } from './accounts.ts';
import type {
  EmulatedFulfillmentOrder,
  EmulatedOrder,
  NewStoreOrder,
  SentWebhook,
} from './emulated-order.ts';
import { type ShopifyWebhookFamily, shopifyWebhookHeaders } from './shopify-headers.ts';

/** The sandbox shop's own location: where an order's items are unless the order says otherwise. */
export const SHOP_LOCATION = 'gid://shopify/Location/1';

export const locationOf = (id: string) => (/^\d+$/.test(id) ? `gid://shopify/Location/${id}` : id);

/**
 * An order's fulfillment orders (Shopify splits an order by the location that holds each item, and a merchant may put
 * one on hold or schedule it): as asked, else one `OPEN` at the shop's location with every item.
 */
function fulfillmentOrders(
  orderId: number | string,
  input: NewStoreOrder,
  at: string,
): EmulatedFulfillmentOrder[] {
  const asked = input.fulfillmentOrders ?? [
    { location: SHOP_LOCATION, status: 'OPEN' as const, items: input.items.map((_item, i) => i) },
  ];
  return asked.map((fo, n) => ({
    id: `gid://shopify/FulfillmentOrder/${orderId}${n + 1}`,
    status: fo.status,
    location: locationOf(fo.location),
    items: fo.items,
    fulfillAt: fo.status === 'SCHEDULED' ? at : null,
  }));
}

/**
 * The emulated orders in each platform's own shape (sandbox/README.md, "Store orders"), and their webhooks signed as
 * the platform signs them.
 */

export function shopifyOrderBody(
  id: number | string,
  number: number,
  input: NewStoreOrder,
  at: string,
): Record<string, unknown> {
  const [first = '', ...last] = input.customer.name.split(' ');
  const address = {
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
  };
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
    cancelled_at: null,
    cancel_reason: null,
    // Shopify's order has a billing address; a store pickup has no shipping address.
    billing_address: address,
    shipping_address: input.pickup ? null : address,
    line_items: input.items.map((item, i) => ({
      id: Number(String(id).slice(-9)) * 10 + i,
      name: item.name,
      title: item.name,
      sku: item.sku ?? null,
      quantity: item.quantity,
      grams: item.grams,
      price: item.price.toFixed(2),
      requires_shipping: true,
      current_quantity: item.quantity,
      fulfillable_quantity: item.quantity,
    })),
    shipping_lines: [
      { code: input.serviceCode, title: input.serviceCode, source: 'frete-kit', price: '0.00' },
    ],
    fulfillment_orders: fulfillmentOrders(id, input, at),
  };
}

export function nuvemshopOrderBody(
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
    status: 'open',
    payment_status: 'paid',
    cancel_reason: null,
    shipping_pickup_type: input.pickup ? 'pickup' : 'ship',
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

export function shopifyWebhook(
  order: EmulatedOrder,
  topic: string,
  url: string,
  now: number,
  payload?: unknown,
  family: ShopifyWebhookFamily = 'x-shopify',
): Omit<SentWebhook, 'status'> {
  const { fulfillment_orders: _internal, ...whole } = order.body;
  // An id above 2^53 goes out as Shopify writes it: a JSON number, its digits as they are.
  const text = JSON.stringify(payload ?? whole);
  const body =
    typeof order.id === 'string' && payload === undefined
      ? text.replace(`"id":"${order.id}"`, `"id":${order.id}`)
      : text;
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

export function nuvemshopWebhook(
  order: EmulatedOrder,
  event: string,
  url: string,
): Omit<SentWebhook, 'status'> {
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
