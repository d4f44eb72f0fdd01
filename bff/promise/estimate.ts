import type { Lane } from '../../shared/lanes.ts';
import { coveringDays, type WeightedDays, weightedQuantile } from './quantile.ts';
import { businessDaysAfter } from './transit.ts';

/** A delivered parcel of the store's history: where it went, its business days in transit, the day it arrived. */
export interface DeliveredParcel extends Lane {
  days: number;
  endedDay: number;
}

/** A parcel posted and not delivered yet: how long it has been on the way is a lower bound of its transit. */
export interface OpenParcel extends Lane {
  postedDay: number;
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

/** What a lane's history promises, in the carrier's business days after posting. */
export interface LaneEstimate {
  level: LaneLevel;
  /** The earliest day of the range (the `1 − quantile` share of parcels arrives sooner); equal to `toDays` for one date. */
  fromDays: number;
  /** The promised day: covers `quantile` of the lane's parcels (with the confidence margin of `coveringDays`). */
  toDays: number;
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
 * The promise rests on the parcels delivered in the last 60 days — or, where fewer, on the lane's `minParcels` most
 * recent ones, however old. A lane whose times shift (a strike, a new sorting centre) is promised from what it does
 * now, and its promise comes back down once the shift has left the window (estimate.test.ts: "follows a strike").
 * Equal weights: each parcel in the window counts once, so the confidence margin of `coveringDays` is in parcels.
 */
export const RECENT_DAYS = 60;

/** At most this many days between `fromDays` and `toDays` is one date ("chega até …"), beyond it a range. */
export const NARROW_SPREAD_DAYS = 1;

/**
 * The lane's promise from its history: at the narrowest level with `minParcels` delivered parcels, the business days
 * that cover `quantile` of its recent ones (`RECENT_DAYS`); then raised by the parcels still on the way that have already
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
  for (const level of LANE_LEVELS) {
    const mine = delivered.filter((parcel) => sameLane(level, lane, parcel));
    if (mine.length < least) continue;
    const recent = mine.filter((parcel) => parcel.endedDay > since);
    const window =
      recent.length >= least ? recent : [...mine].sort((a, b) => b.endedDay - a.endedDay).slice(0, least);
    const samples: WeightedDays[] = window.map((parcel) => ({ days: parcel.days, weight: 1 }));
    let toDays = coveringDays(samples, quantile) ?? 0;
    const overdue = open
      .filter((parcel) => sameLane(level, lane, parcel))
      .map((parcel) => businessDaysAfter(parcel.postedDay, today))
      .filter((days) => days > toDays);
    if (overdue.length > 0) {
      toDays =
        coveringDays([...samples, ...overdue.map((days) => ({ days, weight: 1 }))], quantile) ?? toDays;
    }
    const lowest = weightedQuantile(samples, 1 - quantile) ?? toDays;
    const fromDays = toDays - lowest <= NARROW_SPREAD_DAYS ? toDays : lowest;
    return { level, fromDays, toDays, parcels: window.length };
  }
  return undefined;
}
