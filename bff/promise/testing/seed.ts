import { saoPauloDay } from '../../../shared/business-days.ts';
import type { DeliveryPromise } from '../../../shared/delivery-promise.ts';
import { laneOf } from '../../../shared/lanes.ts';
import type { SqlRunner } from '../../../shared/sql/sql.ts';
import type { TransitHistory } from '../history-store.ts';

export interface SeedOptions {
  /** The lane's destination CEP. */
  cep: string;
  count: number;
  /** Business days each parcel took (by its index). */
  transitDays: (i: number) => number;
  /** The score against its promise, business days late (negative: early); none: not scored. */
  lateDays?: (i: number) => number;
  promise?: DeliveryPromise;
  serviceId?: string;
  platformDays?: number;
  /** Names the rows apart (`<name>-<i>`) and their tracking codes. */
  name: string;
  /** The clock the parcels are placed by: delivered a few days before its day. */
  now: number;
}

let serial = 0;

/**
 * Writes `count` delivered parcels of one lane into the history, as the watcher would have learnt them: the store's
 * past deliveries a test's promise rests on. Answers their attempt ids.
 */
export async function seedDelivered(
  backends: { transits: TransitHistory; sql: SqlRunner },
  options: SeedOptions,
): Promise<string[]> {
  const lane = laneOf(options.cep);
  if (!lane) throw new Error(`no lane for ${options.cep}`);
  const today = saoPauloDay(options.now).day;
  const parcels = Array.from({ length: options.count }, (_, i) => ({
    attemptId: `${options.name}-${i}`,
    trackingCode: `QB${String(50_000_000 + ++serial).padStart(8, '0')}5BR`,
    origin: '01310',
    serviceId: options.serviceId ?? 'correios-pac',
    lane,
    createdAt: options.now - 12 * 86_400_000,
    createdDay: today - 12,
    promise: options.promise,
    platformDays: options.platformDays ?? 6,
  }));
  await backends.transits.start(parcels, options.now);
  for (const [i, parcel] of parcels.entries())
    await backends.transits.change(
      backends.sql,
      parcel.attemptId,
      {
        outcome: 'delivered',
        postedDay: today - 10,
        endedDay: today - 3,
        transitDays: options.transitDays(i),
        ...(options.lateDays ? { lateDays: options.lateDays(i) } : {}),
      },
      options.now,
    );
  return parcels.map((parcel) => parcel.attemptId);
}
