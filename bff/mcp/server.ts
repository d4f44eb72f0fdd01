import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import express, { type Request, type Response, Router } from 'express';
import * as z from 'zod/mini';
import {
  diagnosisSummary,
  labelPdfResource,
  labelPdfSummary,
  labelSummary,
  ratesSummary,
  refusalSummary,
  trackingSummary,
} from '../../shared/agent-texts.ts';
import { ApiError, isApiError } from '../../shared/errors.ts';
import { GenerateLabelInputSchema } from '../../shared/label.ts';
import { isLoopbackHostname } from '../../shared/security/loopback.ts';
import { rebindingGuard } from '../../shared/security/rebinding.ts';
import { TOOLS, type ToolName } from '../../shared/tools.ts';
import type { AgentScope, BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { type LabelIssuer, unknownAdvice } from '../labels/issuer.ts';
import type { Logger } from '../logger.ts';
import type { RatesService } from '../rates/service.ts';
import type { TrackingService } from '../tracking/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { PlatformMcp } from '../upstream/platform-mcp.ts';
import { type AgentAuth, type AgentTokenSource, anyOf, staticTokenAuth } from './agent-auth.ts';
import { JsonExchange } from './json-exchange.ts';
import { answer, failure, transientFailure } from './tool-result.ts';

const SCOPE_OF: Record<ToolName, AgentScope> = {
  get_shipping_rates: 'rates',
  track_shipment: 'tracking',
  generate_label: 'labels',
  get_label_pdf: 'labels',
  diagnose_label_issue: 'labels',
};

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

export interface AgentMcpDeps {
  config: BffConfig;
  rates: RatesService;
  tracking: TrackingService;
  platform: PlatformMcp;
  issuer: LabelIssuer;
  logger: Logger;
  /** OAuth access tokens, consulted after the static agent tokens (absent without BFF_ADMIN_PASSWORD). */
  oauth?: AgentTokenSource | undefined;
  /** Who the caller is: static agent tokens, then OAuth, by default; tests may chain another source. */
  auth?: AgentAuth;
}

/**
 * A configuration refusal of the platform (spec 4.4, 7.3.1: 401/402/403/404, e.g. `subscription_required`): not
 * transient, so never "try again later"; the reason and the merchant's actionUrl, structured like the platform's MCP.
 */
function configRefusal(error: unknown): { reason: string; actionUrl?: string } | undefined {
  if (!isUpstreamError(error) || error.failure !== 'config' || !error.code) return undefined;
  return { reason: error.code, ...(error.actionUrl ? { actionUrl: error.actionUrl } : {}) };
}

/** The tools a token may use: its scopes intersected with what the platform grants this store. */
export async function offeredTools(
  deps: AgentMcpDeps,
  scopes: readonly AgentScope[],
): Promise<{ tools: ToolName[]; why?: string }> {
  const wanted = (Object.keys(TOOLS) as ToolName[]).filter((name) => scopes.includes(SCOPE_OF[name]));
  if (!scopes.includes('labels')) return { tools: wanted };
  const labels = await deps.platform.labelAvailability();
  if (labels.available) return { tools: wanted };
  return {
    tools: wanted.filter((name) => SCOPE_OF[name] !== 'labels'),
    ...(labels.why ? { why: labels.why } : {}),
  };
}

/**
 * One JSON Schema validator for every per-request server: the SDK otherwise builds a new Ajv instance (with its
 * formats) for each, about half a millisecond of every MCP call (profiled for bench figure 5). It holds no state of
 * a request.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

function buildServer(deps: AgentMcpDeps, tools: ToolName[], why: string | undefined): McpServer {
  const offered = new Set(tools);
  const instructions = agentInstructions(offered, why);
  const server = new McpServer(
    { name: 'frete-kit-bff', version: '1.0.0' },
    { instructions, jsonSchemaValidator: SCHEMA_VALIDATOR },
  );

  if (offered.has('get_shipping_rates')) {
    server.registerTool('get_shipping_rates', TOOLS.get_shipping_rates, async (input) => {
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
    });
  }

  if (offered.has('track_shipment')) {
    server.registerTool('track_shipment', TOOLS.track_shipment, async (input) => {
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
    });
  }

  if (offered.has('generate_label')) {
    server.registerTool(
      'generate_label',
      {
        ...TOOLS.generate_label,
        inputSchema: AgentGenerateLabelInputSchema,
        description: `${TOOLS.generate_label.description} Optional idempotencyKey (an addition of this server): the same key returns the first result and never issues again.`,
      },
      async (input) => {
        const { idempotencyKey, ...label } = input;
        let outcome: Awaited<ReturnType<LabelIssuer['issue']>>;
        try {
          outcome = await deps.issuer.issue(label, idempotencyKey);
        } catch (error) {
          // The ledger (PostgreSQL, node:sqlite) did not answer. Before the call, nothing was sent; after it, the
          // attempt stays pending and is settled from the platform's history once the ledger is back.
          deps.logger.error(
            { error: error instanceof Error ? error.message : String(error) },
            'labels: the label ledger could not be written',
          );
          return failure(
            'The label ledger is unavailable right now. Resend the same input with the same idempotencyKey in 30 seconds: this server never issues a label twice, and checks the platform history for a request that was already in the air.',
            { error: 'ledger_unavailable', retryable: true, retryAfterSeconds: 30 },
          );
        }
        switch (outcome.kind) {
          case 'created':
            return answer(labelSummary(outcome.record, outcome.replayed), outcome.record);
          case 'rejected':
            return answer(labelSummary({ ...outcome.record, prepostagemId: undefined }), outcome.record);
          case 'unknown': {
            const structured = {
              reason: 'outcome_unknown',
              status: `The answer to this request was lost after it was sent (at ${new Date(outcome.since).toISOString()}): the pre-posting may or may not exist. Do not resend with a new key. Calling generate_label again with the same input checks the platform history first and never creates a second label while the outcome is unknown. Still unknown because ${unknownAdvice(outcome.why)}. If it stays unknown, the merchant checks the carrier's panel and settles it with \`npm run ledger -- resolve ${outcome.attemptId}\`.`,
              attemptId: outcome.attemptId,
            };
            return answer(`Outcome UNKNOWN (reason: outcome_unknown). ${structured.status}`, structured);
          }
          case 'not_sent': {
            const structured = {
              reason: 'not_sent',
              status:
                'The request did not reach the platform (connection refused, DNS, TLS, or an error answered before the tool ran): no pre-posting was created. Send the same request again once the platform answers.',
            };
            return answer(`Not sent (reason: not_sent). ${structured.status}`, structured);
          }
          case 'refused':
            return failure(outcome.message);
        }
      },
    );
  }

  if (offered.has('get_label_pdf')) {
    server.registerTool('get_label_pdf', TOOLS.get_label_pdf, async (input) => {
      try {
        const structured = await deps.issuer.labelPdf(input.prepostagemId);
        const pdf = structured.labelPdfBase64;
        const summary = labelPdfSummary(input.prepostagemId, structured);
        return answer(summary, structured, pdf ? [labelPdfResource(input.prepostagemId, pdf)] : []);
      } catch (error) {
        return transientFailure('The label service', error);
      }
    });
  }

  if (offered.has('diagnose_label_issue')) {
    server.registerTool('diagnose_label_issue', TOOLS.diagnose_label_issue, async (input) => {
      try {
        const { instanceId: _ignored, ...args } = input;
        const structured = await deps.issuer.diagnose(args);
        return answer(diagnosisSummary(structured.attempts, args.supportCode !== undefined), structured);
      } catch (error) {
        return transientFailure('The label service', error);
      }
    });
  }
  return server;
}

/** The agent's instructions: only about the tools this token gets, in our words (never upstream text). */
function agentInstructions(offered: ReadonlySet<ToolName>, why: string | undefined): string {
  const lines = [
    `Shipping tools of this store: ${[...offered].join(', ') || 'none'}. Every result ends with its structured JSON.`,
    'A result with reason and actionUrl is a configuration problem for the merchant (show them actionUrl); calling again will not help.',
    'An error that says "try again in N seconds" is transient: wait that long before calling again.',
  ];
  if (offered.has('get_shipping_rates'))
    lines.push('An empty rates list is "no quote available", never free shipping.');
  if (offered.has('generate_label')) {
    lines.push(
      'generate_label creates a REAL, billable pre-posting. Pass an idempotencyKey (one per intended label) and reuse it when you retry.',
      'If a result says the outcome is unknown, do not resend with another key: call generate_label again with the same input, and the server checks the platform history first.',
      'A result with reason not_sent never reached the platform: nothing was created; send the same request again once the platform answers.',
    );
  }
  if (why) lines.push(`Label tools are not offered: ${why}.`);
  return lines.join('\n');
}

/**
 * `POST /mcp`: Streamable HTTP, stateless (a new server and transport per request), agent tokens with scopes. Order
 * matters: the Host/Origin check and the token come before the body is read, so an unauthenticated sender cannot
 * make the server parse a large body.
 */
export function agentMcpRoutes(deps: AgentMcpDeps): Router {
  const router = Router();
  const oauth = deps.oauth;
  const auth =
    deps.auth ??
    anyOf(
      staticTokenAuth(deps.config.agentTokens),
      ...(oauth ? [(authorization: string | undefined) => oauth.scopes(authorization)] : []),
    );
  // Bound to loopback, local tools and pages on any port may call (the MCP Inspector, a dev server).
  const guard = rebindingGuard({
    publicUrl: deps.config.publicUrl,
    allowedOrigins: deps.config.allowedOrigins,
    loopback: isLoopbackHostname(deps.config.host) ? 'any-port' : 'none',
  });
  router.use('/mcp', guard);
  router.post('/mcp', async (req: Request, res: Response, next) => {
    const scopes = await auth(req.headers.authorization);
    if (!scopes) {
      res.setHeader(
        'WWW-Authenticate',
        oauth?.challenge(req.headers.authorization) ?? 'Bearer realm="frete-kit-bff", error="invalid_token"',
      );
      // Connection: close, so a body we did not read is not drained on a kept-alive connection.
      res.setHeader('Connection', 'close');
      const error = new ApiError('invalid_api_key', 'Send Authorization: Bearer <agent token>.');
      res.status(error.status).json(error.toBody());
      return;
    }
    res.locals.scopes = scopes;
    next();
  });
  router.post('/mcp', express.json({ limit: '1mb' }), async (req: Request, res: Response) => {
    const scopes = res.locals.scopes as AgentScope[];
    const { tools, why } = await offeredTools(deps, scopes);
    const server = buildServer(deps, tools, why);
    const exchange = new JsonExchange();
    res.on('close', () => {
      void server.close();
    });
    await server.connect(exchange);
    await exchange.handle(req, res, req.body);
  });
  router.all('/mcp', methodNotAllowed('POST'));
  return router;
}
