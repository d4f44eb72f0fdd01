import * as z from 'zod/mini';
import { arrivalDate, isoDate, MAX_ARRIVAL_BUSINESS_DAYS } from './business-days.ts';

/**
 * The delivery promise a rate carries wherever the kit shows a date (ARCHITECTURE.md, "Delivery promise and the test
 * clock"): São Paulo calendar dates, the store's handling days and cut-off already in front. `basis` says where the
 * carrier's part came from: the store's own delivered parcels on that lane (`history`) or the platform's
 * `deliveryDays` (`platform`); `parcels` is how many delivered parcels the promise rests on (0 for `platform`).
 */
export const DeliveryPromiseSchema = /* @__PURE__ */ z.strictObject({
  from: z.iso.date().check(z.describe('Earliest arrival date (YYYY-MM-DD, São Paulo).')),
  to: z.iso
    .date()
    .check(z.describe('Latest arrival date (YYYY-MM-DD, São Paulo); equal to `from` for one date.')),
  basis: z
    .enum(['history', 'platform'])
    .check(
      z.describe(
        'history: learned from the store\u2019s delivered parcels; platform: the platform\u2019s deliveryDays.',
      ),
    ),
  parcels: z.int().check(z.gte(0), z.describe('Delivered parcels the promise rests on (0 for platform).')),
});
export type DeliveryPromise = z.infer<typeof DeliveryPromiseSchema>;

/** What a promise is asked for: one rate of one quote. */
export interface PromiseInput {
  destinationCep: string;
  /** The rate's `serviceId` (the lane's service). */
  serviceId: string;
  /** The platform's `deliveryDays` for this rate (the fallback). */
  deliveryDays: number;
  /** The instant of the quote (epoch ms). */
  at: number;
}

/**
 * The port every surface asks for a rate's promise (the quote core, the tracking page, e-mails). The platform's
 * count is `PlatformPromises`; a store's history plugs in behind the same port.
 */
export interface DeliveryPromises {
  promiseFor(input: PromiseInput): Promise<DeliveryPromise>;
}

/** The store's own days in front of the carrier's: handling days and the São Paulo cut-off (minutes after midnight). */
export interface StoreDays {
  handlingDays?: number;
  cutoffMinutes?: number;
}

export { isoDate };

/**
 * The platform's promise: one date, the latest arrival as the calculator has always shown it (`arrivalDate`: posted
 * the first business day it can be, plus handling days, plus the platform's `deliveryDays`).
 */
export function platformPromise(
  input: Omit<PromiseInput, 'destinationCep' | 'serviceId'>,
  store: StoreDays,
): DeliveryPromise {
  const deliveryDays = Math.min(input.deliveryDays, MAX_ARRIVAL_BUSINESS_DAYS);
  const date = isoDate(
    arrivalDate({
      now: input.at,
      deliveryDays,
      ...(store.handlingDays !== undefined ? { handlingDays: store.handlingDays } : {}),
      ...(store.cutoffMinutes !== undefined ? { cutoffMinutes: store.cutoffMinutes } : {}),
    }),
  );
  return { from: date, to: date, basis: 'platform', parcels: 0 };
}

/** `DeliveryPromises` from the platform's count alone (no history, or history turned off). */
export class PlatformPromises implements DeliveryPromises {
  private readonly store: StoreDays;
  constructor(store: StoreDays = {}) {
    this.store = store;
  }
  async promiseFor(input: PromiseInput): Promise<DeliveryPromise> {
    return platformPromise(input, this.store);
  }
}
