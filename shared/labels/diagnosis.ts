import * as z from 'zod/mini';
import { MAX_ORDER_ID_LENGTH } from '../platform-limits.ts';
import { InstanceIdSchema } from '../quote.ts';
import { ReasonSchema } from '../reason-schema.ts';

/** A UUID as the platform writes support codes (a short pattern: tool schemas are read by agents, token by token). */
const UUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/**
 * Where a label attempt came from (spec 4.4.5): `mcp` or one of two storefront apps. The spec names the apps
 * only as placeholders; we pin them as `nuvemshop` and `tray` (docs/architecture.md, "Choices where the specification is silent").
 */
export const LABEL_SOURCES = ['mcp', 'nuvemshop', 'tray'] as const;
export const LabelSourceSchema = /* @__PURE__ */ z.enum(LABEL_SOURCES);

/** Spec 4.4.5 input. */
export const DiagnoseLabelIssueInputSchema = /* @__PURE__ */ z.strictObject({
  source: z.optional(
    LabelSourceSchema.check(
      z.describe('Only this origin: "mcp" (agents), "nuvemshop" or "tray" (store apps).'),
    ),
  ),
  orderId: z.optional(
    z.string().check(z.minLength(1), z.maxLength(MAX_ORDER_ID_LENGTH), z.describe('Only this store order.')),
  ),
  instanceId: InstanceIdSchema,
  supportCode: z.optional(
    z
      .string()
      .check(
        z.regex(UUID, 'must be a UUID'),
        z.describe("One attempt's supportCode (a UUID, from a label result)."),
      ),
  ),
});
export type DiagnoseLabelIssueInput = z.infer<typeof DiagnoseLabelIssueInputSchema>;

/** One issuance attempt (spec 2.7; its fields are not shown there: pinned here, see docs/architecture.md). */
export const AttemptSchema = /* @__PURE__ */ z.looseObject({
  supportCode: z.string(),
  createdAt: z.string(),
  source: z.string(),
  orderId: z.optional(z.string()),
  outcome: z.enum(['created', 'rejected', 'failed']),
  reason: z.optional(ReasonSchema),
  prepostagemId: z.optional(z.string()),
  trackingCode: z.optional(z.string()),
  evidence: z.record(z.string(), z.unknown()),
  action: z.string(),
});
export type Attempt = z.infer<typeof AttemptSchema>;

/** `diagnose_label_issue` structured output: the most recent first, at most 10. */
export const DiagnoseLabelIssueOutputSchema = /* @__PURE__ */ z.looseObject({
  attempts: z.array(AttemptSchema),
  reason: z.optional(ReasonSchema),
  actionUrl: z.optional(z.string()),
});
export type DiagnoseLabelIssueOutput = z.infer<typeof DiagnoseLabelIssueOutputSchema>;
