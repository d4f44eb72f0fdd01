import * as z from 'zod/mini';
import { DeliveryPromiseSchema } from './delivery-promise.ts';
import { MAX_CODES } from './platform-limits.ts';
import { TrackingResultSchema } from './tracking.ts';

/**
 * The BFF's own tracking API (`POST /api/tracking`), not the platform's: one home for the route that validates the
 * body, the service that serves results, the OpenAPI document and the `<shipping-tracking>` element that parses
 * the answer.
 */

/** `POST /api/tracking` body: 1–50 codes (checked in the S10 form by the route), nothing else. */
export const TrackingLookupRequestSchema = /* @__PURE__ */ z.strictObject({
  codes: z.array(z.string()).check(z.minLength(1), z.maxLength(MAX_CODES)),
});
export type TrackingLookupRequest = z.infer<typeof TrackingLookupRequestSchema>;

/**
 * A spec 2.3 result; `stale: true` (an addition) when it is the last known answer served while upstream fails;
 * `promise` (an addition) for a parcel of this store still on its way: the delivery promise it was sold with; `late:
 * true` (an addition) when that parcel is still on its way after the promise's last day (shared/parcel-story.ts).
 */
export const TrackingLookupResultSchema = /* @__PURE__ */ z.extend(TrackingResultSchema, {
  stale: z.optional(z.literal(true)),
  promise: z.optional(DeliveryPromiseSchema),
  late: z.optional(z.literal(true)),
  /** The watcher declared it stalled (`shipment.stalled`, the e-mail "sem novidades") and it has not moved since. */
  stalled: z.optional(z.literal(true)),
});
export type TrackingLookupResult = z.infer<typeof TrackingLookupResultSchema>;

/** `POST /api/tracking` success body: one result per distinct code, in request order. */
export const TrackingLookupResponseSchema = /* @__PURE__ */ z.strictObject({
  results: z.array(TrackingLookupResultSchema),
});
export type TrackingLookupResponse = z.infer<typeof TrackingLookupResponseSchema>;
