import * as z from 'zod/mini';
import { NuvemshopRateSchema } from '../../shared/checkouts/nuvemshop.ts';
import { ShopifyRateSchema, shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { centavos, formatBRL } from '../../shared/money.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import { SANDBOX_SHOPIFY_APP_SECRET } from './accounts.ts';
import type { CheckoutOption, CheckoutView } from './checkout-view.ts';
import type { CheckoutPlatforms } from './state.ts';

/**
 * `POST /_sandbox/checkouts/<shopify|nuvemshop>/<storeId>/quote`: what a shopper's checkout on that platform shows
 * for a cart and a destination. The sandbox calls the callback the store registered exactly as the platform does —
 * its body, Shopify's signature, the read timeout, the platform's cache — and answers the options the shopper sees:
 * the callback's rates, Shopify's backup rates after an error or a timeout, or none.
 */
export const CheckoutQuoteSchema = /* @__PURE__ */ z.strictObject({
  cart: z.strictObject({
    items: z
      .array(
        z.strictObject({
          name: z.string().check(z.maxLength(255)),
          quantity: z.int().check(z.gte(1), z.lte(100_000)),
          unitPriceBRL: z.number().check(z.gte(0), z.lte(1_000_000)),
          weightKg: z.optional(z.number().check(z.gte(0), z.lte(1000))),
          sku: z.optional(z.string().check(z.maxLength(100))),
          requiresShipping: z.optional(z.boolean()),
          freeShipping: z.optional(z.boolean()),
        }),
      )
      .check(z.maxLength(250)),
  }),
  destination: z.strictObject({
    postalCode: z.string().check(z.maxLength(20)),
    country: z.optional(z.string().check(z.length(2))),
    province: z.optional(z.string().check(z.maxLength(60))),
    city: z.optional(z.string().check(z.maxLength(100))),
    address: z.optional(z.string().check(z.maxLength(200))),
  }),
  /** Nuvemshop: where the shopper asks (`product` and `cart` send only the postal code). Default `checkout`. */
  stage: z.optional(z.enum(['product', 'cart', 'checkout'])),
  /**
   * Shopify: how the rate request is signed — `x-shopify` (`X-Shopify-Hmac-Sha256`, the default), `shopify` (the
   * newer `shopify-hmac-sha256`) or `none`: Shopify's carrier-service page documents no signature on rate requests,
   * so a callback must work without one (on its secret URL).
   */
  signature: z.optional(z.enum(['x-shopify', 'shopify', 'none'])),
  /** Overrides the platform's read timeout (ms), so a test of a slow callback need not wait 10 s. */
  readTimeoutMs: z.optional(z.int().check(z.gte(1), z.lte(10_000))),
});
export type CheckoutQuote = z.infer<typeof CheckoutQuoteSchema>;

/** Shopify: a success is kept 15 minutes, an error 30 seconds (the facts; docs/checkout/shopify.md). */
const SHOPIFY_TTL = { success: 15 * 60_000, error: 30_000 };
/** Nuvemshop: a 200 is kept 15 minutes, a 422 one minute, anything else not at all (its API documentation). */
const NUVEMSHOP_TTL = { success: 15 * 60_000, unprocessable: 60_000 };
/** Nuvemshop publishes no read timeout: the sandbox gives the callback Shopify's longest, 10 s (sandbox/README.md). */
const NUVEMSHOP_READ_TIMEOUT_MS = 10_000;

/** The platforms accept answers with fields they do not read: so does the sandbox (its schemas are ours, strict). */
const ShopifyAnswerSchema = z.looseObject({ rates: z.array(z.looseObject(ShopifyRateSchema.def.shape)) });
const NuvemshopAnswerSchema = z.looseObject({ rates: z.array(z.looseObject(NuvemshopRateSchema.def.shape)) });

export async function shopifyCheckout(
  platforms: CheckoutPlatforms,
  storeId: string,
  quote: CheckoutQuote,
): Promise<CheckoutView> {
  const shop = platforms.shops.get(storeId);
  if (!shop) throw new ApiError('not_found', `The sandbox has no Shopify shop ${storeId}.`);
  const service = (platforms.carrierServices.get(shop.domain) ?? []).find((s) => s.active);
  if (!service)
    throw new ApiError('not_found', `${shop.domain} has no active carrier service: register one first.`);
  const { destination } = quote;
  const body = JSON.stringify({
    rate: {
      origin: {
        country: 'BR',
        postal_code: shop.originPostalCode,
        province: 'SP',
        city: 'São Paulo',
        name: null,
      },
      destination: {
        country: destination.country ?? 'BR',
        postal_code: destination.postalCode,
        province: destination.province ?? null,
        city: destination.city ?? null,
        name: null,
        address1: destination.address ?? null,
      },
      items: quote.cart.items.map((item, i) => ({
        name: item.name,
        sku: item.sku ?? null,
        quantity: item.quantity,
        grams: Math.round((item.weightKg ?? 0) * 1000),
        price: centavos(item.unitPriceBRL),
        vendor: 'Loja Demo',
        requires_shipping: item.requiresShipping ?? true,
        taxable: true,
        fulfillment_service: 'manual',
        properties: null,
        product_id: i + 1,
        variant_id: i + 1,
      })),
      currency: 'BRL',
      locale: 'pt-BR',
    },
  });
  const signed = quote.signature ?? 'x-shopify';
  // The demo's day in the key: a cached answer's dates never outlive the day they were quoted on.
  const key = `shopify ${shop.domain} ${service.id} ${signed} ${platforms.day()} ${sha256Hex(body)}`;
  const cached = fromCache(platforms, key);
  if (cached) return cached;
  const readTimeoutMs = quote.readTimeoutMs ?? shopifyReadTimeout(platforms, shop.domain);
  const signature = shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body);
  const call = await callBack(
    service.callbackUrl,
    body,
    readTimeoutMs,
    signed === 'none'
      ? {}
      : { [signed === 'shopify' ? 'shopify-hmac-sha256' : 'x-shopify-hmac-sha256']: signature },
  );
  const view = { platform: 'shopify' as const, storeId: shop.domain, callback: call.callback };
  const parsed = call.status === 200 ? ShopifyAnswerSchema.safeParse(call.json) : undefined;
  if (parsed?.success) {
    const options = parsed.data.rates.map((rate) => ({
      name: rate.service_name,
      code: rate.service_code,
      amountCents: Number(rate.total_price),
      price: formatBRL(Number(rate.total_price) / 100),
      minDeliveryDate: rate.min_delivery_date,
      maxDeliveryDate: rate.max_delivery_date,
      ...(rate.description ? { description: rate.description } : {}),
    }));
    return keep(platforms, key, SHOPIFY_TTL.success, { ...view, source: 'callback', options });
  }
  // An error, a timeout or an answer Shopify cannot read: the store's backup rates, and the error kept 30 s.
  const options = shop.backupRates.map((rate) => ({
    name: rate.name,
    code: rate.code,
    amountCents: rate.amountCents,
    price: formatBRL(rate.amountCents / 100),
  }));
  return keep(platforms, key, SHOPIFY_TTL.error, { ...view, source: 'backup', options });
}

export async function nuvemshopCheckout(
  platforms: CheckoutPlatforms,
  storeId: string,
  quote: CheckoutQuote,
): Promise<CheckoutView> {
  const store = platforms.stores.get(storeId);
  if (!store) throw new ApiError('not_found', `The sandbox has no Nuvemshop store ${storeId}.`);
  const carrier = (platforms.carriers.get(store.id) ?? []).find((c) => c.active && c.types.includes('ship'));
  if (!carrier)
    throw new ApiError('not_found', `Store ${store.id} has no active shipping carrier: register one first.`);
  const { destination } = quote;
  const onlyPostalCode = quote.stage === 'product' || quote.stage === 'cart';
  const origin = {
    country: 'BR',
    postal_code: store.originPostalCode,
    name: null,
    address: null,
    number: null,
  };
  const to = {
    name: null,
    address: onlyPostalCode ? null : (destination.address ?? null),
    number: null,
    floor: null,
    locality: null,
    city: onlyPostalCode ? null : (destination.city ?? null),
    province: onlyPostalCode ? null : (destination.province ?? null),
    country: destination.country ?? 'BR',
    postal_code: destination.postalCode,
    phone: null,
  };
  const items = quote.cart.items.map((item, i) => ({
    id: i + 1,
    product_id: i + 1,
    name: item.name,
    sku: item.sku ?? null,
    quantity: item.quantity,
    free_shipping: item.freeShipping ?? false,
    grams: Math.round((item.weightKg ?? 0) * 1000),
    price: item.unitPriceBRL,
    dimensions: { width: 0, height: 0, depth: 0 },
  }));
  const body = JSON.stringify({
    store_id: Number(store.id),
    currency: 'BRL',
    language: 'pt',
    origin,
    destination: to,
    items,
  });
  // Nuvemshop's cache key: the variants and their quantities, weights and dimensions, the carrier, the addresses; and
  // the demo's day (a cached answer's dates never outlive the day they were quoted on).
  const key = `nuvemshop ${carrier.id} ${platforms.day()} ${sha256Hex(
    JSON.stringify([origin, to, items.map((i) => [i.id, i.quantity, i.grams, i.dimensions])]),
  )}`;
  const cached = fromCache(platforms, key);
  if (cached) return cached;
  const readTimeoutMs = quote.readTimeoutMs ?? NUVEMSHOP_READ_TIMEOUT_MS;
  const call = await callBack(carrier.callback_url, body, readTimeoutMs, {
    'user-agent': 'Nuvemshop (frete-kit sandbox)',
  });
  const view = { platform: 'nuvemshop' as const, storeId: store.id, callback: call.callback };
  const parsed = call.status === 200 ? NuvemshopAnswerSchema.safeParse(call.json) : undefined;
  if (parsed?.success) {
    // Only rates whose code is an active option's, one per code (the first), with the option's settings applied.
    const seen = new Set<string>();
    const options: CheckoutOption[] = [];
    for (const rate of parsed.data.rates) {
      const option = carrier.options.find((o) => o.code === rate.code && o.active);
      if (!option || seen.has(rate.code) || rate.type !== 'ship') continue;
      seen.add(rate.code);
      const amountCents = centavos(rate.price + option.additional_cost);
      options.push({
        name: option.name,
        code: rate.code,
        amountCents,
        price: formatBRL(amountCents / 100),
        minDeliveryDate: laterBy(rate.min_delivery_date, option.additional_days),
        maxDeliveryDate: laterBy(rate.max_delivery_date, option.additional_days),
      });
    }
    return keep(platforms, key, NUVEMSHOP_TTL.success, { ...view, source: 'callback', options });
  }
  const failed = { ...view, source: 'failed' as const, options: [] };
  return call.status === 422 ? keep(platforms, key, NUVEMSHOP_TTL.unprocessable, failed) : failed;
}

/** How long Shopify waits for this app-shop pair: 10 s under 1,500 requests a minute, 5 s to 3,000, then 3 s. */
function shopifyReadTimeout(platforms: CheckoutPlatforms, shop: string): number {
  const now = platforms.now();
  const recent = (platforms.calls.get(shop) ?? []).filter((at) => at > now - 60_000);
  recent.push(now);
  platforms.calls.set(shop, recent);
  if (recent.length > 3000) return 3_000;
  if (recent.length > 1500) return 5_000;
  return 10_000;
}

interface CallResult {
  status: number | 'timeout' | 'unreachable';
  json: unknown;
  callback: NonNullable<CheckoutView['callback']>;
}

/** POSTs the body to the callback as the platform does, reading the answer until `readTimeoutMs`; never throws. */
async function callBack(
  url: string,
  body: string,
  readTimeoutMs: number,
  headers: Record<string, string>,
): Promise<CallResult> {
  const started = performance.now();
  let status: CallResult['status'];
  let json: unknown;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(readTimeoutMs),
    });
    const text = await res.text();
    status = res.status;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  } catch (error) {
    status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
  }
  const ms = Math.round(performance.now() - started);
  return { status, json, callback: { status, ms, readTimeoutMs } };
}

function fromCache(platforms: CheckoutPlatforms, key: string): CheckoutView | undefined {
  const entry = platforms.cache.get(key);
  if (!entry || entry.expiresAt <= platforms.now()) return undefined;
  return { ...entry.answer, source: 'cache', callback: undefined };
}

function keep(platforms: CheckoutPlatforms, key: string, ttlMs: number, view: CheckoutView): CheckoutView {
  platforms.cache.set(key, { expiresAt: platforms.now() + ttlMs, answer: view });
  return view;
}

/** A date-time text (ISO 8601, date first) `days` calendar days later; as given when it is not one. */
function laterBy(text: string | null | undefined, days: number): string | undefined {
  if (!text) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(text);
  if (!match || days === 0) return text;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days));
  return `${date.toISOString().slice(0, 10)}${match[4]}`;
}
