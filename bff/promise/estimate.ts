import { businessDaysAfter } from '../../shared/business-days.ts';
import type { Lane } from '../../shared/lanes.ts';
import { coveringDays, type WeightedDays, weightedQuantile } from './quantile.ts';

/**
 * A delivered parcel of the store's history: where it went, its business days in transit, the platform's count it
 * was quoted (`deliveryDays`), the day it arrived.
 */
export interface DeliveredParcel extends Lane {
  days: number;
  platformDays: number;
  endedDay: number;
}

/** A parcel posted and not delivered yet: how long it has been on the way is a lower bound of its transit. */
export interface OpenParcel extends Lane {
  postedDay: number;
  platformDays: number;
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

/** At most this many days between `fromDays` and `toDays` is one date ("chega até …"), beyond it a range. */
export const NARROW_SPREAD_DAYS = 1;

/**
 * The lane's promise from its history: at the narrowest level with `minParcels` parcels delivered in the last
 * `RECENT_DAYS`, the offset from the platform's count that covers `quantile` of them; then raised by the parcels still on the way that have already
 * taken longer (a strike shows in the promise before its parcels arrive). Undefined when no level has enough.
 */
export function estimateLane(
  lane: Lane,
  delivered: readonly DeliveredParcel[],
  open: readonly OpenParcel[],
  options: EstimateOptions,
): LaneEstimate | undefined {
  const { quantile, minParcels, today } = options;
  const since = today - (options.recentDays ?? RECENT_DAYS);
  const least = Math.max(1, minParcels);
  const recent = delivered.filter((parcel) => parcel.endedDay > since);
  for (const level of LANE_LEVELS) {
    const window = recent.filter((parcel) => sameLane(level, lane, parcel));
    if (window.length < least) continue;
    const samples: WeightedDays[] = window.map((parcel) => ({
      days: parcel.days - parcel.platformDays,
      weight: 1,
    }));
    let toOffset = coveringDays(samples, quantile) ?? 0;
    const overdue = open
      .filter((parcel) => sameLane(level, lane, parcel))
      .map((parcel) => businessDaysAfter(parcel.postedDay, today) - parcel.platformDays)
      .filter((offset) => offset > toOffset);
    if (overdue.length > 0) {
      const lower = overdue.map((days) => ({ days, weight: 1 }));
      toOffset = coveringDays([...samples, ...lower], quantile) ?? toOffset;
    }
    const lowest = weightedQuantile(samples, 1 - quantile) ?? toOffset;
    const fromOffset = toOffset - lowest <= NARROW_SPREAD_DAYS ? toOffset : lowest;
    return { level, fromOffset, toOffset, parcels: window.length };
  }
  return undefined;
}
