/**
 * The one catalog of the carrier's services in the sandbox (Correios facts): every contract product a label can be
 * issued for, and, for the two the calculator quotes, their price table. Labels (`labels/rules.ts`) and quotes
 * (`prices.ts`) both read it.
 */

/** By zone 1–4: price of the first kg, price of each further kg, business days (spec 2.2 rates). */
export interface PriceTable {
  /** The display code of a rate (`PAC`), never the contract product code. */
  code: string;
  serviceId: string;
  label: string;
  firstKg: readonly [number, number, number, number];
  extraKg: readonly [number, number, number, number];
  days: readonly [number, number, number, number];
}

/** A contract product: its code, limits, tracking prefix and, when quoted, its price table. */
export interface CarrierService {
  serviceCode: string;
  name: string;
  maxWeightGrams: number;
  /** Business days, for the tracking simulation of a label. */
  days: number;
  trackingPrefix: string;
  prices?: PriceTable;
}

export const CARRIER_SERVICES = {
  '03298': {
    serviceCode: '03298',
    name: 'PAC',
    maxWeightGrams: 30_000,
    days: 6,
    trackingPrefix: 'QB',
    prices: {
      code: 'PAC',
      serviceId: 'correios-pac',
      label: 'Correios PAC',
      firstKg: [15.9, 21.5, 26.9, 33.9],
      extraKg: [2.1, 3.4, 4.9, 6.8],
      days: [4, 6, 8, 11],
    },
  },
  '03220': {
    serviceCode: '03220',
    name: 'SEDEX',
    maxWeightGrams: 30_000,
    days: 2,
    trackingPrefix: 'SS',
    prices: {
      code: 'SEDEX',
      serviceId: 'correios-sedex',
      label: 'Correios SEDEX',
      firstKg: [19.9, 32.5, 44.9, 58.9],
      extraKg: [3.9, 6.9, 9.9, 13.9],
      days: [1, 2, 3, 5],
    },
  },
  '03140': { serviceCode: '03140', name: 'SEDEX 12', maxWeightGrams: 10_000, days: 1, trackingPrefix: 'SZ' },
  '03158': { serviceCode: '03158', name: 'SEDEX 10', maxWeightGrams: 10_000, days: 1, trackingPrefix: 'SX' },
  '03204': {
    serviceCode: '03204',
    name: 'SEDEX Hoje',
    maxWeightGrams: 10_000,
    days: 1,
    trackingPrefix: 'SH',
  },
  '04227': { serviceCode: '04227', name: 'Mini Envios', maxWeightGrams: 300, days: 8, trackingPrefix: 'NX' },
} as const satisfies Record<string, CarrierService>;

/** The service of a contract product code, or `undefined` for a code outside the contract. */
export function carrierService(serviceCode: string): CarrierService | undefined {
  return Object.hasOwn(CARRIER_SERVICES, serviceCode)
    ? CARRIER_SERVICES[serviceCode as keyof typeof CARRIER_SERVICES]
    : undefined;
}
