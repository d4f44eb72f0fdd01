import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import {
  diagnosisSummary,
  labelPdfResource,
  labelPdfSummary,
  labelSummary,
  ledgerUnavailableText,
  notSentStatus,
  outcomeUnknownStatus,
  ratesSummary,
  refusalSummary,
  trackingSummary,
  unsettledLabelSummary,
} from '../../shared/agent-texts.ts';
import { isApiError } from '../../shared/errors.ts';
import { GenerateLabelInputSchema } from '../../shared/label.ts';
import { TOOLS, type ToolDefinition } from '../../shared/tools.ts';
import type { AgentScope } from '../config.ts';
import { type LabelIssuer, unknownAdvice } from '../labels/issuer.ts';
import type { Logger } from '../logger.ts';
import type { RatesService } from '../rates/service.ts';
import type { TrackingService } from '../tracking/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import { answer, failure, transientFailure } from './tool-result.ts';

/** What the tools act through: the BFF's services, never the transport. */
export interface AgentToolDeps {
  rates: RatesService;
  tracking: TrackingService;
  issuer: LabelIssuer;
  logger: Logger;
}

/** One tool of the BFF's MCP server: its name, the scope a token needs for it, and how it is registered. */
export interface AgentTool {
  readonly name: string;
  readonly scope: AgentScope;
  register(server: McpServer, deps: AgentToolDeps): void;
}

/** A table entry: how agents see the tool (`shared/tools.ts`), and a handler of the input the SDK validated. */
function agentTool<Input extends z.ZodMiniType>(
  name: string,
  scope: AgentScope,
  config: ToolDefinition<Input>,
  handle: (input: SchemaOutput<Input>, deps: AgentToolDeps) => Promise<CallToolResult>,
): AgentTool {
  return {
    name,
    scope,
    register(server, deps) {
      // The SDK's callback type is a conditional over the schema, which TypeScript leaves unresolved for a generic
      // `Input`; for each concrete entry below it is exactly `(input: SchemaOutput<Input>) => …`.
      const callback = ((input: SchemaOutput<Input>) => handle(input, deps)) as ToolCallback<Input>;
      server.registerTool(name, config, callback);
    },
  };
}

/** How long the agent waits before resending when the label ledger cannot be written. */
const LEDGER_RETRY_SECONDS = 30;

/** generate_label with one addition beyond the spec: an optional idempotency key. */
export const AgentGenerateLabelInputSchema = z.extend(GenerateLabelInputSchema, {
  idempotencyKey: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(200),
        z.describe(
          'Your own key for this one intended label (e.g. "order-1234-label-1"); calling again with the same key returns the first result and never issues a second label.',
        ),
      ),
  ),
});

/**
 * A configuration refusal of the platform (spec 4.4, 7.3.1: 401/402/403/404, e.g. `subscription_required`): not
 * transient, so never "try again later"; the reason and the merchant's actionUrl, structured like the platform's MCP.
 */
function configRefusal(error: unknown): { reason: string; actionUrl?: string } | undefined {
  if (!isUpstreamError(error) || error.failure !== 'config' || !error.code) return undefined;
  return { reason: error.code, ...(error.actionUrl ? { actionUrl: error.actionUrl } : {}) };
}

/**
 * Every tool of the BFF's MCP server, in catalog order: one entry a tool (name, scope, how agents see it, what it
 * does). `tools/list` and the instructions follow this order; adding a tool is adding an entry.
 */
export const AGENT_TOOLS: readonly AgentTool[] = [
  agentTool('get_shipping_rates', 'rates', TOOLS.get_shipping_rates, async (input, deps) => {
    try {
      const output = await deps.rates.quote(input);
      return answer(ratesSummary(output), output);
    } catch (error) {
      const refusal = configRefusal(error);
      if (refusal) {
        const structured = { rates: [], ...refusal };
        return answer(refusalSummary('quote', structured), structured);
      }
      return transientFailure('Quoting', error);
    }
  }),

  agentTool('track_shipment', 'tracking', TOOLS.track_shipment, async (input, deps) => {
    try {
      // One result per requested code, in order, duplicates included (spec 2.3); codes checked like /api/tracking.
      const results = await deps.tracking.lookup(input.codes);
      return answer(trackingSummary(results), { results });
    } catch (error) {
      if (isApiError(error)) return failure(`Nothing was looked up: ${error.message}`, error.toBody());
      const refusal = configRefusal(error);
      if (refusal) {
        const structured = { results: [], ...refusal };
        return answer(refusalSummary('tracking', structured), structured);
      }
      return transientFailure('Tracking', error);
    }
  }),

  agentTool(
    'generate_label',
    'labels',
    {
      ...TOOLS.generate_label,
      inputSchema: AgentGenerateLabelInputSchema,
      description: `${TOOLS.generate_label.description} Optional idempotencyKey (an addition of this server): the same key returns the first result and never issues again.`,
    },
    async (input, deps) => {
      const { idempotencyKey, ...label } = input;
      let outcome: Awaited<ReturnType<LabelIssuer['issue']>>;
      try {
        outcome = await deps.issuer.issue(label, { idempotencyKey });
      } catch (error) {
        // The ledger (PostgreSQL, node:sqlite) did not answer. Before the call, nothing was sent; after it, the
        // attempt stays pending and is settled from the platform's history once the ledger is back.
        deps.logger.error(
          { error: error instanceof Error ? error.message : String(error) },
          'labels: the label ledger could not be written',
        );
        return failure(ledgerUnavailableText(LEDGER_RETRY_SECONDS), {
          error: 'ledger_unavailable',
          retryable: true,
          retryAfterSeconds: LEDGER_RETRY_SECONDS,
        });
      }
      switch (outcome.kind) {
        case 'created':
          return answer(labelSummary(outcome.record, outcome.replayed), outcome.record);
        case 'rejected':
          return answer(labelSummary({ ...outcome.record, prepostagemId: undefined }), outcome.record);
        case 'unknown': {
          const status = outcomeUnknownStatus({
            sentAt: outcome.since,
            because: unknownAdvice(outcome.why),
            attemptId: outcome.attemptId,
          });
          const structured = { reason: 'outcome_unknown' as const, status, attemptId: outcome.attemptId };
          return answer(unsettledLabelSummary(structured), structured);
        }
        case 'not_sent': {
          const structured = { reason: 'not_sent' as const, status: notSentStatus() };
          return answer(unsettledLabelSummary(structured), structured);
        }
        case 'refused':
          return failure(outcome.message);
      }
    },
  ),

  agentTool('get_label_pdf', 'labels', TOOLS.get_label_pdf, async (input, deps) => {
    try {
      const structured = await deps.issuer.labelPdf(input.prepostagemId);
      const pdf = structured.labelPdfBase64;
      const summary = labelPdfSummary(input.prepostagemId, structured);
      return answer(summary, structured, pdf ? [labelPdfResource(input.prepostagemId, pdf)] : []);
    } catch (error) {
      return transientFailure('The label service', error);
    }
  }),

  agentTool('diagnose_label_issue', 'labels', TOOLS.diagnose_label_issue, async (input, deps) => {
    try {
      const { instanceId: _ignored, ...args } = input;
      const structured = await deps.issuer.diagnose(args);
      return answer(diagnosisSummary(structured.attempts, args.supportCode !== undefined), structured);
    } catch (error) {
      return transientFailure('The label service', error);
    }
  }),
];
