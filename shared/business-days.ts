/**
 * Brazilian business days, in São Paulo time, for the arrival date the calculator shows ("Chega até qua., 26/11").
 * Pure integer arithmetic over civil dates (days since 1970-01-01): no Intl, no time zone of the machine. A "day" is
 * `Date.UTC(y, m - 1, d) / DAY_MS` — `Date.UTC` reads no clock and no zone.
 *
 * Days that are not business days: Saturdays, Sundays, the national holidays of federal law (Lei 662/1949,
 * 6.802/1980, 10.607/2002, 14.759/2023) — Jan 1, Apr 21, May 1, Sep 7, Oct 12, Nov 2, Nov 15, Nov 20 (from 2024),
 * Dec 25 and Good Friday — and, by our choice, Carnival Monday and Tuesday and Corpus Christi. Those three are
 * "pontos facultativos" by law, yet the carriers' sorting centres and most cities stop on them: counting them as
 * days off can only make the date later, never a promise the carrier breaks. Ash Wednesday (work from 14h) counts as
 * a business day. State and city holidays are not known from a CEP here and are not counted.
 */

/** A day in milliseconds. */
export const DAY_MS = 86_400_000;
/** São Paulo is UTC−3 all year since daylight saving time was abolished in 2019 (Decreto 9.772/2019). */
const SAO_PAULO_OFFSET_MS = -3 * 3_600_000;

/** A civil date. `weekday` 0 = Sunday … 6 = Saturday. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
  weekday: number;
}

/** A day or a month in two digits: `5` → `05`. */
export const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a civil date. */
export function isoDate(date: Pick<CivilDate, 'year' | 'month' | 'day'>): string {
  return `${String(date.year).padStart(4, '0')}-${pad2(date.month)}-${pad2(date.day)}`;
}

/** The civil date of a day number. */
export function civilDate(n: number): CivilDate {
  const date = new Date(n * DAY_MS);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
  };
}

/** Easter Sunday of the Gregorian calendar (anonymous Gregorian algorithm, Meeus/Jones/Butcher) as a day number. */
export function easter(year: number): number {
  const div = (x: number, y: number) => Math.floor(x / y);
  const a = year % 19;
  const b = div(year, 100);
  const c = year % 100;
  const h = (19 * a + b - div(b, 4) - div(b - div(b + 8, 25) + 1, 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * div(c, 4) - h - (c % 4)) % 7;
  const m = div(a + 11 * h + 22 * l, 451);
  const n = h + l - 7 * m + 114;
  return Date.UTC(year, div(n, 31) - 1, (n % 31) + 1) / DAY_MS;
}

const FIXED = ['1-1', '4-21', '5-1', '9-7', '10-12', '11-2', '11-15', '12-25'];
/** Days from Easter: Carnival Monday and Tuesday, Good Friday, Corpus Christi. */
const MOVABLE = [-48, -47, -2, 60];

/** True for a national holiday or one of the days off we count (see the module comment). */
export function isHoliday(n: number): boolean {
  const { year, month, day } = civilDate(n);
  if (FIXED.includes(`${month}-${day}`)) return true;
  if (month === 11 && day === 20 && year >= 2024) return true;
  return MOVABLE.includes(n - easter(year));
}

export function isBusinessDay(n: number): boolean {
  const weekday = civilDate(n).weekday;
  return weekday !== 0 && weekday !== 6 && !isHoliday(n);
}

/** The business day `count` business days after day `n` (`count` 0 gives `n` itself). */
export function addBusinessDays(n: number, count: number): number {
  let day = n;
  for (let left = count; left > 0; ) {
    day += 1;
    if (isBusinessDay(day)) left -= 1;
  }
  return day;
}

/**
 * Business days in (`from`, `to`], days numbered as `civilDate`'s: the carrier's count from posting to delivery (a
 * Monday to the Wednesday is 2); none when `to` is not after `from`. The one count of business days between two days.
 */
export function businessDaysAfter(from: number, to: number): number {
  let days = 0;
  for (let day = from + 1; day <= to; day++) if (isBusinessDay(day)) days += 1;
  return days;
}

/**
 * The longest wait a date is shown for (about a year of business days). `addBusinessDays` walks day by day, so a
 * caller with a count from outside (the platform's `deliveryDays` is only "an integer") checks it first.
 */
export const MAX_ARRIVAL_BUSINESS_DAYS = 260;

/** The São Paulo calendar day of an instant: its day number, and when it starts and ends (epoch ms). */
export function saoPauloDay(instant: number): { day: number; start: number; end: number } {
  const day = Math.floor((instant + SAO_PAULO_OFFSET_MS) / DAY_MS);
  const start = day * DAY_MS - SAO_PAULO_OFFSET_MS;
  return { day, start, end: start + DAY_MS };
}

export interface ArrivalOptions {
  /** The instant of the quote (ms since the epoch); the date is worked out in São Paulo time whatever the zone. */
  now: number;
  /** Business days the carrier takes after posting (the platform's `deliveryDays`). */
  deliveryDays: number;
  /** Business days the store takes to post the order (default 0). */
  handlingDays?: number;
  /** Minutes after São Paulo midnight from which an order counts from the next business day (e.g. 14 h = 840). */
  cutoffMinutes?: number | undefined;
}

/**
 * The latest arrival date: the order is posted on the first business day it can be (today before the cut-off, else the
 * next business day), plus the handling days, plus the carrier's business days. Never earlier than the platform said.
 * @example arrivalDate({ now: Date.parse('2026-11-23T12:00:00-03:00'), deliveryDays: 4 }) // Fri 27/11/2026
 */
export function arrivalDate(options: ArrivalOptions): CivilDate {
  const { now, deliveryDays, handlingDays = 0, cutoffMinutes } = options;
  const posting = firstPostingDay(now, cutoffMinutes);
  return civilDate(addBusinessDays(posting, whole(handlingDays) + whole(deliveryDays)));
}

/**
 * The day number of the first business day an order of `now` can be posted (São Paulo): today before the cut-off,
 * else the next business day. Where `arrivalDate` counts from.
 */
export function firstPostingDay(now: number, cutoffMinutes?: number): number {
  const local = now + SAO_PAULO_OFFSET_MS;
  const today = Math.floor(local / DAY_MS);
  const minutes = Math.floor((local - today * DAY_MS) / 60_000);
  const late = cutoffMinutes !== undefined && minutes >= cutoffMinutes;
  return isBusinessDay(today) && !late ? today : addBusinessDays(today, 1);
}

/** Whole non-negative days: a fraction is rounded up (never an earlier date), nonsense counts as 0. */
function whole(days: number): number {
  return Number.isFinite(days) && days > 0 ? Math.ceil(days) : 0;
}

/**
 * Parses a cut-off hour as written in an attribute: `14`, `14h`, `14:30`, `14h30`. Undefined when it is not one.
 */
export function parseCutoff(text: string | null | undefined): number | undefined {
  const match = /^\s*(\d{1,2})(?:\s*(?:h|:)\s*(\d{2})?)?\s*$/i.exec(text ?? '');
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? 0);
  return hours <= 24 && minutes < 60 && hours * 60 + minutes <= 1440 ? hours * 60 + minutes : undefined;
}
