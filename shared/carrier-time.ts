import { DAY_MS, saoPauloDay } from './business-days.ts';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const BRAZILIAN = /^(\d{2})\/(\d{2})\/(\d{4})(?:,?\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** The day number of a civil date, or undefined when it is not one (31/02, month 13). */
function civilDay(year: number, month: number, day: number): number | undefined {
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return ms / DAY_MS;
}

/**
 * The day of a carrier's timestamp. Spec 2.3: timestamps come as given and no time zone may be assumed where none is
 * stated — so a timestamp without an offset (the Correios' `2026-11-23T14:32:11`, or `23/11/2026 14:32`) is read as
 * the civil date it writes, in whatever zone the carrier wrote it: both ends of a transit come from the same carrier's
 * clock, and the days between two of its dates need no zone. A timestamp with an offset (`Z`, `-03:00`) is an
 * instant: its São Paulo date. Anything else (empty, `amanhã`, 31/02) is not a date: undefined.
 */
export function carrierDay(timestamp: string | undefined): number | undefined {
  const text = timestamp?.trim() ?? '';
  const iso = ISO.exec(text);
  if (iso) {
    const [, y, m, d, hh, mm, ss, zone] = iso;
    const day = civilDay(Number(y), Number(m), Number(d));
    if (day === undefined || Number(hh ?? 0) > 23 || Number(mm ?? 0) > 59 || Number(ss ?? 0) > 59)
      return undefined;
    if (!zone) return day;
    const instant = Date.parse(text.replace(' ', 'T'));
    return Number.isFinite(instant) ? saoPauloDay(instant).day : undefined;
  }
  const br = BRAZILIAN.exec(text);
  if (br) {
    const [, d, m, y, hh, mm, ss] = br;
    if (Number(hh ?? 0) > 23 || Number(mm ?? 0) > 59 || Number(ss ?? 0) > 59) return undefined;
    return civilDay(Number(y), Number(m), Number(d));
  }
  return undefined;
}
