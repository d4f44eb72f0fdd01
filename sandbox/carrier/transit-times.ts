import { businessDaysAfter, civilDate, isBusinessDay, saoPauloDay } from '../../shared/business-days.ts';
import { type Lane, laneOf, regionOf } from '../../shared/lanes.ts';
import { seededRandom } from '../../shared/seeded-random.ts';
import type { Uf } from '../../shared/uf.ts';
import { HOUR_MS } from './clock.ts';
import { hash, type PlannedEvent, plannedBetween, type RouteEnds } from './tracking.ts';

/**
 * How long the simulated carrier really takes, per lane and service, so that a delivery promise learnt from its
 * parcels can be measured against a known truth (sandbox/README.md, "Transit times"). The quoted `deliveryDays` stay
 * the platform's table (prices.ts); what a parcel does is drawn, from its tracking code (the same on every run), from
 * its lane's profile:
 *
 * - **on time**: most parcels within the platform's count, a tail one or two days late (the count is kept ~90 %);
 * - **early**: consistently one to three days early (kept 100 %, with days to spare);
 * - **late**: mostly one to three days late, a few five (kept ~15 %).
 *
 * On top of the profile, the calendar: the carrier moves on business days only (weekends and national holidays,
 * shared/business-days.ts), stops for a strike week every year, and runs a day late for `PEAK_SHARE` of the parcels
 * posted in the peak season (Black Friday to Christmas).
 */

export type Profile = 'on-time' | 'early' | 'late';

/** Business days against the platform's count (offset → share); each sums to 1. */
export const PROFILES: Record<Profile, readonly (readonly [offset: number, share: number])[]> = {
  'on-time': [
    [-2, 0.1],
    [-1, 0.3],
    [0, 0.5],
    [1, 0.07],
    [2, 0.03],
  ],
  early: [
    [-3, 0.3],
    [-2, 0.45],
    [-1, 0.23],
    [0, 0.02],
  ],
  late: [
    [-1, 0.05],
    [0, 0.1],
    [1, 0.35],
    [2, 0.3],
    [3, 0.15],
    [5, 0.05],
  ],
};

/** Contract codes of the sandbox's SEDEX family: the express network keeps its count more closely than PAC's. */
const EXPRESS = new Set(['03220', '03140', '03158', '03204']);

/**
 * The profile of a lane and service. PAC: early to the capitals of the South-East and South (the densest network),
 * late to the interior of the North and North-East; SEDEX: late to the North (by air, then by river and road), on
 * time elsewhere. Everything else is on time.
 */
export function profileOf(originUf: Uf, lane: Lane, serviceCode: string): Profile {
  const express = EXPRESS.has(serviceCode);
  const north = lane.region === 'N';
  if (express) return north ? 'late' : 'on-time';
  if (lane.area === 'interior' && (north || lane.region === 'NE')) return 'late';
  if (lane.area === 'capital' && (lane.region === 'SE' || lane.region === 'S') && regionOf(originUf) !== 'N')
    return 'early';
  return 'on-time';
}

/** The strike: Monday to Friday of the week of 15 May, every year. Nothing moves; the parcels wait. */
export function isStrikeDay(day: number): boolean {
  const { year } = civilDate(day);
  const may15 = Date.UTC(year, 4, 15) / 86_400_000;
  const monday = may15 - ((civilDate(may15).weekday + 6) % 7);
  return day >= monday && day < monday + 5;
}

/** The peak season: posted from 25 November to 23 December. */
export function isPeakDay(day: number): boolean {
  const { month, day: date } = civilDate(day);
  return (month === 11 && date >= 25) || (month === 12 && date <= 23);
}

/** The share of the parcels posted in the peak season that take a day more. */
export const PEAK_SHARE = 0.4;

/** Whether the carrier moves parcels on this day (a business day, no strike). */
export function isCarrierDay(day: number): boolean {
  return isBusinessDay(day) && !isStrikeDay(day);
}

/** The days a profile's parcel takes beyond the platform's count, for a uniform draw `u` in [0, 1). */
export function pick(profile: Profile, u: number): number {
  let covered = 0;
  for (const [offset, share] of PROFILES[profile]) {
    covered += share;
    if (u < covered) return offset;
  }
  return PROFILES[profile].at(-1)?.[0] ?? 0;
}

/** What one parcel does: the business days it takes after posting (the carrier's count) and its events. */
export interface Transit {
  profile: Profile;
  /** Business days from the posting day to the delivery day, as a promise counts them (strike days included). */
  days: number;
  plan: PlannedEvent[];
}

export interface TransitInput {
  code: string;
  route: RouteEnds;
  destinationCep: string;
  serviceCode: string;
  /** The platform's count for this lane and service (`deliveryDays`). */
  platformDays: number;
  /** When the label was created (carrier time, epoch ms). */
  createdAt: number;
}

/**
 * A parcel's transit: posted 2 to 21 hours after its label (the agency's next opening), delivered between 9 h and
 * 17 h (Brasília) on the carrier day that its drawn count of carrier days after posting falls on.
 */
export function drawTransit(input: TransitInput): Transit {
  const { code, route, destinationCep, serviceCode, platformDays, createdAt } = input;
  const random = seededRandom(hash(code));
  const lane = laneOf(destinationCep);
  const profile = lane ? profileOf(route.originUf, lane, serviceCode) : 'on-time';
  const postedAt = 2 + Math.floor(random() * 20);
  const postedDay = saoPauloDay(createdAt + postedAt * HOUR_MS).day;
  const peak = isPeakDay(postedDay) && random() < PEAK_SHARE ? 1 : 0;
  const carrierDays = Math.max(1, platformDays + pick(profile, random()) + peak);
  let deliveredDay = postedDay;
  for (let left = carrierDays; left > 0; ) {
    deliveredDay += 1;
    if (isCarrierDay(deliveredDay)) left -= 1;
  }
  const deliveredMs =
    saoPauloDay(deliveredDay * 86_400_000 + 12 * HOUR_MS).start + (9 + random() * 8) * HOUR_MS;
  // At least a day on the road, so that its sorting and delivery events fall in order (plannedBetween).
  const deliveredAt = Math.max(postedAt + 24, Math.round((deliveredMs - createdAt) / HOUR_MS));
  const arrived = saoPauloDay(createdAt + deliveredAt * HOUR_MS).day;
  return {
    profile,
    days: businessDaysAfter(postedDay, arrived),
    plan: plannedBetween(route, postedAt, deliveredAt),
  };
}
