import * as z from 'zod/mini';
import { CepSchema } from '../cep-schema.ts';
import { MAX_ITEMS } from '../platform-limits.ts';
import { QuoteItemSchema } from '../quote.ts';
import { ReasonSchema } from '../reason-schema.ts';

/**
 * `POST /checkout/fulfillment-options` (docs/checkout/agentic.md): a merchant's agentic checkout (ACP or UCP) asks
 * the BFF for the shipping options of a cart and an address, in its own protocol's shape. Amounts are integers in
 * centavos, as both protocols write minor units.
 */
export const FulfillmentOptionsRequestSchema = /* @__PURE__ */ z.strictObject({
  protocol: z.enum(['acp', 'ucp']).check(z.describe('Whose option objects to answer: acp or ucp.')),
  items: z
    .array(QuoteItemSchema)
    .check(z.minLength(1), z.maxLength(MAX_ITEMS), z.describe(`The cart: 1 to ${MAX_ITEMS} lines.`)),
  address: z.looseObject({
    postal_code: CepSchema.check(z.describe('The destination CEP (8 digits; dashes and spaces ignored).')),
    country: z.optional(z.string().check(z.describe('ISO 3166-1 alpha-2; only BR is served.'))),
  }),
});
export type FulfillmentOptionsRequest = z.infer<typeof FulfillmentOptionsRequestSchema>;

/** ACP `Total` (2026-04-17): `type`, `display_text`, `amount` in minor units. */
export const AcpTotalSchema = /* @__PURE__ */ z.strictObject({
  type: z.enum(['fulfillment', 'total']),
  display_text: z.string(),
  amount: z.int().check(z.gte(0)),
});

/** ACP `FulfillmentOptionShipping` (2026-04-17): dates are RFC 3339 date-times. */
export const AcpFulfillmentOptionSchema = /* @__PURE__ */ z.strictObject({
  type: z.literal('shipping'),
  id: z.string(),
  title: z.string(),
  description: z.optional(z.string()),
  carrier: z.optional(z.string()),
  earliest_delivery_time: z.optional(z.iso.datetime({ offset: true })),
  latest_delivery_time: z.optional(z.iso.datetime({ offset: true })),
  totals: z.array(AcpTotalSchema),
});
export type AcpFulfillmentOption = z.infer<typeof AcpFulfillmentOptionSchema>;

/** UCP `fulfillment_option` (shopping/types): `totals` of `{type, display_text?, amount}`. */
export const UcpFulfillmentOptionSchema = /* @__PURE__ */ z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.optional(z.string()),
  carrier: z.optional(z.string()),
  earliest_fulfillment_time: z.optional(z.iso.datetime({ offset: true })),
  latest_fulfillment_time: z.optional(z.iso.datetime({ offset: true })),
  totals: z.array(
    z.strictObject({
      type: z.string(),
      display_text: z.optional(z.string()),
      amount: z.int().check(z.gte(0)),
    }),
  ),
});
export type UcpFulfillmentOption = z.infer<typeof UcpFulfillmentOptionSchema>;

/** The answer for `protocol: "acp"`; an empty list says why in `reason` (never free shipping). */
export const AcpFulfillmentOptionsSchema = /* @__PURE__ */ z.strictObject({
  fulfillment_options: z.array(AcpFulfillmentOptionSchema),
  reason: z.optional(ReasonSchema),
});

/** The answer for `protocol: "ucp"`. */
export const UcpFulfillmentOptionsSchema = /* @__PURE__ */ z.strictObject({
  options: z.array(UcpFulfillmentOptionSchema),
  reason: z.optional(ReasonSchema),
});

/** Either answer, as the OpenAPI document states it. */
export const FulfillmentOptionsResponseSchema = /* @__PURE__ */ z.union([
  AcpFulfillmentOptionsSchema,
  UcpFulfillmentOptionsSchema,
]);
