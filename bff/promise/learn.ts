import { businessDaysAfter, saoPauloDay } from '../../shared/business-days.ts';
import type { ParcelStatus } from '../../shared/parcel-status.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { TransitChange, TransitRow } from './history-store.ts';
import { MAX_TRANSIT_DAYS, transitOf } from './transit.ts';

const DAY_MS = 86_400_000;

/** The day number of a `YYYY-MM-DD` date. */
export function dayOfIso(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

/** Business days a delivery came after the promised day (negative: before it; 0: on the day). */
export function lateDays(promisedDay: number, deliveredDay: number): number {
  return deliveredDay >= promisedDay
    ? businessDaysAfter(promisedDay, deliveredDay)
    : -businessDaysAfter(deliveredDay, promisedDay);
}

/**
 * What one look at a parcel teaches its history: the day it was posted (the first one seen stays), the day it was
 * delivered or returned, its transit in business days when it can be believed (posted no later than delivered, at
 * most `MAX_TRANSIT_DAYS`), and its score against the promise it was sold with. A returned parcel is an outcome, not a
 * delivery: it teaches no transit time and is not scored. A parcel whose history has ended learns nothing more (a
 * duplicated or replayed delivery changes nothing).
 */
export function learnFrom(row: TransitRow, result: TrackingResult, at: number): TransitChange {
  if (row.outcome !== 'open') return {};
  const look = transitOf(result, saoPauloDay(at).day, row.createdDay);
  const change: TransitChange = {};
  const posted = row.postedDay ?? look.postedDay;
  if (row.postedDay === null && look.postedDay !== undefined) change.postedDay = look.postedDay;
  if (!look.ended) return change;
  change.outcome = look.ended.outcome;
  change.endedDay = look.ended.day;
  if (look.ended.outcome !== 'delivered') return change;
  if (posted !== undefined && posted <= look.ended.day) {
    const days = businessDaysAfter(posted, look.ended.day);
    if (days <= MAX_TRANSIT_DAYS) change.transitDays = days;
  }
  if (row.promisedTo) change.lateDays = lateDays(dayOfIso(row.promisedTo), look.ended.day);
  return change;
}

/** The statuses of a parcel that will not arrive today: it is not out for delivery nor waiting at a unit. */
const STILL_ON_THE_WAY: readonly ParcelStatus[] = [
  'no-events',
  'posted',
  'in-transit',
  'problem',
  'not-found',
];

/** From this time of the promised day (São Paulo, minutes after midnight), a parcel not out for delivery is late. */
export const PROMISE_MORNING_MINUTES = 10 * 60;

/**
 * Whether the promise a parcel was sold with is about to be broken: on the promised day's morning (10 h São Paulo, when
 * the day's deliveries have gone out) or later, it is still on the way, and nobody was told yet.
 */
export function promiseAtRisk(row: TransitRow, status: ParcelStatus, at: number): boolean {
  if (row.outcome !== 'open' || !row.promisedTo || row.atRiskAt !== null) return false;
  if (!STILL_ON_THE_WAY.includes(status)) return false;
  const promisedDay = dayOfIso(row.promisedTo);
  const morning = saoPauloDay(promisedDay * DAY_MS + 12 * 3_600_000).start + PROMISE_MORNING_MINUTES * 60_000;
  return at >= morning;
}
