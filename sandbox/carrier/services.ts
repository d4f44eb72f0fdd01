import { CONTRACT_SERVICES, type ContractService } from '../../shared/labels/carrier-limits.ts';

/**
 * The one catalog of the carrier's services in the sandbox (Correios facts): every contract product a label can be
 * issued for, and, for the two the calculator quotes, their price table. Labels (`labels/rules.ts`) and quotes
 * (`prices.ts`) both read it. The carrier's limits (weight, declared value) are the shared ones
 * (`shared/labels/carrier-limits.ts`), the same the BFF checks; what is the sandbox's own is here.
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

/** A contract product: its code and limits (shared), tracking prefix and, when quoted, its price table. */
export interface CarrierService extends ContractService {
  /** Business days, for the tracking simulation of a label. */
  days: number;
  trackingPrefix: string;
  prices?: PriceTable;
}

export const CARRIER_SERVICES = {
  '03298': {
    ...CONTRACT_SERVICES['03298'],
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
    ...CONTRACT_SERVICES['03220'],
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
  '03140': { ...CONTRACT_SERVICES['03140'], days: 1, trackingPrefix: 'SZ' },
  '03158': { ...CONTRACT_SERVICES['03158'], days: 1, trackingPrefix: 'SX' },
  '03204': { ...CONTRACT_SERVICES['03204'], days: 1, trackingPrefix: 'SH' },
  '04227': { ...CONTRACT_SERVICES['04227'], days: 8, trackingPrefix: 'NX' },
} as const satisfies Record<keyof typeof CONTRACT_SERVICES, CarrierService>;

/** The service of a contract product code, or `undefined` for a code outside the contract. */
export function carrierService(serviceCode: string): CarrierService | undefined {
  return Object.hasOwn(CARRIER_SERVICES, serviceCode)
    ? CARRIER_SERVICES[serviceCode as keyof typeof CARRIER_SERVICES]
    : undefined;
}
