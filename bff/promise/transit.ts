import { saoPauloDay } from '../../shared/business-days.ts';
import { carrierDay } from '../../shared/carrier-time.ts';
import { parcelState } from '../../shared/parcel-status.ts';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';

/** The longest transit that is learnt from (business days): anything longer is a lost parcel or a bad clock. */
export const MAX_TRANSIT_DAYS = 60;

/** The events that still count, most recent first: an `EST` ("disregard the previous information") and the event it
 * cancels (the one reported just before it) are dropped. */
function standing(events: readonly TrackingEvent[]): TrackingEvent[] {
  const kept: TrackingEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (!event) continue;
    if (event.code === 'EST') {
      i += 1;
      continue;
    }
    kept.push(event);
  }
  return kept;
}

/** What one look at a parcel tells of its transit. */
export interface TransitLook {
  /** The day it was posted (its first posting event still standing); undefined while it has not been. */
  postedDay?: number;
  /** Delivered (the platform's flag, spec 2.3) or returned to the sender, and on what day. */
  ended?: { outcome: 'delivered' | 'returned'; day: number };
}

/**
 * Reads a tracking result for the days of a transit. Each carrier date is checked against what the BFF itself knows:
 * a date that cannot be read, that lies after the day of the look (`seenDay`, São Paulo) or before the label was
 * created (`createdDay`) is not believed, and the look's own day stands in for it (the watcher sees a change within
 * a cadence). Duplicated events count once (the first posting is the posting); a delivery is only what the platform
 * flags as delivered, never a code read as one.
 */
export function transitOf(result: TrackingResult, seenDay: number, createdDay: number): TransitLook {
  if (!result.found) return {};
  const events = standing(result.events);
  const dayOf = (event: TrackingEvent | undefined): number => {
    const day = carrierDay(event?.timestamp);
    // One day of slack either side: a carrier writing its own local date may be a day off São Paulo's.
    return day !== undefined && day <= seenDay + 1 && day >= createdDay - 1 ? day : seenDay;
  };
  const posting = events.findLast((event) => event.code === 'PO') ?? events.at(-1);
  const look: TransitLook = posting ? { postedDay: dayOf(posting) } : {};
  const { status, event } = parcelState(result);
  if (status === 'delivered' || status === 'returned') {
    const day = dayOf(event);
    look.ended = { outcome: status, day };
  }
  return look;
}

/** The São Paulo day of an instant. */
export function dayOf(instant: number): number {
  return saoPauloDay(instant).day;
}
