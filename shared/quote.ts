import * as z from 'zod/mini';
import { CepSchema } from './cep-schema.ts';
import { DeliveryPromiseSchema } from './delivery-promise.ts';
import { MAX_ITEMS } from './platform-limits.ts';
import { ReasonSchema } from './reason-schema.ts';

/** Unit weight when an item omits it (spec 2.1). */
export const DEFAULT_WEIGHT_KG = 0.3;

/** Spec 2.1: one product line of the cart. */
export const QuoteItemSchema = /* @__PURE__ */ z.strictObject({
  name: z.string().check(z.describe('Product name.')),
  quantity: z.int().check(z.gte(1), z.describe('Units, at least 1.')),
  unitPriceBRL: z
    .number()
    .check(z.gte(0), z.describe('Unit price in BRL, e.g. 79.9 (free-shipping thresholds count it).')),
  weightKg: z._default(
    z.number().check(z.gt(0), z.describe(`Unit weight in kg (default ${DEFAULT_WEIGHT_KG}).`)),
    DEFAULT_WEIGHT_KG,
  ),
});
export type QuoteItem = z.infer<typeof QuoteItemSchema>;

const QuoteItemsSchema = /* @__PURE__ */ z
  .array(QuoteItemSchema)
  .check(z.minLength(1), z.maxLength(MAX_ITEMS), z.describe(`The cart: 1 to ${MAX_ITEMS} lines.`));

const DestinationCepSchema = /* @__PURE__ */ CepSchema.check(
  z.describe('Destination CEP, 8 digits ("01310-100" or "01310100").'),
);
const RequestIdSchema = /* @__PURE__ */ z.optional(
  z.string().check(z.describe('Your reference, for logs; does not change the quote.')),
);
/** Spec 1 rule 1: every tool input takes an `instanceId` and ignores it. */
export const InstanceIdSchema = /* @__PURE__ */ z.optional(
  z.string().check(z.describe('Accepted and ignored.')),
);

/** Spec 4.1 request body. `instanceId` is accepted and ignored (spec 1 rule 1); nothing else is. */
export const RatesRequestSchema = /* @__PURE__ */ z.strictObject({
  destinationCep: CepSchema,
  items: QuoteItemsSchema,
  requestId: z.optional(z.string()),
  instanceId: z.optional(z.string()),
});
export type RatesRequest = z.infer<typeof RatesRequestSchema>;
export type RatesRequestInput = z.input<typeof RatesRequestSchema>;

const rateShape = {
  code: z.string(),
  serviceId: z.string(),
  label: z.string(),
  price: z.number(),
  free: z.optional(z.boolean()),
};

/**
 * Spec 2.2 as REST returns it: `deliveryDays` is an integer. Response schemas are loose: the platform may add fields,
 * and a client validating against the JSON Schema must not break on them.
 */
export const RateSchema = /* @__PURE__ */ z.looseObject({ ...rateShape, deliveryDays: z.int() });
export type Rate = z.infer<typeof RateSchema>;

/**
 * A rate as the BFF's quote core answers it (`/api/rates/verify`, the checkout adapters, MCP): the platform's rate,
 * charged as the free-shipping rule says (zero only for `free: true`), with the delivery promise every surface shows.
 */
export const QuotedRateSchema = /* @__PURE__ */ z.extend(RateSchema, {
  promise: DeliveryPromiseSchema.check(
    z.describe('When it arrives: São Paulo dates, the store\u2019s handling days and cut-off included.'),
  ),
});
export type QuotedRate = z.infer<typeof QuotedRateSchema>;

/** Spec 2.2 as MCP returns it: `deliveryDays` is a number. */
export const McpRateSchema = /* @__PURE__ */ z.looseObject({ ...rateShape, deliveryDays: z.number() });
export type McpRate = z.infer<typeof McpRateSchema>;

/** Spec 4.1 success body. `rates: []` with a `reason` means no quote, never free shipping. */
export const RatesResponseSchema = /* @__PURE__ */ z.looseObject({
  rates: z.array(RateSchema),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type RatesResponse = z.infer<typeof RatesResponseSchema>;

/** Spec 4.4.1 input. Strict: no properties beyond those listed. */
export const GetShippingRatesInputSchema = /* @__PURE__ */ z.strictObject({
  destinationCep: DestinationCepSchema,
  items: QuoteItemsSchema,
  requestId: RequestIdSchema,
  instanceId: InstanceIdSchema,
});

/** Spec 4.4.1 output. */
export const GetShippingRatesOutputSchema = /* @__PURE__ */ z.looseObject({
  rates: z.array(McpRateSchema),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type GetShippingRatesOutput = z.infer<typeof GetShippingRatesOutputSchema>;
