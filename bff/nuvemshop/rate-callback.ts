import { normalizeCep } from '../../shared/cep.ts';
import type {
  NuvemshopRate,
  NuvemshopRateRequest,
  NuvemshopRatesAnswer,
} from '../../shared/checkouts/nuvemshop.ts';
import { centavos } from '../../shared/money.ts';
import type { QuotedRate } from '../../shared/quote.ts';
import { brlOf, type CartLine, quoteItemsOf } from '../checkout/cart.ts';
import { nuvemshopWindow } from '../checkout/promise-times.ts';
import { quoteBefore } from '../checkout/quoting.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import type { QuoteCaller } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';

/** Nuvemshop's callbacks spend one share, the hosted checkout's. */
export const NUVEMSHOP_CALLER: QuoteCaller = { kind: 'platform', id: 'nuvemshop' };

/** A request the adapter cannot quote: the route answers 422 (Nuvemshop keeps that a minute). */
export class NotQuotable extends Error {
  override readonly name = 'NotQuotable';
}

export function isNotQuotable(error: unknown): error is NotQuotable {
  return error instanceof Error && error.name === 'NotQuotable';
}

interface NuvemshopLine extends CartLine {
  freeShipping: boolean;
}

/**
 * The rates of a Nuvemshop shipping-carrier request (docs/checkout/nuvemshop.md), answered before `deadlineAt`.
 * On product and cart pages only the destination's postal code is sent; that is all a quote needs.
 *
 * - `code` is the rate's `serviceId`, exactly the code of the option `npm run checkout -- register nuvemshop`
 *   created (Nuvemshop drops a rate whose code is no option's); `reference` is the contract `serviceCode` when
 *   `BFF_SERVICE_CODES` maps it, so the paid order names the label's service.
 * - `price_merchant` is the whole cart's price; `price` equals it, except in a mixed cart (some items with
 *   `free_shipping`, some without): then `price` is the price of the items without it, quoted too (Nuvemshop's
 *   guide, "Free Shipping in mixed carts"). A cart all of free-shipping items sends the whole price in both, as the
 *   guide says: Nuvemshop applies the discount itself.
 * - No CEP, a CEP that is not one, another currency or country, no items: `NotQuotable` (422).
 *
 * Throws `CheckoutUnavailable` when no price can be given in time (the route answers 503).
 */
export async function nuvemshopRates(
  request: NuvemshopRateRequest,
  deps: { rates: Pick<RatesService, 'shopperQuote'>; serviceCodes: ServiceCodes },
  deadlineAt: number,
): Promise<NuvemshopRatesAnswer> {
  const { destination, items, currency } = request;
  const cep = normalizeCep(destination.postal_code ?? '');
  if (!cep) throw new NotQuotable('destination.postal_code must be a CEP of 8 digits');
  const country = destination.country?.trim().toUpperCase();
  if (country && country !== 'BR') throw new NotQuotable('only destinations in Brazil (BR) are quoted');
  if (currency && currency.toUpperCase() !== 'BRL') throw new NotQuotable('only BRL carts are quoted');
  if (items.length === 0) throw new NotQuotable('items: the cart is empty');
  const lines: NuvemshopLine[] = items.map((item) => ({
    name: item.name ?? item.sku ?? '',
    quantity: item.quantity,
    unitCents: centavos(item.price),
    unitGrams: Math.round(item.grams),
    freeShipping: item.free_shipping === true,
  }));
  const paid = lines.filter((line) => !line.freeShipping);
  const mixed = paid.length > 0 && paid.length < lines.length;
  // The shipping rules read the whole cart's SKUs, for both asks: the rule that applies is the cart's.
  const skus = items.flatMap((item) => (item.sku ? [item.sku] : []));
  const ask = (of: readonly CartLine[]) =>
    quoteBefore(
      deps.rates,
      { destinationCep: cep, items: quoteItemsOf(of), skus },
      NUVEMSHOP_CALLER,
      deadlineAt,
    );
  const [whole, shopperPart] = await Promise.all([ask(lines), mixed ? ask(paid) : undefined]);
  return {
    rates: whole.rates.map((rate) => {
      const partial = shopperPart?.rates.find((candidate) => candidate.serviceId === rate.serviceId);
      const merchantCents = centavos(rate.price);
      const shopperCents = partial ? Math.min(centavos(partial.price), merchantCents) : merchantCents;
      return nuvemshopRateOf(rate, shopperCents, merchantCents, deps.serviceCodes);
    }),
  };
}

function nuvemshopRateOf(
  rate: QuotedRate,
  shopperCents: number,
  merchantCents: number,
  serviceCodes: ServiceCodes,
): NuvemshopRate {
  const { min, max } = nuvemshopWindow(rate.promise);
  return {
    name: rate.label,
    code: rate.serviceId,
    price: brlOf(shopperCents),
    price_merchant: brlOf(merchantCents),
    currency: 'BRL',
    type: 'ship',
    min_delivery_date: min,
    max_delivery_date: max,
    reference: serviceCodes.codeOf(rate.serviceId) ?? rate.serviceId,
  };
}
