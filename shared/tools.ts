import type * as z from 'zod/mini';
import { DiagnoseLabelIssueInputSchema } from './labels/diagnosis.ts';
import {
  GenerateLabelInputSchema,
  GenerateLabelOutputSchema,
  GetLabelPdfInputSchema,
  GetLabelPdfOutputSchema,
} from './labels/label.ts';
import {
  CreateMerchantInputSchema,
  CreateMerchantOutputSchema,
  GetMerchantStatusInputSchema,
  GetMerchantStatusOutputSchema,
} from './merchant.ts';
import { ATTEMPT_HISTORY_DAYS, MAX_CODES, MAX_LISTED_ATTEMPTS } from './platform-limits.ts';
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
      'Quotes every enabled service (price in BRL, business days) for a CEP and cart items. Empty rates with a ' +
      'reason: no quote, never free shipping.',
    inputSchema: GetShippingRatesInputSchema,
    outputSchema: GetShippingRatesOutputSchema,
    annotations: READ_ONLY,
    labels: false,
  },
  track_shipment: {
    title: 'Track shipments',
    description:
      `Status and events of up to ${MAX_CODES} Correios codes, one result per code, in order. Found with no events: ` +
      'not delivered.',
    inputSchema: TrackShipmentInputSchema,
    outputSchema: TrackShipmentOutputSchema,
    annotations: READ_ONLY,
    labels: false,
  },
  generate_label: {
    title: 'Generate a shipping label',
    description:
      'Creates a REAL, billable pre-posting. Not deduplicated: on reason label_pdf_timeout call get_label_pdf, never ' +
      'this again; after an unknown result, check diagnose_label_issue before resending.',
    inputSchema: GenerateLabelInputSchema,
    outputSchema: GenerateLabelOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    labels: true,
  },
  get_label_pdf: {
    title: 'Get a label PDF',
    description:
      'The PDF of a pre-posting (labelPdfBase64 and an application/pdf resource), or status and reason while not ' +
      'printable.',
    inputSchema: GetLabelPdfInputSchema,
    outputSchema: GetLabelPdfOutputSchema,
    annotations: READ_ONLY,
    labels: true,
  },
  diagnose_label_issue: {
    title: 'Diagnose a label issue',
    description:
      `With a supportCode: that attempt, its evidence and the action. Without: the ${MAX_LISTED_ATTEMPTS} latest ` +
      `(${ATTEMPT_HISTORY_DAYS} days), by source and orderId. No record does not prove no label.`,
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
