import { randomUUID } from 'node:crypto';
import {
  SHOPIFY_ADMIN_API_VERSION,
  SHOPIFY_HEADER_FAMILIES,
  shopifyHmac,
} from '../../shared/checkouts/shopify.ts';
import { SANDBOX_SHOPIFY_APP_SECRET } from './accounts.ts';

/**
 * Which header families the emulated Shopify signs its webhooks with (sandbox/README.md, "Store orders"): `x-shopify`
 * (the `X-Shopify-*` family, the default), `shopify` (the `shopify-*` family alone) or `both` (as Shopify's events
 * send them: "events webhooks currently send both shopify-* and x-shopify-* headers", shopify-app-js
 * lib/webhooks/validate.ts). Set with `POST /_sandbox/stores/shopify/headers {"family"}`.
 */
export const SHOPIFY_WEBHOOK_FAMILIES = ['x-shopify', 'shopify', 'both'] as const;
export type ShopifyWebhookFamily = (typeof SHOPIFY_WEBHOOK_FAMILIES)[number];

/** A Shopify webhook's headers in the chosen families, signed with the sandbox app's secret. */
export function shopifyWebhookHeaders(
  family: ShopifyWebhookFamily,
  fields: { topic: string; shop: string; body: string; webhookId: string; now: number },
): Record<string, string> {
  const hmac = shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, fields.body);
  const legacy = SHOPIFY_HEADER_FAMILIES.webhooks;
  const events = SHOPIFY_HEADER_FAMILIES.events;
  const old = {
    [legacy.hmac]: hmac,
    [legacy.topic]: fields.topic,
    [legacy.shop]: fields.shop,
    [legacy.deliveryIds[0]]: fields.webhookId,
    'x-shopify-event-id': randomUUID(),
    'x-shopify-api-version': SHOPIFY_ADMIN_API_VERSION,
    'x-shopify-triggered-at': new Date(fields.now).toISOString(),
  };
  const fresh = {
    [events.hmac]: hmac,
    [events.topic]: fields.topic,
    [events.shop]: fields.shop,
    'shopify-event-id': fields.webhookId,
    'shopify-api-version': SHOPIFY_ADMIN_API_VERSION,
    'shopify-triggered-at': new Date(fields.now).toISOString(),
  };
  const chosen = family === 'x-shopify' ? old : family === 'shopify' ? fresh : { ...old, ...fresh };
  return { 'content-type': 'application/json', ...chosen };
}
