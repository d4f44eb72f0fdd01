import * as z from 'zod/mini';
import { DeclaredItemSchema, PartySchema } from './party.ts';
import { ReasonSchema } from './reason-schema.ts';

/** Contract product codes of the carrier (the `serviceCode` of `generate_label`). */
export const SERVICE_CODES = {
  '03220': 'SEDEX',
  '03298': 'PAC',
  '03140': 'SEDEX 12',
  '03158': 'SEDEX 10',
  '03204': 'SEDEX Hoje',
  '04227': 'Mini Envios',
} as const;

/** Spec 4.4.3: `1` envelope, `2` package or box (default), `3` roll. */
export const ObjectFormatSchema = /* @__PURE__ */ z._default(z.enum(['1', '2', '3']), '2');

/** Spec 4.4.3 `generate_label` input. Strict: no properties beyond those listed. */
export const GenerateLabelInputSchema = /* @__PURE__ */ z.strictObject({
  serviceCode: z.string().check(z.minLength(1)),
  weightGrams: z.number().check(z.gt(0)),
  dimensions: z.strictObject({
    comprimento: z.number().check(z.gt(0)),
    largura: z.number().check(z.gt(0)),
    altura: z.number().check(z.gt(0)),
  }),
  objectFormat: ObjectFormatSchema,
  sender: PartySchema,
  recipient: PartySchema,
  declaredItems: z.array(DeclaredItemSchema).check(z.minLength(1)),
  instanceId: z.optional(z.string()),
});
export type GenerateLabelInput = z.infer<typeof GenerateLabelInputSchema>;
export type GenerateLabelInputRaw = z.input<typeof GenerateLabelInputSchema>;

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

/** `generate_label`'s answer as the platform gives it: the label record plus the attempt's `supportCode` (an addition). */
export const IssuedLabelRecordSchema = /* @__PURE__ */ z.extend(LabelRecordSchema, {
  supportCode: z.optional(z.string()),
});
export type IssuedLabelRecord = z.infer<typeof IssuedLabelRecordSchema>;

/** Spec 4.4.4 input. */
export const GetLabelPdfInputSchema = /* @__PURE__ */ z.strictObject({
  prepostagemId: z.string().check(z.minLength(1)),
  instanceId: z.optional(z.string()),
});
export type GetLabelPdfInput = z.infer<typeof GetLabelPdfInputSchema>;

/** Spec 4.4.4 output; all optional. */
export const GetLabelPdfOutputSchema = /* @__PURE__ */ z.looseObject({
  prepostagemId: z.optional(z.string()),
  status: z.optional(z.string()),
  labelPdfBase64: z.optional(z.string()),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type GetLabelPdfOutput = z.infer<typeof GetLabelPdfOutputSchema>;
