import type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
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
import { isApiError } from '../../shared/errors.ts';
import { type AgentLabelInput, AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
import { isPlanRefusal, PlanShipmentInputSchema } from '../../shared/packing/plan.ts';
import { MAX_VOLUME } from '../../shared/platform-limits.ts';
import { TOOLS, type ToolDefinition } from '../../shared/tools.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { AgentScope } from '../agent-tokens.ts';
import type { LabelAnswer } from '../labels/answer.ts';
import { describeAnswer } from '../labels/answer.ts';
import type { LabelIssuer } from '../labels/issuer.ts';
import type { LabelService } from '../labels/service.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { OrderDesk } from '../orders/order-desk.ts';
import { AFTER_LABEL_REVIEWS } from '../orders/to-ship.ts';
import type { ShipmentPlans } from '../packing/packing.ts';
import { type Caller, serviceAllowed } from '../policies/policies.ts';
import { isQuoteShareSpent, quoteCallerOf } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';
import type { TrackingService } from '../tracking/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import { answer, failure, refused, transientFailure } from './tool-result.ts';

/** What the tools act through: the BFF's services, never the transport. */
export interface AgentToolDeps {
  rates: RatesService;
  tracking: TrackingService;
  /** Adds the promise a parcel was sold with and `late: true` past it (bff/promise/routes.ts), as `/api/tracking` does. */
  promised?: (<T extends TrackingLookupResult>(results: T[]) => Promise<T[]>) | undefined;
  issuer: LabelIssuer;
  labels: LabelService;
  serviceCodes: ServiceCodes;
  /** plan_shipment: the merchant's boxes (`BFF_BOXES`), packed off the event loop within a time budget. */
  plans: Pick<ShipmentPlans, 'plan'>;
  /** The orders to ship and the day's labels (bff/orders/). */
  orders: Pick<OrderDesk, 'list' | 'labelsOfDay'>;
  logger: Logger;
}

/** `list_orders_to_ship`: which orders (default: those still to ship), and how many at most. */
const ListOrdersInputSchema = z.strictObject({
  state: z.optional(
    z
      .enum(['to_ship', 'new', 'partly_labelled', 'labelled', 'posted'])
      .check(z.describe('Default to_ship: new and partly labelled.')),
  ),
  limit: z.optional(z.int().check(z.gte(1), z.lte(100), z.describe('Default 50.'))),
});

/** `list_labels`: one São Paulo day's labels. */
const ListLabelsInputSchema = z.strictObject({
  day: z.optional(
    z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe('YYYY-MM-DD, São Paulo (default today).')),
  ),
});

/** Annotations: a read that reaches the platform (`READ`), of this BFF's own data (`LIST`), a person's click. */
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
export const LIST = { ...READ, openWorldHint: false };
export const CLICK = { ...READ, readOnlyHint: false, destructiveHint: true };

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
      // No output schema is listed: every answer's text is its summary and its JSON, and the list is what each agent
      // reads before its first call (issue 38: 6,525 tokens with them, the shapes in docs/agents/labels.md).
      const { outputSchema: _shape, ...listed } = config;
      return server.registerTool(name, listed, callback);
    },
  };
}

/** How long the agent waits before resending when the label ledger cannot be written. */
const LEDGER_RETRY_SECONDS = 30;

/**
 * generate_label as this server issues it: unlike the platform's, an intended label is issued once (the ledger).
 * Every guardrail an agent must know before its first call, and no more.
 */
const GENERATE_LABEL_TEXT =
  'Creates a REAL, billable pre-posting. Give orderId (+ volume per box) or idempotencyKey and reuse them on retry: ' +
  'the same returns that label, never a second (without either, an identical request within 24 h does). Unknown ' +
  'outcome: call again, same input. label_pdf_timeout: get_label_pdf, never this. approval_pending: the merchant ' +
  'decides; call again later, same input. Refusals send nothing. preview_label first shows price and policy.';

/**
 * preview_label's listed input: generate_label's, by reference. Listing that schema twice cost every agent ~1,400
 * tokens for nothing it did not already read; the handler checks the input with the same schema as generate_label
 * (`AgentLabelInputSchema`). `additionalProperties: true` (metadata copied into the JSON Schema) says so plainly.
 */
const PreviewLabelListedInputSchema = z.looseObject({}).register(z.globalRegistry, {
  additionalProperties: true,
  description: "Exactly generate_label's input (see its schema).",
});

/** An input the SDK did not check (preview_label's), checked as generate_label's is, answered as the SDK would. */
function labelInputOf(input: unknown, tool: string): AgentLabelInput | CallToolResult {
  const parsed = AgentLabelInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    .join('; ');
  return failure(`Input validation error: Invalid arguments for tool ${tool}: ${issues}`, {
    error: 'invalid_arguments',
  });
}

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
      description: `${TOOLS.get_shipping_rates.description} Each option carries the serviceCode to label it with.`,
    },
    async (input, deps, caller) => {
      try {
        // Each agent spends its own share of the store's quotes (cached answers are free).
        // The shopper's price under the merchant's shipping rules, and beside it the platform's (what a label costs).
        const {
          platformPrices,
          rulesVersion: _version,
          ...quoted
        } = await deps.rates.shopperQuote(input, quoteCallerOf(caller));
        const rates = deps.serviceCodes
          .withCodes(quoted.rates)
          .map((rate) => ({ ...rate, platformPrice: platformPrices?.[rate.serviceId] ?? rate.price }));
        const output = { ...quoted, rates };
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
      const found = await deps.tracking.lookup(input.codes);
      const results = deps.promised ? await deps.promised(found) : found;
      return answer(trackingSummary(results), { results });
    } catch (error) {
      if (isApiError(error)) return failure(`Nothing was looked up: ${error.message}`, error.toBody());
      return upstreamFailure(error, 'Tracking', { results: [] });
    }
  }),

  agentTool(
    'generate_label',
    'labels',
    { ...TOOLS.generate_label, inputSchema: AgentLabelInputSchema, description: GENERATE_LABEL_TEXT },
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
        "generate_label's dry run, same input: the label's cost to the store, whether it would be sent now or wait " +
        'for approval, the limits left today, what would print. Creates nothing.',
      inputSchema: PreviewLabelListedInputSchema,
      annotations: READ,
      labels: true,
    },
    async (raw, deps, caller) => {
      const input = labelInputOf(raw, 'preview_label');
      if ('content' in input) return input;
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
        "Packs an order into the merchant's boxes, fewest first, within carrier limits (30 kg, 100 cm a side, 200 cm " +
        `in all): one volume per box, each its own label (orderId, volume 1, 2, …); over ${MAX_VOLUME} volumes is ` +
        'refused. Creates nothing.',
      inputSchema: PlanShipmentInputSchema,
      annotations: LIST,
      labels: true,
    },
    async (input, deps) => {
      const plan = await deps.plans.plan(input);
      return isPlanRefusal(plan) ? refused(planSummary(plan), plan) : answer(planSummary(plan), plan);
    },
  ),

  agentTool(
    'list_orders_to_ship',
    'labels',
    {
      title: "List the store's orders to ship",
      description:
        "The store's paid orders: recipient, items, chosen serviceId, planned volumes and their labels. needsReview: " +
        'the merchant decides, do not label. Else generate_label once per planned volume (orderId, volume 1, 2, …).',
      inputSchema: ListOrdersInputSchema,
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
        order.needsReview.some((r) => !AFTER_LABEL_REVIEWS.includes(r.reason)),
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
        "One São Paulo day's labels (default today): order, volume, state, tracking code, service, who issued it.",
      inputSchema: ListLabelsInputSchema,
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
        'The PDF of a pre-posting in labelPdfBase64 (once, not in the text), or status and reason while not printable.',
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
    {
      ...TOOLS.diagnose_label_issue,
      description: `${TOOLS.diagnose_label_issue.description} By orderId, this server's attempts too.`,
    },
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
