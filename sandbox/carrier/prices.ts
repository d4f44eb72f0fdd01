import { roundCents } from '../../shared/money.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import { type Uf, zoneBetween } from './geography.ts';
import { CARRIER_SERVICES, type PriceTable } from './services.ts';

/** A quotable Correios service: a price table of the catalog with its contract code and weight limit (spec 2.2). */
export interface Service extends PriceTable {
  serviceCode: QuotedServiceCode;
  maxWeightKg: number;
}

type QuotedServiceCode = '03298' | '03220';

function quoted(serviceCode: QuotedServiceCode): Service {
  const service = CARRIER_SERVICES[serviceCode];
  return { serviceCode, maxWeightKg: service.maxWeightGrams / 1000, ...service.prices };
}

/** The services the sandbox quotes, from the one catalog (`services.ts`). */
export const SERVICES: Record<QuotedServiceCode, Service> = {
  '03298': quoted('03298'),
  '03220': quoted('03220'),
};

/** Σ quantity × weightKg (the weight defaults to 0.3 kg per unit, spec 2.1). */
export function totalWeightKg(items: readonly QuoteItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.weightKg, 0);
}

/** Σ quantity × unitPriceBRL: the subtotal free-shipping rules look at. */
export function subtotalBRL(items: readonly QuoteItem[]): number {
  return roundCents(items.reduce((sum, item) => sum + item.quantity * item.unitPriceBRL, 0));
}

/** The carrier's price and deadline for one service, or `undefined` when the package is over its limits. */
export function priceService(
  service: Service,
  origin: Uf,
  destination: Uf,
  weightKg: number,
): Rate | undefined {
  if (weightKg > service.maxWeightKg) return undefined;
  const zone = zoneBetween(origin, destination) - 1;
  const extraKgs = Math.max(0, Math.ceil(weightKg) - 1);
  const price = roundCents((service.firstKg[zone] ?? 0) + extraKgs * (service.extraKg[zone] ?? 0));
  return {
    code: service.code,
    serviceId: service.serviceId,
    label: service.label,
    deliveryDays: service.days[zone] ?? 0,
    price,
  };
}
