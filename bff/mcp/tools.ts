import type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
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
import { DeliveryPromiseSchema } from '../../shared/delivery-promise.ts';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/diagnosis.ts';
import { isApiError } from '../../shared/errors.ts';
import type { Box } from '../../shared/packing/box.ts';
import {
  isPlanRefusal,
  PlanShipmentInputSchema,
  PlanShipmentOutputSchema,
} from '../../shared/packing/plan.ts';
import { planShipment } from '../../shared/packing/planner.ts';
import { GetShippingRatesOutputSchema, McpRateSchema } from '../../shared/quote.ts';
import { TOOLS, type ToolDefinition } from '../../shared/tools.ts';
import type { AgentScope } from '../config.ts';
import { describeAnswer } from '../labels/answer.ts';
import type { LabelIssuer } from '../labels/issuer.ts';
import type { LabelAnswer, LabelService } from '../labels/service.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { OrderDesk } from '../orders/order-desk.ts';
import { type Caller, serviceAllowed } from '../policies/policy.ts';
import { isQuoteShareSpent, quoteCallerOf } from '../rates/quote-share.ts';
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
  /** The merchant's boxes (`BFF_BOXES`) for plan_shipment. */
  boxes: readonly Box[];
  /** The orders to ship and the day's labels (bff/orders/). */
  orders: Pick<OrderDesk, 'list' | 'labelsOfDay'>;
  logger: Logger;
}

/** `list_orders_to_ship`: which orders (default: those still to ship), and how many at most. */
const ListOrdersInputSchema = z.strictObject({
  state: z.optional(
    z
      .enum(['to_ship', 'new', 'partly_labelled', 'labelled', 'posted'])
      .check(z.describe('to_ship (default): new and partly labelled; or one state.')),
  ),
  limit: z.optional(
    z.int().check(z.gte(1), z.lte(100), z.describe('At most this many orders (default 50).')),
  ),
});

const ListOrdersOutputSchema = z.looseObject({
  orders: z.array(z.looseObject({ orderId: z.string(), state: z.string() })),
});

/** `list_labels`: one São Paulo day's labels. */
const ListLabelsInputSchema = z.strictObject({
  day: z.optional(
    z
      .string()
      .check(
        z.regex(/^\d{4}-\d{2}-\d{2}$/),
        z.describe('The São Paulo calendar day, YYYY-MM-DD (default today).'),
      ),
  ),
});

const ListLabelsOutputSchema = z.looseObject({
  day: z.string(),
  labels: z.array(z.looseObject({ attemptId: z.string(), state: z.string() })),
});

const LIST = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** One tool of the BFF's MCP server: its name, the scope a token needs for it, and how it is registered. */
export interface AgentTool {
  readonly name: string;
  readonly scope: AgentScope;
  /** Registers it on a server for one request of one agent (`caller`: who asks, with its policy). */
  register(server: McpServer, deps: AgentToolDeps, caller: Caller): RegisteredTool;
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
      return server.registerTool(name, config, callback);
    },
  };
}

/** How long the agent waits before resending when the label ledger cannot be written. */
const LEDGER_RETRY_SECONDS = 30;

/** A quote's options with the contract code of each service the store's map knows (`BFF_SERVICE_CODES`). */
const AgentRatesOutputSchema = z.extend(GetShippingRatesOutputSchema, {
  rates: z.array(
    z.extend(McpRateSchema, {
      promise: z.optional(DeliveryPromiseSchema),
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

/** The structured answer (and its text) of a label request, for generate_label (and the app's click). */
export function labelAnswer(result: LabelAnswer): CallToolResult {
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

/** This agent's share of the store's quotes is spent: no quote now, and when to ask again (cached quotes still answer). */
function shareSpent(retryAfterSeconds: number): CallToolResult {
  return refused(
    `No quote: this agent's share of the store's quotes is spent (others keep being served); an identical quote is still answered from the cache. Retry in ${retryAfterSeconds} seconds.`,
    { rates: [], reason: 'rate_limited', retryable: true, retryAfterSeconds },
  );
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
    async (input, deps, caller) => {
      try {
        // Each agent spends its own share of the store's quotes (cached answers are free).
        const quoted = await deps.rates.quote(input, quoteCallerOf(caller));
        const output = { ...quoted, rates: deps.serviceCodes.withCodes(quoted.rates) };
        return answer(ratesSummary(output), output);
      } catch (error) {
        if (isQuoteShareSpent(error)) return shareSpent(error.retryAfterSeconds);
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
      const plan = planShipment(input, deps.boxes);
      return isPlanRefusal(plan) ? refused(planSummary(plan), plan) : answer(planSummary(plan), plan);
    },
  ),

  agentTool(
    'list_orders_to_ship',
    'labels',
    {
      title: "List the store's orders to ship",
      description:
        "The store's paid orders (Shopify, Nuvemshop, the CSV import) with their recipient, items, chosen serviceId, " +
        'state, the volumes the packer planned (box, weight, dimensions, items) and their labels. An order with ' +
        'needsReview waits for the merchant: do not label it. For the others, call generate_label once per planned ' +
        'volume with orderId and volume 1, 2, … (the same pair again answers the same label). Creates nothing.',
      inputSchema: ListOrdersInputSchema,
      outputSchema: ListOrdersOutputSchema,
      annotations: LIST,
      labels: true,
    },
    async (input, deps, caller) => {
      // Within the agent's policy: an order of a service it may not use is not its to label.
      const all = await deps.orders.list({ state: input.state ?? 'to_ship' });
      const mine = all.filter(
        (order) =>
          !order.serviceId ||
          serviceAllowed(caller.policy, {
            serviceCode: deps.serviceCodes.codeOf(order.serviceId) ?? '',
            serviceId: order.serviceId,
          }),
      );
      const orders = mine.slice(0, input.limit ?? 50);
      const review = orders.filter((order) =>
        order.needsReview.some((r) => r.reason !== 'changed_after_label'),
      );
      const listed = orders.slice(0, 20).map((order) => `${order.orderId} (${order.state})`);
      const summary = [
        orders.length === 0
          ? 'No orders in this state.'
          : `${orders.length} order(s): ${listed.join(', ')}${orders.length > 20 ? ', …' : ''}.`,
        review.length > 0 ? `${review.length} need the merchant's review first.` : '',
        all.length > mine.length
          ? `${all.length - mine.length} of services this agent may not use are left out.`
          : '',
      ]
        .filter(Boolean)
        .join(' ');
      return answer(summary, { orders });
    },
  ),

  agentTool(
    'list_labels',
    'labels',
    {
      title: "List a day's labels",
      description:
        'The labels asked for on one São Paulo day (default today), oldest first: order, volume, state, tracking ' +
        'code, service and who issued it — "what shipped today?". Creates nothing.',
      inputSchema: ListLabelsInputSchema,
      outputSchema: ListLabelsOutputSchema,
      annotations: LIST,
      labels: true,
    },
    async (input, deps) => {
      const { day, labels } = await deps.orders.labelsOfDay(input.day);
      const rows = labels.map((attempt) => ({
        attemptId: attempt.id,
        orderId: attempt.orderId,
        volume: attempt.volume,
        state: attempt.state,
        trackingCode: attempt.trackingCode,
        serviceCode: attempt.serviceCode,
        issuedBy: attempt.issuedBy,
        createdAt: new Date(attempt.createdAt).toISOString(),
      }));
      const created = rows.filter((row) => row.state === 'created').length;
      return answer(`${day}: ${rows.length} label(s), ${created} created.`, { day, labels: rows });
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
