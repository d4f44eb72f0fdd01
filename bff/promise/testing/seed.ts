import { isBusinessDay, saoPauloDay } from '../../../shared/business-days.ts';
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

const DAY_MS = 86_400_000;

/** The business day `count` business days before `day`. */
function businessDaysBefore(day: number, count: number): number {
  let at = day;
  for (let left = count; left > 0; ) {
    at -= 1;
    if (isBusinessDay(at)) left -= 1;
  }
  return at;
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
  // Delivered on the last business day three days ago or before; labelled and posted (10 h, São Paulo) its transit
  // days earlier, so the dates agree with the days (the promise counts from the label's date).
  const endedDay = businessDaysBefore(today - 2, 1);
  const labelDay = (i: number) => businessDaysBefore(endedDay, options.transitDays(i));
  const parcels = Array.from({ length: options.count }, (_, i) => ({
    attemptId: `${options.name}-${i}`,
    trackingCode: `QB${String(50_000_000 + ++serial).padStart(8, '0')}5BR`,
    origin: '01310',
    serviceId: options.serviceId ?? 'correios-pac',
    lane,
    createdAt: labelDay(i) * DAY_MS + 13 * 3_600_000,
    createdDay: labelDay(i),
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
        postedDay: parcel.createdDay,
        endedDay,
        transitDays: options.transitDays(i),
        ...(options.lateDays ? { lateDays: options.lateDays(i) } : {}),
      },
      options.now,
    );
  return parcels.map((parcel) => parcel.attemptId);
}
