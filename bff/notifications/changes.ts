import { saoPauloDay } from '../../shared/business-days.ts';
import { carrierDay } from '../../shared/carrier-time.ts';
import { FINAL_STATUSES, parcelState } from '../../shared/parcel-status.ts';
import { PICKUP_REMINDER_DAYS, pickupLastDay } from '../../shared/pickup.ts';
import { eventTypeOf } from '../../shared/shipment-events.ts';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';
import type { Look, WatchState } from './look.ts';
import { stallOf } from './stall.ts';

function keyOf(event: TrackingEvent | undefined): string | null {
  return event ? [event.code, event.type ?? '', event.timestamp ?? '', event.description].join('|') : null;
}

/**
 * One look at a label: a change of status is one event (the status's own, or `shipment.status_changed`); a new
 * carrier event restarts the stall clock; no new event for `stallDays` business days is `shipment.stalled`, once per
 * stall (stall.ts) — except while the parcel waits for pickup, when `shipment.pickup_reminder` comes, once, two days before the
 * hold ends (shared/pickup.ts). The first look of a label whose status was unknown records it without an event. A code the platform does
 * not find (yet) tells nothing new: nothing changes, but the stall clock runs.
 */
export function lookAt(watch: WatchState, result: TrackingResult, now: number, stallDays: number): Look {
  if (result.found) {
    const { status, event } = parcelState(result);
    const eventKey = keyOf(result.events[0]);
    const fresh = eventKey !== watch.eventKey;
    const next: WatchState = {
      status,
      eventKey,
      changedAt: fresh ? now : watch.changedAt,
      stalled: fresh ? false : watch.stalled,
      reminded: status === watch.status ? (watch.reminded ?? false) : false,
    };
    const done = FINAL_STATUSES.includes(status);
    if (watch.status !== null && status !== watch.status) {
      return {
        next,
        done,
        event: { type: eventTypeOf(status), status, ...(event ? { lastEvent: event } : {}) },
      };
    }
    if (watch.status === null) return { next, done };
    const reminder = reminderOf(next, event, now);
    if (reminder) return { next: { ...next, reminded: true }, done, event: reminder };
    if (fresh) return { next, done };
    return stallOf(next, result, now, stallDays, done);
  }
  return stallOf(watch, result, now, stallDays, false);
}

/**
 * The last day a parcel waiting at a unit can be picked up (shared/pickup.ts): 7 days from the day of the carrier's
 * "awaiting pickup" event (its date as written, no zone assumed), or from the day the watcher first saw it.
 */
export function pickupLastDayOf(event: TrackingEvent | undefined, seenAt: number): number {
  return pickupLastDay(carrierDay(event?.timestamp) ?? saoPauloDay(seenAt).day);
}

/** `shipment.pickup_reminder`, once per wait, from `PICKUP_REMINDER_DAYS` before the last day to pick up. */
function reminderOf(watch: WatchState, event: TrackingEvent | undefined, now: number): Look['event'] {
  if (watch.status !== 'awaiting-pickup' || watch.reminded) return undefined;
  const lastDay = pickupLastDayOf(event, watch.changedAt);
  if (saoPauloDay(now).day < lastDay - PICKUP_REMINDER_DAYS) return undefined;
  return {
    type: 'shipment.pickup_reminder',
    status: 'awaiting-pickup',
    ...(event ? { lastEvent: event } : {}),
  };
}
