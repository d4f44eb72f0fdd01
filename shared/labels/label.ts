import * as z from 'zod/mini';
import { InstanceIdSchema } from '../quote.ts';
import { ReasonSchema } from '../reason-schema.ts';
import { DeclaredItemSchema, PartySchema } from './party.ts';

/** Spec 4.4.3: `1` envelope, `2` package or box (default), `3` roll. */
export const ObjectFormatSchema = /* @__PURE__ */ z._default(
  z.enum(['1', '2', '3']).check(z.describe('"1" envelope, "2" box (default), "3" roll.')),
  '2',
);

/** Spec 4.4.3 `generate_label` input. Strict: no properties beyond those listed. */
export const GenerateLabelInputSchema = /* @__PURE__ */ z.strictObject({
  serviceCode: z
    .string()
    .check(
      z.minLength(1),
      z.describe('Contract product code, e.g. "03298" (PAC), "03220" (SEDEX); never a name like "PAC".'),
    ),
  weightGrams: z.number().check(z.gt(0), z.describe('Packed weight in grams, e.g. 800.')),
  dimensions: z
    .strictObject({
      comprimento: z.number().check(z.gt(0), z.describe('Length.')),
      largura: z.number().check(z.gt(0), z.describe('Width.')),
      altura: z.number().check(z.gt(0), z.describe('Height.')),
    })
    .check(z.describe('Package sides in centimetres.')),
  objectFormat: ObjectFormatSchema,
  sender: PartySchema.check(z.describe('Who sends (usually the store).')),
  recipient: PartySchema.check(z.describe('Who receives (the buyer).')),
  declaredItems: z
    .array(DeclaredItemSchema)
    .check(z.minLength(1), z.describe('Content declaration, 1 line or more.')),
  instanceId: InstanceIdSchema,
});
export type GenerateLabelInput = z.infer<typeof GenerateLabelInputSchema>;

/** Spec 2.4: the label record; every field optional. */
export const LabelRecordSchema = /* @__PURE__ */ z.looseObject({
  prepostagemId: z.optional(z.string()),
  trackingCode: z.optional(z.string()),
  status: z.optional(z.string()),
  labelPdfBase64: z.optional(z.string()),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type LabelRecord = z.infer<typeof LabelRecordSchema>;

/**
 * `generate_label` structured output: the spec 2.4 record plus the platform's `supportCode` of the attempt
 * (spec 4.4.5), so a client validating against the declared output schema knows the field it receives.
 */
export const GenerateLabelOutputSchema = /* @__PURE__ */ z.extend(LabelRecordSchema, {
  supportCode: z.optional(z.string()),
});
export type GenerateLabelOutput = z.infer<typeof GenerateLabelOutputSchema>;

/** Spec 4.4.4 input. */
export const GetLabelPdfInputSchema = /* @__PURE__ */ z.strictObject({
  prepostagemId: z.string().check(z.minLength(1), z.describe('From generate_label.')),
  instanceId: InstanceIdSchema,
});

/** Spec 4.4.4 output: the label record without its tracking code; all optional. */
export const GetLabelPdfOutputSchema = /* @__PURE__ */ z.omit(LabelRecordSchema, { trackingCode: true });
export type GetLabelPdfOutput = z.infer<typeof GetLabelPdfOutputSchema>;
