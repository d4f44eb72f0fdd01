import { roundCents } from '../../shared/money.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import { type Uf, zoneBetween } from './geography.ts';

/** A quotable Correios service. `code` is the display code; `serviceCode` the contract product code (spec 2.2). */
export interface Service {
  serviceCode: '03298' | '03220';
  code: string;
  serviceId: string;
  label: string;
  maxWeightKg: number;
  /** By zone 1–4: price of the first kg, price of each further kg, business days. */
  firstKg: readonly [number, number, number, number];
  extraKg: readonly [number, number, number, number];
  days: readonly [number, number, number, number];
}

export const SERVICES: Record<Service['serviceCode'], Service> = {
  '03298': {
    serviceCode: '03298',
    code: 'PAC',
    serviceId: 'correios-pac',
    label: 'Correios PAC',
    maxWeightKg: 30,
    firstKg: [15.9, 21.5, 26.9, 33.9],
    extraKg: [2.1, 3.4, 4.9, 6.8],
    days: [4, 6, 8, 11],
  },
  '03220': {
    serviceCode: '03220',
    code: 'SEDEX',
    serviceId: 'correios-sedex',
    label: 'Correios SEDEX',
    maxWeightKg: 30,
    firstKg: [19.9, 32.5, 44.9, 58.9],
    extraKg: [3.9, 6.9, 9.9, 13.9],
    days: [1, 2, 3, 5],
  },
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
