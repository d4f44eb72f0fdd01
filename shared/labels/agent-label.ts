import * as z from 'zod/mini';
import { LOCALES } from '../locale.ts';
import { MAX_VOLUME } from '../platform-limits.ts';
import { GenerateLabelInputSchema, GenerateLabelOutputSchema } from './label.ts';
import { isPlainText } from './plausibility.ts';

/**
 * What the BFF's label tools (`generate_label`, `preview_label`) and the desk take beyond the platform's input (spec
 * 4.4.3), none of which reaches the platform: the order and its box, the quote's `serviceId` as another way to name
 * the service, and the agent's own key. ARCHITECTURE: "Orders, volumes and the label desk".
 */
const PLAIN_TEXT_MESSAGE =
  'plain text only: no control, invisible formatting or bidirectional characters (line breaks, U+202E, U+2028, C1 controls)';

const intentFields = {
  serviceCode: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.describe('Contract code, e.g. "03298" (PAC), "03220" (SEDEX), never "PAC"; or give serviceId.'),
      ),
  ),
  serviceId: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(60),
        z.describe('A get_shipping_rates serviceId (e.g. "correios-pac"), instead of serviceCode.'),
      ),
  ),
  orderId: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(160),
        z.refine(isPlainText, PLAIN_TEXT_MESSAGE),
        z.describe(
          "The store order. (orderId, volume) is one label: the same pair again returns it, never a second. A store order's number needs that order's recipient CEP (else order_mismatch, nothing sent).",
        ),
      ),
  ),
  volume: z.optional(
    z
      .int()
      .check(
        z.minimum(1),
        z.maximum(MAX_VOLUME),
        z.describe('Box of the order: 1, 2, … (default 1); each box is its own label.'),
      ),
  ),
  locale: z.optional(
    z.enum(LOCALES).check(z.describe("Language of the shopper's status e-mails (default pt-BR).")),
  ),
  idempotencyKey: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(200),
        z.refine(isPlainText, PLAIN_TEXT_MESSAGE),
        z.describe(
          'Your key for one label: the same key again returns the first result, never a second label.',
        ),
      ),
  ),
};

/** The BFF's `generate_label` input: the platform's fields (serviceCode optional), plus the intent fields above. */
export const AgentLabelInputSchema = /* @__PURE__ */ z.extend(GenerateLabelInputSchema, intentFields).check(
  z.refine((input) => input.serviceCode !== undefined || input.serviceId !== undefined, {
    message: 'give serviceCode (the contract code, e.g. "03298") or serviceId (e.g. "correios-pac")',
    path: ['serviceCode'],
  }),
);
export type AgentLabelInput = z.infer<typeof AgentLabelInputSchema>;
export type AgentLabelInputRaw = z.input<typeof AgentLabelInputSchema>;

/**
 * The BFF's `generate_label` answer: the spec 2.4 record (the PDF in `labelPdfBase64` once, never also in the text),
 * plus what the BFF adds — the ledger's `attemptId`, the order and volume, an `approvalId` while the merchant decides,
 * and on a refusal the `field` it names and the `limit` and `resetsAt` of an agent limit.
 */
export const AgentLabelOutputSchema = /* @__PURE__ */ z.extend(GenerateLabelOutputSchema, {
  attemptId: z.optional(z.string()),
  orderId: z.optional(z.string()),
  volume: z.optional(z.number()),
  approvalId: z.optional(z.string()),
  field: z.optional(z.string()),
  limit: z.optional(z.string()),
  resetsAt: z.optional(z.string()),
});
export type AgentLabelOutput = z.infer<typeof AgentLabelOutputSchema>;

/** What `preview_label` answers: what would be printed, its price, and whether it would be sent now. */
export const PreviewLabelOutputSchema = /* @__PURE__ */ z.object({
  serviceCode: z.optional(z.string()),
  serviceId: z.optional(z.string()),
  /** The platform's price for this package and destination (BRL), when it quotes the service. */
  quotedPrice: z.optional(z.number()),
  approvalRequired: z.boolean(),
  /** What this agent may still issue today (São Paulo day); absent where its policy sets no limit. */
  limitsLeft: z.object({
    labels: z.optional(z.number()),
    declaredValue: z.optional(z.number()),
    resetsAt: z.optional(z.string()),
  }),
  /** True when generate_label with this input would send a label now (no refusal, no approval to wait for). */
  wouldSend: z.boolean(),
  /** Why not, when it would not. */
  reason: z.optional(z.string()),
  message: z.optional(z.string()),
  field: z.optional(z.string()),
  /** An existing label of this intended label (the same key, or order and volume), which generate_label would return. */
  existing: z.optional(
    z.object({ attemptId: z.string(), state: z.string(), prepostagemId: z.optional(z.string()) }),
  ),
  /** What would be printed. */
  label: z.object({
    recipient: z.string(),
    destination: z.string(),
    service: z.string(),
    weightGrams: z.number(),
    dimensions: z.string(),
    declaredValue: z.number(),
    orderId: z.optional(z.string()),
    volume: z.optional(z.number()),
  }),
});
export type PreviewLabelOutput = z.infer<typeof PreviewLabelOutputSchema>;
