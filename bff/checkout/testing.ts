import type { RunningSandbox } from '../../sandbox/testing.ts';
import { SHOPIFY_HMAC_HEADER, shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { centavos } from '../../shared/money.ts';
import { type QuoteItem, RatesResponseSchema } from '../../shared/quote.ts';

/** The Shopify app secret and Nuvemshop callback secret of the test BFFs (and of the sandbox's fixture app). */
export const TEST_SHOPIFY_SECRET = 'shpss_test_checkout_secret_0001';
export const TEST_NUVEMSHOP_SECRET = 'nuvemshop-callback-secret-0123456789abcdef';

/** A Shopify cart line as its checkout sends it: price in centavos, grams, requires_shipping. */
export function shopifyItem(item: QuoteItem, extra: Record<string, unknown> = {}) {
  return {
    name: item.name,
    sku: null,
    quantity: item.quantity,
    grams: Math.round(item.weightKg * 1000),
    price: centavos(item.unitPriceBRL),
    requires_shipping: true,
    ...extra,
  };
}

/** A CarrierService request body for a CEP and Shopify cart lines. */
export function shopifyBody(cep: string, items: unknown[], destination: Record<string, unknown> = {}) {
  return {
    rate: {
      origin: { country: 'BR', postal_code: '01310-100', province: 'SP', city: 'São Paulo' },
      destination: { country: 'BR', postal_code: cep, province: null, city: null, ...destination },
      items,
      currency: 'BRL',
      locale: 'pt-BR',
    },
  };
}

/** POSTs a callback as Shopify does: the raw body signed with `secret` (`null`: unsigned), and any `headers`. */
export function postShopify(
  url: string,
  body: unknown,
  secret: string | null = TEST_SHOPIFY_SECRET,
  headers: Record<string, string> = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(`${url}/checkout/shopify/rates`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret === null ? {} : { [SHOPIFY_HMAC_HEADER]: shopifyHmac(secret, text) }),
      ...headers,
    },
    body: text,
  });
}

/** A Nuvemshop cart line: price in BRL, grams of one unit, free_shipping. */
export function nuvemshopItem(item: QuoteItem, extra: Record<string, unknown> = {}) {
  return {
    id: 1,
    product_id: 1,
    name: item.name,
    sku: null,
    quantity: item.quantity,
    free_shipping: false,
    grams: Math.round(item.weightKg * 1000),
    price: item.unitPriceBRL,
    dimensions: { width: 12, height: 10, depth: 10 },
    ...extra,
  };
}

/** A shipping-carrier request; `productPage` sends only the destination's postal code, as product pages do. */
export function nuvemshopBody(cep: string, items: unknown[], productPage = false) {
  const full = { address: 'Rua A', number: '10', locality: 'Centro', city: 'Rio de Janeiro', province: 'RJ' };
  return {
    store_id: 1001,
    currency: 'BRL',
    language: 'pt',
    origin: { country: 'BR', postal_code: '01310100' },
    destination: {
      name: null,
      country: 'BR',
      postal_code: cep,
      phone: null,
      ...(productPage
        ? { address: null, number: null, floor: null, locality: null, city: null, province: null }
        : full),
    },
    items,
  };
}

/** POSTs a callback as Nuvemshop does, to the URL with the secret as its last segment. */
export function postNuvemshop(url: string, body: unknown, secret = TEST_NUVEMSHOP_SECRET) {
  return fetch(`${url}/checkout/nuvemshop/rates/${secret}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Nuvemshop' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The `POST /v1/rates` calls the sandbox counted since its last reset, every store together. */
export async function platformQuotes(sandbox: RunningSandbox): Promise<number> {
  const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  return Object.values(stats.stores).reduce((sum, routes) => sum + (routes['POST /v1/rates'] ?? 0), 0);
}

/** The platform's own quote of these items, asked directly with the secret key (the truth to compare with). */
export async function directQuote(sandbox: RunningSandbox, cep: string, items: QuoteItem[]) {
  const res = await fetch(`${sandbox.url}/v1/rates`, {
    method: 'POST',
    headers: { authorization: 'Bearer mk_test_demo', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationCep: cep, items }),
  });
  return RatesResponseSchema.parse(await res.json());
}

/** Carts at the conversions' edges (issue 34): a float-drift price, one centavo, 999 units, 50 lines. */
export const EDGE_CARTS: [string, QuoteItem[]][] = [
  ['3 × R$ 19,90', [{ name: 'Meia', quantity: 3, unitPriceBRL: 19.9, weightKg: 0.1 }]],
  ['R$ 0,01', [{ name: 'Adesivo', quantity: 1, unitPriceBRL: 0.01, weightKg: 0.01 }]],
  ['999 units', [{ name: 'Parafuso', quantity: 999, unitPriceBRL: 0.05, weightKg: 0.01 }]],
  [
    '50 lines',
    Array.from({ length: 50 }, (_, i) => ({
      name: `p${i}`,
      quantity: 1,
      unitPriceBRL: 79.9,
      weightKg: 0.05,
    })),
  ],
];
