import { businessDaysAfter, saoPauloDay } from '../../shared/business-days.ts';
import { FINAL_STATUSES, parcelState } from '../../shared/parcel-status.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { Look, WatchState } from './look.ts';

/**
 * Where a parcel is declared stalled: after a look that brought no news, `shipment.stalled` when no new carrier event
 * came for `stallDays` (BFF_STALL_DAYS) business days since the stall clock (`changedAt`) started — once per stall,
 * never for a parcel delivered, returned, waiting at a unit for its shopper, or never seen (status unknown). The
 * business days counted are those that have ended, in São Paulo: after the day of `changedAt` and before today's. An
 * event on a Monday has been followed by 3 business days without news on Friday at 00:00 (not before), whatever its
 * hour.
 */
export function stallOf(
  watch: WatchState,
  result: TrackingResult,
  now: number,
  stallDays: number,
  done: boolean,
): Look {
  const status = watch.status;
  // A parcel waiting at a unit waits for the shopper, not for the carrier: its countdown is the reminder's, no stall.
  if (
    done ||
    watch.stalled ||
    status === null ||
    FINAL_STATUSES.includes(status) ||
    status === 'awaiting-pickup'
  )
    return { next: watch, done };
  const ended = businessDaysAfter(saoPauloDay(watch.changedAt).day, saoPauloDay(now).day - 1);
  if (ended < stallDays) return { next: watch, done };
  const lastEvent = result.found ? parcelState(result).event : undefined;
  return {
    next: { ...watch, stalled: true },
    done,
    event: { type: 'shipment.stalled', status, ...(lastEvent ? { lastEvent } : {}) },
  };
}
