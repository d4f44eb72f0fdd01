import * as z from 'zod/mini';
import { MAX_CODES } from './platform-limits.ts';
import { InstanceIdSchema } from './quote.ts';
import { ReasonSchema } from './reason-schema.ts';

/** One carrier event (spec 2.3). Timestamps are kept exactly as given: no time zone is assumed. */
export const TrackingEventSchema = /* @__PURE__ */ z.looseObject({
  code: z.string(),
  type: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  description: z.string(),
  origin: z.optional(z.string()),
  destination: z.optional(z.string()),
});
export type TrackingEvent = z.infer<typeof TrackingEventSchema>;

/** Spec 2.3: one result per requested code. No events is not delivered. */
export const TrackingResultSchema = /* @__PURE__ */ z.looseObject({
  code: z.string(),
  found: z.boolean(),
  delivered: z.boolean(),
  lastStatus: z.optional(TrackingEventSchema),
  events: z.array(TrackingEventSchema),
  message: z.optional(z.string()),
});
export type TrackingResult = z.infer<typeof TrackingResultSchema>;

const CodesSchema = /* @__PURE__ */ z
  .array(
    z
      .string()
      .check(z.minLength(1), z.describe('An S10 code, e.g. "DG049186226BR" (spaces and case ignored).')),
  )
  .check(
    z.minLength(1),
    z.maxLength(MAX_CODES),
    z.describe(`1 to ${MAX_CODES} codes; one result per code, in order.`),
  );

/** Spec 4.2 request body. `instanceId` is accepted and ignored (spec 1 rule 1). */
export const TrackingRequestSchema = /* @__PURE__ */ z.strictObject({
  codes: CodesSchema,
  instanceId: InstanceIdSchema,
});
export type TrackingRequest = z.infer<typeof TrackingRequestSchema>;

/** Spec 4.2 success body. */
export const TrackingResponseSchema = /* @__PURE__ */ z.looseObject({
  results: z.array(TrackingResultSchema),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type TrackingResponse = z.infer<typeof TrackingResponseSchema>;

/**
 * `track_shipment` input. The spec does not show it (4.4.2: "tracks shipments like the REST endpoint"),
 * so it mirrors REST: `codes` in.
 */
export const TrackShipmentInputSchema = TrackingRequestSchema;

/** `track_shipment` output, mirroring REST: `results` out. */
export const TrackShipmentOutputSchema = TrackingResponseSchema;
