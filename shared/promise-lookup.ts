import * as z from 'zod/mini';
import { MAX_ARRIVAL_BUSINESS_DAYS } from './business-days.ts';
import { CepSchema } from './cep-schema.ts';
import { DeliveryPromiseSchema } from './delivery-promise.ts';

/** Rates one request may ask promises for: more than any quote answers. */
export const MAX_PROMISED_RATES = 20;

/**
 * The BFF's `POST /api/promises`: the delivery promises of rates the calculator got from the platform itself (the
 * widget quotes the platform straight from the browser), so the widget shows the date the store keeps
 * (docs/promise.md). It makes no platform call: the rates' `deliveryDays` come from the shopper's browser, and a
 * promise is only dates. One home for the route, the OpenAPI document and the widget's check of the answer.
 */
export const PromisesRequestSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema,
  rates: z
    .array(
      z.strictObject({
        serviceId: z.string().check(z.minLength(1), z.maxLength(60)),
        deliveryDays: z.number().check(z.gte(0), z.lte(MAX_ARRIVAL_BUSINESS_DAYS)),
      }),
    )
    .check(z.minLength(1), z.maxLength(MAX_PROMISED_RATES)),
});
export type PromisesRequest = z.infer<typeof PromisesRequestSchema>;

/** One promise per rate asked, in the order asked. */
export const PromisesResponseSchema = /* @__PURE__ */ z.strictObject({
  promises: z.array(z.strictObject({ serviceId: z.string(), promise: DeliveryPromiseSchema })),
});
export type PromisesResponse = z.infer<typeof PromisesResponseSchema>;
