import { addBusinessDays, civilDate, isoDate } from './business-days.ts';
import type { DeliveryPromise } from './delivery-promise.ts';
import { centavos } from './money.ts';
import type { QuoteItem, Rate } from './quote.ts';
import type { Rule, RuleWhen } from './shipping-rules.ts';
import { ufOfCep } from './uf.ts';

/**
 * What the shopper is charged for each option the platform quoted: the one evaluator of the free-shipping rule and
 * of the merchant's shipping rules (ARCHITECTURE.md, "Shipping rules"), run by the calculator in the shopper's
 * browser and by the BFF's quote core for verify, every checkout and MCP, so every surface shows the same price.
 * It ships in the calculator: pure, small, no zod (types only).
 *
 * Rules are read as `parseRules` keeps them (CEP ranges as 8 digits). In order, for each rate:
 * 1. The free-shipping rule (spec 4.1 rule 1, 2.2): `free: true` is charged zero whatever its `price`; a price of
 *    zero or less (or no number) without `free: true` is not offered (a checkout would charge nothing while the
 *    carrier bills the store).
 * 2. Every rule whose `when` holds, in the merchant's order: `hide` drops the option (and ends its rules); `label`
 *    renames it; `extraDays` adds business days; `free`, `priceBRL` and the markup set the price (percent first, then
 *    BRL, rounded half-up to the centavo), except on a rate the platform itself made free, which stays free.
 * 3. A price a rule brought to zero or less is free shipping: `price: 0, free: true`, never a zero without `free`.
 *
 * With no rules a rate keeps the platform's price exactly (the free-shipping rule aside).
 */

/** The cart a quote is for, as the rules read it. */
export interface RuleCart {
  destinationCep: string;
  /** As parsed (`QuoteItemSchema` or the widget's validator): a missing `weightKg` is already the default. */
  items: readonly Pick<QuoteItem, 'quantity' | 'unitPriceBRL' | 'weightKg'>[];
  /** The cart's SKUs, where the surface knows them (the checkouts'; the calculator's `skus` attribute). */
  skus?: readonly string[] | undefined;
}

/**
 * The options of a quote as the shopper is charged for them, in the platform's order. What the platform will bill the
 * merchant (its `price`) and the days the rules added are read beside the platform's own rate (same `serviceId`).
 */
export function chargeRates(rates: readonly Rate[], cart: RuleCart, rules: readonly Rule[] = []): Rate[] {
  const cep = cart.destinationCep.replace(/\D/g, '');
  let subtotal = 0;
  let grams = 0;
  for (const item of cart.items) {
    subtotal += item.quantity * centavos(item.unitPriceBRL);
    grams += item.quantity * Math.round(item.weightKg * 1000);
  }
  const uf = ufOfCep(cep);
  const holds = (when: RuleWhen, serviceId: string) =>
    (!when.ufs || when.ufs.includes(uf as never)) &&
    (!when.cepRanges || when.cepRanges.some(([from, to]) => from <= cep && cep <= to)) &&
    (when.minSubtotalBRL === undefined || subtotal >= centavos(when.minSubtotalBRL)) &&
    (when.maxWeightKg === undefined || grams <= Math.round(when.maxWeightKg * 1000)) &&
    (!when.services || when.services.includes(serviceId)) &&
    (!when.skus || when.skus.some((sku) => cart.skus?.includes(sku)));
  const charged: Rate[] = [];
  offered: for (const rate of rates) {
    const platformFree = rate.free === true;
    if (!platformFree && !(rate.price > 0)) continue;
    let cents: number | undefined;
    let label = rate.label;
    let extraDays = 0;
    for (const { when, then } of rules) {
      if (when && !holds(when, rate.serviceId)) continue;
      if (then.hide) continue offered;
      if (then.label !== undefined) label = then.label;
      else if (then.extraDays !== undefined) extraDays += then.extraDays;
      else if (platformFree) continue;
      else if (then.free) cents = 0;
      else if (then.priceBRL !== undefined) cents = centavos(then.priceBRL);
      else
        cents = centavos(
          ((cents ?? centavos(rate.price)) * (1 + (then.markupPercent ?? 0) / 100)) / 100 +
            (then.markupBRL ?? 0),
        );
    }
    const free = platformFree || (cents !== undefined && cents <= 0);
    charged.push({
      ...rate,
      label,
      deliveryDays: rate.deliveryDays + extraDays,
      price: free ? 0 : cents === undefined ? rate.price : cents / 100,
      ...(free ? { free: true } : {}),
    });
  }
  return charged;
}

/** A promise `days` business days later (a rule's `extraDays`), its basis and parcels kept. */
export function laterPromise(promise: DeliveryPromise, days: number): DeliveryPromise {
  if (days <= 0) return promise;
  const later = (date: string) => isoDate(civilDate(addBusinessDays(Date.parse(date) / 86_400_000, days)));
  return { ...promise, from: later(promise.from), to: later(promise.to) };
}
