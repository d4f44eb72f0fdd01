import { roundCents } from '../../shared/money.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import type { Uf } from '../../shared/uf.ts';
import { zoneBetween } from './geography.ts';
import type { CarrierService, PriceTable } from './services.ts';

/** A service the calculator quotes (spec 2.2): a contract product of the one catalog with a price table. */
type QuotedService = CarrierService & { prices: PriceTable };

/** Σ quantity × weightKg (the weight defaults to 0.3 kg per unit, spec 2.1). */
export function totalWeightKg(items: readonly QuoteItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.weightKg, 0);
}

/** Σ quantity × unitPriceBRL: the subtotal free-shipping rules look at. */
export function subtotalBRL(items: readonly QuoteItem[]): number {
  return roundCents(items.reduce((sum, item) => sum + item.quantity * item.unitPriceBRL, 0));
}

/**
 * The carrier's count for a service between two states (the `deliveryDays` a quote answers): its price table's by
 * zone, or the service's own for a contract product the calculator does not quote.
 */
export function deliveryDaysOf(service: CarrierService, origin: Uf, destination: Uf): number {
  if (!service.prices) return service.days;
  return service.prices.days[zoneBetween(origin, destination) - 1] ?? service.days;
}

/** The carrier's price and deadline for one service, or `undefined` when the package is over its limits. */
export function priceService(
  service: QuotedService,
  origin: Uf,
  destination: Uf,
  weightKg: number,
): Rate | undefined {
  if (weightKg > service.maxWeightGrams / 1000) return undefined;
  const { prices } = service;
  const zone = zoneBetween(origin, destination) - 1;
  const extraKgs = Math.max(0, Math.ceil(weightKg) - 1);
  const price = roundCents((prices.firstKg[zone] ?? 0) + extraKgs * (prices.extraKg[zone] ?? 0));
  return {
    code: prices.code,
    serviceId: prices.serviceId,
    label: prices.label,
    deliveryDays: deliveryDaysOf(service, origin, destination),
    price,
  };
}
