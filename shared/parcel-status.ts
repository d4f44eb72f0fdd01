import type { TrackingEvent, TrackingResult } from './tracking.ts';

/**
 * What a Brazilian parcel's state means to the person waiting for it, from the carrier's event code and status
 * number (the meaning depends on both: sandbox/carrier/tracking.ts). One home for the tracking page's badges
 * (widget/tracking/) and the BFF's shipment events (bff/notifications/), so a shopper's e-mail and the page never
 * disagree about where a parcel is.
 */
export const PARCEL_STATUSES = [
  'posted',
  'in-transit',
  'out-for-delivery',
  'awaiting-pickup',
  'delivered',
  'returned',
  'problem',
  'no-events',
  'not-found',
] as const;
export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/**
 * The statuses of a parcel still travelling to its shopper: where its delivery promise still means something (not
 * once it arrived or went back, nor while it waits at a unit, when its last day to be picked up matters).
 */
export const ON_ITS_WAY: readonly ParcelStatus[] = [
  'no-events',
  'posted',
  'in-transit',
  'out-for-delivery',
  'problem',
];

/** The statuses after which nothing more happens that a shopper or the merchant should hear of. */
export const FINAL_STATUSES: readonly ParcelStatus[] = ['delivered', 'returned'];

/** The status and, for a parcel waiting at a unit, where (the unit the carrier names) and since when. */
export interface ParcelState {
  status: ParcelStatus;
  /** The event the status comes from (undefined for not found and no events). */
  event?: TrackingEvent;
}

const DELIVERY_ATTEMPT = ['BDE', 'BDI', 'BDR'];
/** Status numbers of a BDE/BDI/BDR that end the delivery attempt without delivering. */
const RETURNED_TYPES = ['23'];

/**
 * Classifies one result. "Delivered" comes only from the platform's `delivered: true` (spec 2.3), never from reading
 * codes: a code that looks like a delivery without the flag is not shown as delivered. An `EST` event ("disregard the
 * previous information") cancels the event reported just before it, and the one before that is read instead.
 */
export function parcelState(result: Pick<TrackingResult, 'found' | 'delivered' | 'events'>): ParcelState {
  if (!result.found) return { status: 'not-found' };
  const event = currentEvent(result.events);
  if (result.delivered) return event ? { status: 'delivered', event } : { status: 'delivered' };
  if (!event) return { status: 'no-events' };
  return { status: statusOf(event), event };
}

/** The most recent event that still counts (events come most recent first, spec 2.3). */
function currentEvent(events: readonly TrackingEvent[]): TrackingEvent | undefined {
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event?.code !== 'EST') return event;
    i += 1; // skip the event EST cancels
  }
  return undefined;
}

/** The status one event means, for an object the platform does not call delivered. */
export function statusOf(
  event: TrackingEvent,
): Exclude<ParcelStatus, 'no-events' | 'not-found' | 'delivered'> {
  const { code, type } = event;
  if (code === 'PO') return 'posted';
  if (code === 'OEC') return 'out-for-delivery';
  if (code === 'LDI') return 'awaiting-pickup';
  if (code === 'BLQ') return 'problem';
  if (DELIVERY_ATTEMPT.includes(code)) {
    if (type !== undefined && RETURNED_TYPES.includes(type)) return 'returned';
    if (/devolvid|devolução ao remetente/i.test(event.description)) return 'returned';
    // 01 without the platform's delivered flag, 02 absent, 04 refused, 06–08 address problems, anything else
    return 'problem';
  }
  if (/devolvid/i.test(event.description)) return 'returned';
  // RO, DO and any other movement the carrier reports
  return 'in-transit';
}
