import type * as z from 'zod/mini';
import { DiagnoseLabelIssueInputSchema } from './diagnosis.ts';
import {
  GenerateLabelInputSchema,
  GenerateLabelOutputSchema,
  GetLabelPdfInputSchema,
  GetLabelPdfOutputSchema,
} from './label.ts';
import { ATTEMPT_HISTORY_DAYS, MAX_CODES, MAX_LISTED_ATTEMPTS } from './limits.ts';
import {
  CreateMerchantInputSchema,
  CreateMerchantOutputSchema,
  GetMerchantStatusInputSchema,
  GetMerchantStatusOutputSchema,
} from './merchant.ts';
import { GetShippingRatesInputSchema, GetShippingRatesOutputSchema } from './quote.ts';
import { TrackShipmentInputSchema, TrackShipmentOutputSchema } from './tracking.ts';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition<Input extends z.ZodMiniType = z.ZodMiniType> {
  title: string;
  description: string;
  inputSchema: Input;
  /** Absent where the spec says the server declares none (diagnose_label_issue, spec 2.7). */
  outputSchema?: z.ZodMiniType;
  annotations: ToolAnnotations;
  /** Only offered to connections that may issue labels (spec 1 rule 4). */
  labels: boolean;
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** The merchant MCP tools of spec 4.4, shared by the sandbox and the BFF. */
export const TOOLS = {
  get_shipping_rates: {
    title: 'Get shipping rates',
    description:
      'Quotes every enabled shipping service (price in BRL, business days) for a destination CEP and cart items. ' +
      'An empty `rates` with a `reason` means no quote is available: never present it as free shipping.',
    inputSchema: GetShippingRatesInputSchema,
    outputSchema: GetShippingRatesOutputSchema,
    annotations: READ_ONLY,
    labels: false,
  },
  track_shipment: {
    title: 'Track shipments',
    description:
      `Returns the event history and current status of up to ${MAX_CODES} Correios tracking codes: one result per requested ` +
      'code, in the same order. A found object with no events has not been delivered.',
    inputSchema: TrackShipmentInputSchema,
    outputSchema: TrackShipmentOutputSchema,
    annotations: READ_ONLY,
    labels: false,
  },
  generate_label: {
    title: 'Generate a shipping label',
    description:
      'Creates a REAL, billable pre-posting at the carrier with the contract product code (serviceCode, e.g. 03298 PAC, ' +
      '03220 SEDEX; never a presentation name). It is not deduplicated: if the answer has reason ' +
      'label_pdf_timeout, call get_label_pdf with the prepostagemId instead of calling this again; after an unknown ' +
      'result, check diagnose_label_issue before resending.',
    inputSchema: GenerateLabelInputSchema,
    outputSchema: GenerateLabelOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    labels: true,
  },
  get_label_pdf: {
    title: 'Get a label PDF',
    description:
      'Returns the label PDF of a pre-posting (labelPdfBase64 and an application/pdf resource), or status and reason ' +
      'when it is not printable yet.',
    inputSchema: GetLabelPdfInputSchema,
    outputSchema: GetLabelPdfOutputSchema,
    annotations: READ_ONLY,
    labels: true,
  },
  diagnose_label_issue: {
    title: 'Diagnose a label issue',
    description:
      `With a supportCode, returns that issuance attempt, its evidence and the action to take; without one, the ${MAX_LISTED_ATTEMPTS} ` +
      `most recent attempts (${ATTEMPT_HISTORY_DAYS} days of history). ` +
      'Filter by source and orderId. No record does not prove no label exists.',
    inputSchema: DiagnoseLabelIssueInputSchema,
    annotations: READ_ONLY,
    labels: true,
  },
} as const satisfies Record<string, ToolDefinition>;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];
export const LABEL_TOOL_NAMES = TOOL_NAMES.filter((name) => TOOLS[name].labels);

/**
 * The partner tools of spec 4.4.6 (platform scope): offered only to a platform key (`pl_…`), never with the merchant
 * tools above. The sandbox registers them; the BFF never does (it holds a store key).
 */
export const PARTNER_TOOLS = {
  create_merchant: {
    title: 'Create a merchant',
    description:
      'Provisions a store for a merchant and returns its onboardingUrl: send the merchant there to finish the ' +
      'configuration (origin CEP, services, plan, carrier contract, label integration) and receive the keys. ' +
      'Follow the progress with get_merchant_status. The same externalId twice answers the same merchant.',
    inputSchema: CreateMerchantInputSchema,
    outputSchema: CreateMerchantOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    labels: false,
  },
  get_merchant_status: {
    title: 'Get a merchant status',
    description:
      'Status (pending or active) and onboarding steps of a merchant this partner created, and its public key once ' +
      'active. A merchant of another partner answers reason merchant_not_found.',
    inputSchema: GetMerchantStatusInputSchema,
    outputSchema: GetMerchantStatusOutputSchema,
    annotations: READ_ONLY,
    labels: false,
  },
} as const satisfies Record<string, ToolDefinition>;
