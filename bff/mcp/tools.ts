import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import {
  AgentLabelInputSchema,
  AgentLabelOutputSchema,
  PreviewLabelOutputSchema,
} from '../../shared/agent-label.ts';
import {
  diagnosisSummary,
  labelPdfSummary,
  ledgerUnavailableText,
  planSummary,
  previewSummary,
  ratesSummary,
  refusalSummary,
  trackingSummary,
} from '../../shared/agent-texts.ts';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/diagnosis.ts';
import { isApiError } from '../../shared/errors.ts';
import {
  isPlanRefusal,
  PlanShipmentInputSchema,
  PlanShipmentOutputSchema,
} from '../../shared/packing/plan.ts';
import { GetShippingRatesOutputSchema, McpRateSchema } from '../../shared/quote.ts';
import { TOOLS, type ToolDefinition } from '../../shared/tools.ts';
import type { AgentScope } from '../config.ts';
import { describeAnswer } from '../labels/answer.ts';
import type { LabelIssuer } from '../labels/issuer.ts';
import type { LabelAnswer, LabelService } from '../labels/service.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { ShipmentPlans } from '../packing/plans.ts';
import type { Caller } from '../policies/policy.ts';
import type { RatesService } from '../rates/service.ts';
import type { TrackingService } from '../tracking/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import { answer, failure, refused, transientFailure } from './tool-result.ts';

/** What the tools act through: the BFF's services, never the transport. */
export interface AgentToolDeps {
  rates: RatesService;
  tracking: TrackingService;
  issuer: LabelIssuer;
  labels: LabelService;
  serviceCodes: ServiceCodes;
  /** plan_shipment: the merchant's boxes (`BFF_BOXES`), packed off the event loop within a time budget. */
  plans: Pick<ShipmentPlans, 'plan'>;
  logger: Logger;
}

/** One tool of the BFF's MCP server: its name, the scope a token needs for it, and how it is registered. */
export interface AgentTool {
  readonly name: string;
  readonly scope: AgentScope;
  /** Registers it on a server for one request of one agent (`caller`: who asks, with its policy). */
  register(server: McpServer, deps: AgentToolDeps, caller: Caller): void;
}

/** A table entry: how agents see the tool (`shared/tools.ts`), and a handler of the input the SDK validated. */
function agentTool<Input extends z.ZodMiniType>(
  name: string,
  scope: AgentScope,
  config: ToolDefinition<Input>,
  handle: (input: SchemaOutput<Input>, deps: AgentToolDeps, caller: Caller) => Promise<CallToolResult>,
): AgentTool {
  return {
    name,
    scope,
    register(server, deps, caller) {
      // The SDK's callback type is a conditional over the schema, which TypeScript leaves unresolved for a generic
      // `Input`; for each concrete entry below it is exactly `(input: SchemaOutput<Input>) => …`.
      const callback = ((input: SchemaOutput<Input>) => handle(input, deps, caller)) as ToolCallback<Input>;
      server.registerTool(name, config, callback);
    },
  };
}

/** How long the agent waits before resending when the label ledger cannot be written. */
const LEDGER_RETRY_SECONDS = 30;

/** A quote's options with the contract code of each service the store's map knows (`BFF_SERVICE_CODES`). */
const AgentRatesOutputSchema = z.extend(GetShippingRatesOutputSchema, {
  rates: z.array(
    z.extend(McpRateSchema, {
      serviceCode: z.optional(
        z
          .string()
          .check(
            z.describe('The contract code to give generate_label for this option (serviceId works too).'),
          ),
      ),
    }),
  ),
});

const LABEL_TOOL_ADDITIONS =
  ' This server adds: orderId and volume (the intended label is the pair: the same pair again returns that label; ' +
  'another box of the order is another volume), serviceId from get_shipping_rates instead of serviceCode, and ' +
  'idempotencyKey. Without orderId or idempotencyKey, an identical request within 24 hours returns the first label ' +
  '(it is not sent again). Refusals (implausible input, an agent limit, a conflict) send nothing; a label may wait ' +
  'for the merchant (reason approval_pending: call again later with the same input). Use preview_label first to see ' +
  'the price and whether it would be sent.';

/** The structured answer (and its text) of a label request, for generate_label. */
function labelAnswer(result: LabelAnswer): CallToolResult {
  const { structured, summary, refused: isRefusal } = describeAnswer(result);
  return isRefusal ? refused(summary, structured) : answer(summary, structured);
}

/** The label ledger did not answer: nothing was sent (or the attempt stays pending); resend the same later. */
function ledgerDown(deps: AgentToolDeps, error: unknown): CallToolResult {
  // The ledger (PostgreSQL, node:sqlite) did not answer. Before the call, nothing was sent; after it, the attempt
  // stays pending and is settled from the platform's history once the ledger is back.
  deps.logger.error({ error: messageOf(error) }, 'labels: the label ledger could not be written');
  return failure(ledgerUnavailableText(LEDGER_RETRY_SECONDS), {
    error: 'ledger_unavailable',
    retryable: true,
    retryAfterSeconds: LEDGER_RETRY_SECONDS,
  });
}

/**
 * A failed quote or tracking call. A configuration refusal of the platform (spec 4.4, 7.3.1: 401/402/403/404, e.g.
 * `subscription_required`) is not transient, so never "try again later": the `empty` result with the reason and the
 * merchant's actionUrl, structured like the platform's MCP. Anything else is a transient failure of `what`.
 */
function upstreamFailure(error: unknown, what: 'Quoting' | 'Tracking', empty: object): CallToolResult {
  const { code, actionUrl } = isUpstreamError(error) && error.failure === 'config' ? error : {};
  if (!code) return transientFailure(what, error);
  const structured = { ...empty, reason: code, ...(actionUrl ? { actionUrl } : {}) };
  return answer(refusalSummary(what === 'Quoting' ? 'quote' : 'tracking', structured), structured);
}

/**
 * Every tool of the BFF's MCP server, in catalog order: one entry a tool (name, scope, how agents see it, what it
 * does). `tools/list` and the instructions follow this order; adding a tool is adding an entry.
 */
export const AGENT_TOOLS: readonly AgentTool[] = [
  agentTool(
    'get_shipping_rates',
    'rates',
    {
      ...TOOLS.get_shipping_rates,
      outputSchema: AgentRatesOutputSchema,
      description: `${TOOLS.get_shipping_rates.description} Each option carries the serviceCode to label it with, where this store maps its serviceId.`,
    },
    async (input, deps) => {
      try {
        const quoted = await deps.rates.quote(input);
        const output = { ...quoted, rates: deps.serviceCodes.withCodes(quoted.rates) };
        return answer(ratesSummary(output), output);
      } catch (error) {
        return upstreamFailure(error, 'Quoting', { rates: [] });
      }
    },
  ),

  agentTool('track_shipment', 'tracking', TOOLS.track_shipment, async (input, deps) => {
    try {
      // One result per requested code, in order, duplicates included (spec 2.3); codes checked like /api/tracking.
      const results = await deps.tracking.lookup(input.codes);
      return answer(trackingSummary(results), { results });
    } catch (error) {
      if (isApiError(error)) return failure(`Nothing was looked up: ${error.message}`, error.toBody());
      return upstreamFailure(error, 'Tracking', { results: [] });
    }
  }),

  agentTool(
    'generate_label',
    'labels',
    {
      ...TOOLS.generate_label,
      inputSchema: AgentLabelInputSchema,
      outputSchema: AgentLabelOutputSchema,
      description: `${TOOLS.generate_label.description}${LABEL_TOOL_ADDITIONS}`,
    },
    async (input, deps, caller) => {
      try {
        return labelAnswer(await deps.labels.generate(input, caller));
      } catch (error) {
        return ledgerDown(deps, error);
      }
    },
  ),

  agentTool(
    'preview_label',
    'labels',
    {
      title: 'Preview a shipping label',
      description:
        'A dry run of generate_label with the same input: checks it, maps the service, quotes the price for this ' +
        'package and destination, and says which policy applies (approval needed? labels and declared value left ' +
        'today?) and what would be printed. Creates nothing, sends nothing billable.',
      inputSchema: AgentLabelInputSchema,
      outputSchema: PreviewLabelOutputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      labels: true,
    },
    async (input, deps, caller) => {
      try {
        const preview = await deps.labels.preview(input, caller);
        return answer(previewSummary(preview), preview);
      } catch (error) {
        return ledgerDown(deps, error);
      }
    },
  ),

  agentTool(
    'plan_shipment',
    'labels',
    {
      title: 'Plan the boxes of an order',
      description:
        "Packs an order's items (dimensions in cm, weight in grams, quantity) into the merchant's boxes: fewest " +
        'boxes first, each within its box and the carrier limits (30 kg, 100 cm a side, 200 cm in all). Answers one ' +
        'volume per box (its box, items, weight with the tare, dimensions): issue one label per volume with ' +
        'generate_label, orderId and volume 1, 2, … . Creates nothing.',
      inputSchema: PlanShipmentInputSchema,
      outputSchema: PlanShipmentOutputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      labels: true,
    },
    async (input, deps) => {
      const plan = await deps.plans.plan(input);
      return isPlanRefusal(plan) ? refused(planSummary(plan), plan) : answer(planSummary(plan), plan);
    },
  ),

  agentTool(
    'get_label_pdf',
    'labels',
    {
      ...TOOLS.get_label_pdf,
      description:
        'Returns the label PDF of a pre-posting in labelPdfBase64 (once: not repeated in the text), or status and ' +
        'reason when it is not printable yet.',
    },
    async (input, deps) => {
      try {
        const structured = await deps.issuer.labelPdf(input.prepostagemId);
        return answer(labelPdfSummary(input.prepostagemId, structured), structured);
      } catch (error) {
        return transientFailure('The label service', error);
      }
    },
  ),

  agentTool(
    'diagnose_label_issue',
    'labels',
    // The platform declares no output schema for it (spec 2.7); the BFF declares the shape it answers.
    { ...TOOLS.diagnose_label_issue, outputSchema: DiagnoseLabelIssueOutputSchema },
    async (input, deps) => {
      try {
        const { instanceId: _ignored, ...args } = input;
        const structured = await deps.issuer.diagnose(args);
        return answer(diagnosisSummary(structured.attempts, args.supportCode !== undefined), structured);
      } catch (error) {
        return transientFailure('The label service', error);
      }
    },
  ),
];
