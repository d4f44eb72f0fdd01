import type { ParcelStatus } from '../../shared/parcel-status.ts';
import type { ShipmentEventType } from '../../shared/shipment-events.ts';
import type { TrackingEvent } from '../../shared/tracking.ts';

/** What the watcher knows of one label between two looks. */
export interface WatchState {
  /** The status last seen (the tracking page's taxonomy); null before the first look of a label issued long ago. */
  status: ParcelStatus | null;
  /** The newest carrier event last seen, as a key (code, status number, time, description). */
  eventKey: string | null;
  /** When that event was first seen, or the watch began: the stall clock (epoch ms, the BFF's clock). */
  changedAt: number;
  /** Whether the current stall was already reported (once per stall). */
  stalled: boolean;
  /** Whether the shopper was reminded to pick up the parcel waiting at a unit (once per wait; absent: not yet). */
  reminded?: boolean;
}

/** What one look at a label comes to: the state to keep, whether to stop watching, and at most one event. */
export interface Look {
  next: WatchState;
  /** Delivered or returned: nothing more will happen that a shopper or the merchant should hear of. */
  done: boolean;
  event?: { type: ShipmentEventType; status: ParcelStatus; lastEvent?: TrackingEvent };
}
