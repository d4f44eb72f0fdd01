import * as z from 'zod/mini';
import { ApiError } from '../errors.ts';

/**
 * The privacy requests the store platforms send an app that holds shoppers' data (docs/privacy.md), as they publish
 * them. Both the BFF (bff/privacy/) and the sandbox's control API (which sends them) take them from here.
 *
 * - Shopify's mandatory compliance topics, on the app's webhook URL with the topic in its header
 *   (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance): `customers/data_request`
 *   `{shop_id, shop_domain, orders_requested, customer: {id, email, phone}, data_request: {id}}`, `customers/redact`
 *   `{shop_id, shop_domain, customer, orders_to_redact}`, `shop/redact` `{shop_id, shop_domain}`.
 * - Nuvemshop's LGPD webhooks, each on its own URL set in the app's panel (TiendaNube/api-docs
 *   resources/webhook.md, "Required Webhooks"; resources/authentication.md): `store/redact` `{store_id}`,
 *   `customers/redact` `{store_id, customer: {id, email, phone, identification}, orders_to_redact}`,
 *   `customers/data_request` `{store_id, customer, orders_requested, checkouts_requested, drafts_orders_requested,
 *   data_request: {id}}`. Their Postman tool (utils/lgpd-webhooks-testing-tool) sends `store_id` as a number or text.
 *
 * Loose: the platforms add fields; ids are numbers or numeric text.
 */

const id = z.union([z.number(), z.string().check(z.maxLength(100))]);
const maybeText = z.optional(z.nullable(z.string().check(z.maxLength(320))));
const orderIds = z.optional(z.nullable(z.array(id).check(z.maxLength(10_000))));

/** The customer a request is about: any of these may be missing (Shopify: "in some cases only the e-mail"). */
export const PrivacyCustomerSchema = /* @__PURE__ */ z.looseObject({
  id: z.optional(z.nullable(id)),
  email: maybeText,
  phone: maybeText,
  /** Nuvemshop: the shopper's CPF/CNPJ. */
  identification: maybeText,
});
export type PrivacyCustomer = z.infer<typeof PrivacyCustomerSchema>;

export const SHOPIFY_COMPLIANCE_TOPICS = [
  'customers/data_request',
  'customers/redact',
  'shop/redact',
] as const;
export type ShopifyComplianceTopic = (typeof SHOPIFY_COMPLIANCE_TOPICS)[number];

export const NUVEMSHOP_LGPD_EVENTS = ['store/redact', 'customers/redact', 'customers/data_request'] as const;
export type NuvemshopLgpdEvent = (typeof NUVEMSHOP_LGPD_EVENTS)[number];

export const ShopifyPrivacyPayloadSchema = /* @__PURE__ */ z.looseObject({
  shop_id: z.optional(z.nullable(id)),
  shop_domain: z.string().check(z.minLength(1), z.maxLength(255)),
  customer: z.optional(z.nullable(PrivacyCustomerSchema)),
  orders_to_redact: orderIds,
  orders_requested: orderIds,
  data_request: z.optional(z.nullable(z.looseObject({ id: z.optional(z.nullable(id)) }))),
});
export type ShopifyPrivacyPayload = z.infer<typeof ShopifyPrivacyPayloadSchema>;

export const NuvemshopPrivacyPayloadSchema = /* @__PURE__ */ z.looseObject({
  store_id: id,
  customer: z.optional(z.nullable(PrivacyCustomerSchema)),
  orders_to_redact: orderIds,
  orders_requested: orderIds,
  data_request: z.optional(z.nullable(z.looseObject({ id: z.optional(z.nullable(id)) }))),
});
export type NuvemshopPrivacyPayload = z.infer<typeof NuvemshopPrivacyPayloadSchema>;

/** What a request asks, whichever platform sent it. */
export const PRIVACY_KINDS = ['data_request', 'customer_redact', 'store_redact'] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

/** A privacy request as the kit handles it: who asks, about which customer and which of the store's orders. */
export interface PrivacyRequest {
  kind: PrivacyKind;
  platform: 'shopify' | 'nuvemshop';
  /** The shop's domain (Shopify) or the store's id (Nuvemshop). */
  store: string;
  customer: {
    id?: string | undefined;
    email?: string | undefined;
    phone?: string | undefined;
    identification?: string | undefined;
  };
  /** The platform's own ids of the customer's orders named in the request. */
  orders: string[];
  /** The platform's id of a data request (to answer it by). */
  requestId?: string;
}

const KIND_OF_TOPIC: Record<ShopifyComplianceTopic | NuvemshopLgpdEvent, PrivacyKind> = {
  'customers/data_request': 'data_request',
  'customers/redact': 'customer_redact',
  'shop/redact': 'store_redact',
  'store/redact': 'store_redact',
};

function customerOf(customer: PrivacyCustomer | null | undefined): PrivacyRequest['customer'] {
  const out: PrivacyRequest['customer'] = {};
  const put = (key: keyof PrivacyRequest['customer'], value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text) out[key] = text;
  };
  put('id', customer?.id);
  put('email', customer?.email);
  put('phone', customer?.phone);
  put('identification', customer?.identification);
  return out;
}

/**
 * The keys that say a body is of another request (or an order webhook's, `event`): the platforms sign the body, not
 * Shopify's topic header nor Nuvemshop's LGPD URL, so a signed body seen once must not come back as an erasure.
 */
const NOT_OF_KIND: Record<PrivacyKind, readonly string[]> = {
  data_request: ['orders_to_redact', 'event'],
  customer_redact: ['data_request', 'orders_requested', 'event'],
  store_redact: ['customer', 'orders_to_redact', 'orders_requested', 'data_request', 'event'],
};

function requestOf(
  kind: PrivacyKind,
  platform: PrivacyRequest['platform'],
  store: string,
  payload: ShopifyPrivacyPayload | NuvemshopPrivacyPayload,
): PrivacyRequest {
  const foreign = NOT_OF_KIND[kind].find((key) => key in payload);
  if (foreign !== undefined || (kind === 'customer_redact' && !payload.customer))
    throw new ApiError(
      'invalid_body',
      foreign === undefined
        ? 'A customer redaction names its customer.'
        : `The body is not of this request: it has \`${foreign}\`.`,
    );
  const orders = (kind === 'data_request' ? payload.orders_requested : payload.orders_to_redact) ?? [];
  const requestId = payload.data_request?.id;
  return {
    kind,
    platform,
    store,
    customer: kind === 'store_redact' ? {} : customerOf(payload.customer),
    orders: orders.map(String),
    ...(kind === 'data_request' && requestId !== undefined && requestId !== null
      ? { requestId: String(requestId) }
      : {}),
  };
}

/** A Shopify compliance webhook's request; `shop` is the shop its header named. */
export function shopifyPrivacyRequest(
  topic: ShopifyComplianceTopic,
  shop: string,
  payload: ShopifyPrivacyPayload,
): PrivacyRequest {
  return requestOf(KIND_OF_TOPIC[topic], 'shopify', shop, payload);
}

/** A Nuvemshop LGPD webhook's request. */
export function nuvemshopPrivacyRequest(
  event: NuvemshopLgpdEvent,
  payload: NuvemshopPrivacyPayload,
): PrivacyRequest {
  return requestOf(KIND_OF_TOPIC[event], 'nuvemshop', String(payload.store_id), payload);
}
