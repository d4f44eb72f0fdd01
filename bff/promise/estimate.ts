import { businessDaysAfter, firstPostingDay, isBusinessDay } from '../../shared/business-days.ts';
import type { StoreDays } from '../../shared/delivery-promise.ts';
import type { Lane } from '../../shared/lanes.ts';
import { coveringDays, keptAtLeast, type WeightedDays, weightedQuantile } from './quantile.ts';

/**
 * A delivered parcel of the store's history: where it went, its business days in transit, the platform's count it
 * was quoted (`deliveryDays`), the day it arrived.
 */
export interface DeliveredParcel extends Lane {
  days: number;
  platformDays: number;
  endedDay: number;
  /** The instant of its label (epoch ms): the promise is learnt from the label's date, as it is given from it. */
  labelledAt?: number | undefined;
}

/** A parcel posted and not delivered yet: how long it has been on the way is a lower bound of its transit. */
export interface OpenParcel extends Lane {
  postedDay: number;
  platformDays: number;
  labelledAt?: number | undefined;
}

/**
 * The lane levels, narrowest first: the destination's 3-digit CEP prefix, its state's capital or interior, its state,
 * its region. A promise rests on the narrowest level with enough delivered parcels (`BFF_PROMISE_MIN_PARCELS`).
 */
export const LANE_LEVELS = ['prefix', 'area', 'uf', 'region'] as const;
export type LaneLevel = (typeof LANE_LEVELS)[number];

/** Whether two destinations share a lane at `level`. */
export function sameLane(level: LaneLevel, a: Lane, b: Lane): boolean {
  if (level === 'prefix') return a.prefix === b.prefix;
  if (level === 'area') return a.uf === b.uf && a.area === b.area;
  if (level === 'uf') return a.uf === b.uf;
  return a.region === b.region;
}

/**
 * What a lane's history promises, in business days against the platform's count (`deliveryDays`): what its parcels
 * took beyond (or short of) what they were quoted. Learning the difference, not the days, lets a wider level pool
 * lanes the platform quotes differently (São Paulo's 4 days beside Minas Gerais' 6) without mixing their speeds.
 */
export interface LaneEstimate {
  level: LaneLevel;
  /** The range's start (the `1 − quantile` share of parcels arrives sooner); equal to `toOffset` for one date. */
  fromOffset: number;
  /** The promised day: covers `quantile` of the lane's parcels (with the confidence margin of `coveringDays`). */
  toOffset: number;
  /** Delivered parcels it rests on (those of the window). */
  parcels: number;
}

export interface EstimateOptions {
  /** The share of parcels the promised date must cover (`BFF_PROMISE_QUANTILE`, default 0.95). */
  quantile: number;
  /** Fewer delivered parcels at every level → no estimate (`BFF_PROMISE_MIN_PARCELS`, default 30). */
  minParcels: number;
  /** Today's day number (São Paulo): the window of recent parcels ends here. */
  today: number;
  /** How far back the window of recent parcels reaches (default `RECENT_DAYS`). */
  recentDays?: number;
  /** The store's handling days and cut-off: what a promise puts in front of the carrier's days (default none). */
  storeDays?: StoreDays;
}

/**
 * The promise rests on the parcels delivered in the last 90 days: a lane whose times shift (a strike, a new sorting
 * centre) is promised from what it does now, and its promise comes back down once the shift has left the window
 * (estimate.test.ts: "follows a strike"). A lane with fewer than `minParcels` of them backs off to a wider one, where
 * recent parcels are more (measured: resting instead on a thin lane's 30 most recent parcels, however old, kept a
 * strike in its promise for months). Equal weights: each parcel in the window counts once, so the confidence margin
 * of `coveringDays` is in parcels.
 */
export const RECENT_DAYS = 90;

/**
 * The whole business days from a label's first posting day (its day before the cut-off, else the next business day:
 * where `arrivalDate` counts from) to `day`: the least count whose promise `day` keeps (a Saturday delivery counts
 * to the Monday).
 */
export function daysFromLabel(labelledAt: number, day: number, cutoffMinutes?: number): number {
  const posting = firstPostingDay(labelledAt, cutoffMinutes);
  if (day <= posting) return 0;
  return businessDaysAfter(posting, day) + (isBusinessDay(day) ? 0 : 1);
}

/**
 * The lane's promise from its history: at the narrowest level with `minParcels` parcels delivered in the last
 * `RECENT_DAYS`, the offset from the platform's promise that covers `quantile` of them; then raised by the parcels
 * still on the way that have already taken longer (a strike shows in the promise before its parcels arrive).
 * Undefined when no level has enough.
 *
 * Offsets are counted from each parcel's label, as the promise is (the platform's count with the store's handling
 * days in front, cut-off applied: offset 0 is the platform's own promise), so the days the store usually posts
 * sooner than its handling days allow are not promised again (bench figure 14: learnt from the posting, the promise
 * was kept by being a day longer). A parcel without its label's instant counts from its posting, as if posted on the
 * last handling day. Where the platform's own promise is kept by `quantile` of the lane's parcels beyond a sample's
 * doubt (`keptAtLeast`, the overdue ones counted as broken), the promise is never later than it; one date where
 * `quantile` of them arrived on the promised day or the business day before, beyond the same doubt, else a range.
 * Both are judged so because the window is small: capped on the share it showed, a lane whose platform keeps 93 %
 * was promised the platform's day whenever 34 of its 35 parcels kept it (bench figure 14: SP capital SEDEX kept
 * 94.9 %, and one date 91–93 %).
 */
export function estimateLane(
  lane: Lane,
  delivered: readonly DeliveredParcel[],
  open: readonly OpenParcel[],
  options: EstimateOptions,
): LaneEstimate | undefined {
  const { quantile, minParcels, today, storeDays = {} } = options;
  const handling = Math.max(0, Math.ceil(storeDays.handlingDays ?? 0));
  const since = today - (options.recentDays ?? RECENT_DAYS);
  const least = Math.max(1, minParcels);
  const recent = delivered.filter((parcel) => parcel.endedDay > since);
  const offsetOf = (parcel: DeliveredParcel) =>
    parcel.labelledAt === undefined
      ? parcel.days - parcel.platformDays
      : daysFromLabel(parcel.labelledAt, parcel.endedDay, storeDays.cutoffMinutes) -
        handling -
        parcel.platformDays;
  const openOffsetOf = (parcel: OpenParcel) =>
    parcel.labelledAt === undefined
      ? businessDaysAfter(parcel.postedDay, today) - parcel.platformDays
      : daysFromLabel(parcel.labelledAt, today, storeDays.cutoffMinutes) - handling - parcel.platformDays;
  for (const level of LANE_LEVELS) {
    const window = recent.filter((parcel) => sameLane(level, lane, parcel));
    if (window.length < least) continue;
    const offsets = window.map(offsetOf);
    const samples: WeightedDays[] = offsets.map((days) => ({ days, weight: 1 }));
    let toOffset = coveringDays(samples, quantile) ?? 0;
    const onTheWay = open.filter((parcel) => sameLane(level, lane, parcel)).map(openOffsetOf);
    const overdue = onTheWay.filter((offset) => offset > toOffset);
    if (overdue.length > 0) {
      const lower = overdue.map((days) => ({ days, weight: 1 }));
      toOffset = coveringDays([...samples, ...lower], quantile) ?? toOffset;
    }
    const broken = onTheWay.filter((offset) => offset > 0).length;
    const keptPlatform = countOf(offsets, (offset) => offset <= 0);
    if (keptAtLeast(keptPlatform, offsets.length + broken) >= quantile) toOffset = Math.min(toOffset, 0);
    // The range's start assumes the store posts at once (its handling days are a most): from the posting.
    const posted = window.map((parcel) => ({ days: parcel.days - parcel.platformDays, weight: 1 }));
    const lowest = weightedQuantile(posted, 1 - quantile) ?? toOffset;
    // One date counts the parcels on the way already past it as missing it.
    const past = onTheWay.filter((offset) => offset > toOffset).length;
    const onOneDate = countOf(offsets, (offset) => offset <= toOffset && offset >= toOffset - 1);
    const single = keptAtLeast(onOneDate, offsets.length + past) >= quantile;
    // Not one date: more than the `1 − quantile` share arrives before the day before, so the range starts earlier.
    const fromOffset = single ? toOffset : Math.min(lowest, toOffset - 2);
    return { level, fromOffset, toOffset, parcels: window.length };
  }
  return undefined;
}

/** How many of `values` `test` holds for. */
function countOf(values: readonly number[], test: (value: number) => boolean): number {
  return values.filter(test).length;
}
