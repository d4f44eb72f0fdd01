import * as z from 'zod/mini';
import { ReasonSchema } from './reason-schema.ts';

/**
 * Partner provisioning (spec 4.4.6; fields "not shown" upstream, pinned here: sandbox/README.md "Partner provisioning").
 * A partner's platform key (`pl_…`) creates merchants and follows their onboarding; it never acts as a store.
 */

/** `create_merchant` input. Strict: no properties beyond those listed. */
export const CreateMerchantInputSchema = /* @__PURE__ */ z.strictObject({
  /** The store's name as the merchant will see it. */
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
  /** The merchant's e-mail (the login of their account). */
  email: z.email().check(z.maxLength(254)),
  /** CPF (11 digits) or CNPJ (14 digits), digits only (like `cpfCnpj` in spec 2.5). */
  cpfCnpj: z.optional(
    z.string().check(z.regex(/^(?:\d{11}|\d{14})$/, 'must be 11 (CPF) or 14 (CNPJ) digits')),
  ),
  /** The partner's own id for this merchant; the same one twice answers the same merchant. */
  externalId: z.optional(z.string().check(z.minLength(1), z.maxLength(160))),
});
export type CreateMerchantInput = z.infer<typeof CreateMerchantInputSchema>;

/** `pending` until the merchant finishes the onboarding form; then `active`. */
export const MerchantStatusSchema = /* @__PURE__ */ z.enum(['pending', 'active']);
export type MerchantStatus = z.infer<typeof MerchantStatusSchema>;

/** `create_merchant` output; `reason` alone when it was refused (e.g. `merchant_limit_reached`). */
export const CreateMerchantOutputSchema = /* @__PURE__ */ z.looseObject({
  merchantId: z.optional(z.string()),
  status: z.optional(MerchantStatusSchema),
  /** A page of the platform where the merchant finishes the configuration (one form), then sees the keys once. */
  onboardingUrl: z.optional(z.string()),
  reason: z.optional(ReasonSchema),
});
export type CreateMerchantOutput = z.infer<typeof CreateMerchantOutputSchema>;

/** `get_merchant_status` input. */
export const GetMerchantStatusInputSchema = /* @__PURE__ */ z.strictObject({
  merchantId: z.string().check(z.minLength(1), z.maxLength(160)),
});

/** Which onboarding steps are done. */
export const MerchantStepsSchema = /* @__PURE__ */ z.object({
  originCep: z.boolean(),
  services: z.boolean(),
  plan: z.boolean(),
  carrierContract: z.boolean(),
  labels: z.boolean(),
});
export type MerchantSteps = z.infer<typeof MerchantStepsSchema>;

/**
 * `get_merchant_status` output: `status` and `steps`, plus `publicKey` once active — a secret key never appears.
 * An unknown merchant, or one another partner created, answers only `merchantId` and `reason: merchant_not_found`.
 */
export const GetMerchantStatusOutputSchema = /* @__PURE__ */ z.looseObject({
  merchantId: z.string(),
  status: z.optional(MerchantStatusSchema),
  steps: z.optional(MerchantStepsSchema),
  publicKey: z.optional(z.string().check(z.regex(/^pk_/))),
  reason: z.optional(ReasonSchema),
});
export type GetMerchantStatusOutput = z.infer<typeof GetMerchantStatusOutputSchema>;
