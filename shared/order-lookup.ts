import * as z from 'zod/mini';
import { CepSchema } from './cep-schema.ts';
import { MAX_ORDER_ID_LENGTH, NO_CONTROL_CHARACTERS } from './platform-limits.ts';
import { TrackingLookupResultSchema } from './tracking-lookup.ts';

/**
 * The BFF's order lookup (`POST /api/orders/lookup`): a shopper who knows the order number and the destination CEP
 * finds the order's parcels without a tracking code. One home for the route, the OpenAPI document and the element.
 */
export const OrderLookupRequestSchema = /* @__PURE__ */ z.strictObject({
  orderId: z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(MAX_ORDER_ID_LENGTH),
      z.regex(NO_CONTROL_CHARACTERS, 'an order number has no control characters'),
    ),
  cep: CepSchema,
});
export type OrderLookupRequest = z.infer<typeof OrderLookupRequestSchema>;

/** One result per volume of the order that has a tracking code, in volume order. */
export const OrderLookupResponseSchema = /* @__PURE__ */ z.strictObject({
  orderId: z.string(),
  results: z.array(TrackingLookupResultSchema),
});
export type OrderLookupResponse = z.infer<typeof OrderLookupResponseSchema>;
