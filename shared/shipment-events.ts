import * as z from 'zod/mini';
import { DeliveryPromiseSchema } from './delivery-promise.ts';
import { PARCEL_STATUSES, type ParcelStatus } from './parcel-status.ts';
import { TrackingEventSchema } from './tracking.ts';

/**
 * The events the BFF's watcher sends about the labels it issued (docs/architecture.md, "Notifications and orders without a code"):
 * one per change of a parcel's status in the tracking page's taxonomy (shared/parcel-status.ts), and `stalled` when no
 * new carrier event came for `BFF_STALL_DAYS` business days; `promise_at_risk` when a parcel is still on the way on
 * the morning of the date it was promised for (docs/promise.md); `pickup_reminder` when a parcel waiting at a unit is
 * two days from going back to the store (shared/pickup.ts). The one home of their names and of the webhook body.
 */
export const SHIPMENT_EVENT_TYPES = [
  'shipment.status_changed',
  'shipment.out_for_delivery',
  'shipment.awaiting_pickup',
  'shipment.delivered',
  'shipment.returned',
  'shipment.stalled',
  'shipment.promise_at_risk',
  'shipment.pickup_reminder',
] as const;
export type ShipmentEventType = (typeof SHIPMENT_EVENT_TYPES)[number];

/** The statuses that have an event of their own. */
const OWN_EVENT: Partial<Record<ParcelStatus, ShipmentEventType>> = {
  'out-for-delivery': 'shipment.out_for_delivery',
  'awaiting-pickup': 'shipment.awaiting_pickup',
  delivered: 'shipment.delivered',
  returned: 'shipment.returned',
};

/**
 * The event a change to `status` is: the status's own event where it has one, `shipment.status_changed` for the
 * others (posted, in transit, a delivery problem, …). One event per change, never two.
 */
export function eventTypeOf(status: ParcelStatus): ShipmentEventType {
  return OWN_EVENT[status] ?? 'shipment.status_changed';
}

/** The `data` of a webhook: which label, where it stands, the carrier's latest event and the signed tracking link. */
export const ShipmentEventDataSchema = /* @__PURE__ */ z.strictObject({
  orderId: z.optional(z.string()),
  volume: z.optional(z.int()),
  trackingCode: z.string(),
  prepostagemId: z.string(),
  status: z.enum(PARCEL_STATUSES),
  lastEvent: z.optional(TrackingEventSchema),
  trackingUrl: z.string(),
  /** The delivery promise the parcel was sold with (São Paulo dates), when the BFF recorded one. */
  promise: z.optional(DeliveryPromiseSchema),
  /** While it waits at a unit: the last day it can be picked up before it goes back (`YYYY-MM-DD`). */
  pickupBy: z.optional(z.iso.date()),
});

/**
 * The body of a webhook (Standard Webhooks: `type`, `timestamp`, `data`). The same body, byte for byte, on every
 * retry of one event, with the same `webhook-id` header.
 */
export const ShipmentEventSchema = /* @__PURE__ */ z.strictObject({
  type: z.enum(SHIPMENT_EVENT_TYPES),
  /** When the watcher saw the change (ISO 8601, UTC). */
  timestamp: z.string(),
  data: ShipmentEventDataSchema,
});
export type ShipmentEvent = z.infer<typeof ShipmentEventSchema>;
