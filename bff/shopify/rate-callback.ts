import { normalizeCep } from '../../shared/cep.ts';
import type { ShopifyRate, ShopifyRateRequest, ShopifyRatesAnswer } from '../../shared/checkouts/shopify.ts';
import { type Locale, localeOf } from '../../shared/locale.ts';
import { centavos } from '../../shared/money.ts';
import type { QuotedRate } from '../../shared/quote.ts';
import { type CartLine, quoteItemsOf } from '../checkout/cart.ts';
import { arrivalPhrase, shopifyWindow } from '../checkout/promise-times.ts';
import { quoteBefore } from '../checkout/quoting.ts';
import type { QuoteCaller } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';

/** Shopify's callbacks spend one share, the hosted checkout's (every shopper paying through Shopify). */
export const SHOPIFY_CALLER: QuoteCaller = { kind: 'platform', id: 'shopify' };

/**
 * The rates of a Shopify CarrierService request (docs/checkout/shopify.md), answered before `deadlineAt`:
 *
 * 1. a destination outside Brazil or without a CEP, a cart in another currency than BRL (its cents are not
 *    centavos), and a cart with nothing that requires shipping: `rates: []` (Shopify shows no option of this carrier,
 *    and no backup rates);
 * 2. every line that requires shipping, in centavos and grams (`cart.ts`), quoted by the core as Shopify's caller;
 * 3. each rate as an option: `service_code` is the rate's `serviceId`, `total_price` its centavos as a string (zero
 *    only for `free: true`), the promise's dates as min/max. No coverage: `rates: []`.
 *
 * Throws `CheckoutUnavailable` when no price can be given in time (the route answers 503: backup rates).
 */
export async function shopifyRates(
  request: ShopifyRateRequest,
  core: Pick<RatesService, 'shopperQuote'>,
  deadlineAt: number,
): Promise<ShopifyRatesAnswer> {
  const { destination, items } = request.rate;
  const country = destination.country?.trim().toUpperCase();
  const cep = normalizeCep(destination.postal_code ?? '');
  const currency = request.rate.currency?.trim().toUpperCase();
  if ((country && country !== 'BR') || !cep || (currency && currency !== 'BRL')) return { rates: [] };
  const lines: CartLine[] = items
    .filter((item) => item.requires_shipping !== false)
    .map((item) => ({
      name: item.name ?? item.sku ?? '',
      quantity: item.quantity,
      unitCents: item.price,
      unitGrams: item.grams,
    }));
  if (lines.length === 0) return { rates: [] };
  const skus = items.flatMap((item) => (item.sku ? [item.sku] : []));
  const quote = await quoteBefore(
    core,
    { destinationCep: cep, items: quoteItemsOf(lines), skus },
    SHOPIFY_CALLER,
    deadlineAt,
  );
  const locale = localeOf(request.rate.locale) ?? 'pt-BR';
  return { rates: quote.rates.map((rate) => shopifyRateOf(rate, quote.rates, locale)) };
}

function shopifyRateOf(rate: QuotedRate, rates: readonly QuotedRate[], locale: Locale): ShopifyRate {
  const { min, max } = shopifyWindow(rate.promise);
  return {
    service_name: rate.label,
    service_code: rate.serviceId,
    description: arrivalPhrase(rate, rates, locale),
    currency: 'BRL',
    total_price: String(centavos(rate.price)),
    min_delivery_date: min,
    max_delivery_date: max,
  };
}
