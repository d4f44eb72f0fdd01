import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type Response, Router } from 'express';
import * as z from 'zod/mini';
import { GenerateLabelInputSchema } from '../../shared/label.ts';
import { formatBRL } from '../../shared/money.ts';
import { cleanTrackingCode } from '../../shared/s10.ts';
import { TOOLS, type ToolName } from '../../shared/tools.ts';
import type { AgentScope, BffConfig } from '../config.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { type LabelIssuer, unknownAdvice } from '../labels/issuer.ts';
import { type Logger, scrubSecrets } from '../logger.ts';
import type { RatesService } from '../rates/service.ts';
import type { TrackingService } from '../tracking/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { PlatformMcp } from '../upstream/platform-mcp.ts';
import { type AgentTokenSource, agentScopes } from './agent-auth.ts';

const SCOPE_OF: Record<ToolName, AgentScope> = {
  get_shipping_rates: 'rates',
  track_shipment: 'tracking',
  generate_label: 'labels',
  get_label_pdf: 'labels',
  diagnose_label_issue: 'labels',
};

/** generate_label with one addition beyond the spec: an optional idempotency key. */
export const AgentGenerateLabelInputSchema = z.extend(GenerateLabelInputSchema, {
  idempotencyKey: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
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
}

/** Text for an agent: built by us from structured data, with no key and no upstream internals. */
function answer(
  text: string,
  structured: Record<string, unknown>,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return { content: [{ type: 'text', text: scrubSecrets(text) }, ...extra], structuredContent: structured };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text: scrubSecrets(text) }], isError: true };
}

function reasonLines(value: { reason?: string | undefined; actionUrl?: string | undefined }): string {
  return `${value.reason ? `\nreason: ${value.reason}` : ''}${value.actionUrl ? `\nactionUrl (for the merchant): ${value.actionUrl}` : ''}`;
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

function buildServer(deps: AgentMcpDeps, tools: ToolName[], why: string | undefined): McpServer {
  const instructions = [
    'Shipping tools of this store (quotes, tracking and Correios labels). Always read reason and actionUrl.',
    'generate_label creates a REAL, billable pre-posting. Pass an idempotencyKey (one per intended label) and reuse it when you retry.',
    'If a result says the outcome is unknown, do not resend with another key: call generate_label again with the same input, and the server checks the platform history first.',
    why ? `Label tools are not offered: ${why}.` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const server = new McpServer({ name: 'frete-kit-bff', version: '1.0.0' }, { instructions });
  const offered = new Set(tools);

  if (offered.has('get_shipping_rates')) {
    server.registerTool('get_shipping_rates', TOOLS.get_shipping_rates, async (input) => {
      try {
        const output = await deps.rates.quote(input);
        const lines = output.rates.map(
          (rate) =>
            `- ${rate.label} (${rate.code}): ${rate.free === true ? 'free' : formatBRL(rate.price)}, up to ${rate.deliveryDays} business days`,
        );
        const head =
          output.rates.length > 0
            ? `${output.rates.length} option(s):`
            : 'No quote available (this is not free shipping).';
        return answer([head, ...lines].join('\n') + reasonLines(output), output);
      } catch (error) {
        if (isUpstreamError(error) && error.failure === 'config' && error.code) {
          const structured = {
            rates: [],
            reason: error.code,
            ...(error.actionUrl ? { actionUrl: error.actionUrl } : {}),
          };
          return answer(`No quote: the platform refused the request.${reasonLines(structured)}`, structured);
        }
        return failure(
          `Rates are unavailable right now (${isUpstreamError(error) ? (error.code ?? error.failure) : 'error'}); try again later.`,
        );
      }
    });
  }

  if (offered.has('track_shipment')) {
    server.registerTool('track_shipment', TOOLS.track_shipment, async (input) => {
      const codes = [...new Set(input.codes.map(cleanTrackingCode))];
      try {
        const results = await deps.tracking.lookup(codes);
        const text = results
          .map((r) =>
            !r.found
              ? `${r.code}: not found`
              : !r.lastStatus
                ? `${r.code}: found, no events yet (not delivered)`
                : `${r.code}: ${r.delivered ? 'delivered' : 'not delivered'} — ${r.lastStatus.description}${r.stale ? ' (last known; could not refresh)' : ''}`,
          )
          .join('\n');
        return answer(text, { results });
      } catch (error) {
        return failure(
          `Tracking is unavailable right now (${isUpstreamError(error) ? (error.code ?? error.failure) : 'error'}); try again later.`,
        );
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
        const outcome = await deps.issuer.issue(label, idempotencyKey);
        switch (outcome.kind) {
          case 'created': {
            const { record } = outcome;
            const lines = [
              `${outcome.replayed ? 'Already issued (returned again, nothing new was created)' : 'Pre-posting created'}: ${record.prepostagemId}, tracking code ${record.trackingCode}.`,
              record.labelPdfBase64
                ? 'The label PDF is in labelPdfBase64.'
                : `The PDF is not ready yet: call get_label_pdf with prepostagemId ${record.prepostagemId}. Do NOT call generate_label again for it.`,
            ];
            return answer(lines.join('\n') + reasonLines(record), record);
          }
          case 'rejected':
            return answer(
              `No pre-posting was created.${outcome.record.status ? `\nstatus: ${outcome.record.status}` : ''}${reasonLines(outcome.record)}`,
              outcome.record,
            );
          case 'unknown': {
            const structured = {
              reason: 'outcome_unknown',
              status: `The answer to this request was lost after it was sent (at ${new Date(outcome.since).toISOString()}): the pre-posting may or may not exist. Do not resend with a new key. Calling generate_label again with the same input checks the platform history first and never creates a second label while the outcome is unknown. Still unknown because ${unknownAdvice(outcome.why)}. If it stays unknown, the merchant checks the carrier's panel and settles it with \`npm run ledger -- resolve ${outcome.attemptId}\`.`,
              attemptId: outcome.attemptId,
            };
            return answer(`Outcome UNKNOWN. ${structured.status}\nreason: outcome_unknown`, structured);
          }
          case 'not_sent': {
            const structured = {
              reason: 'not_sent',
              status:
                'The request did not reach the platform (connection refused, DNS, TLS, or an error answered before the tool ran): no pre-posting was created. Send the same request again once the platform answers.',
            };
            return answer(`Not sent. ${structured.status}\nreason: not_sent`, structured);
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
        if (!pdf) {
          return answer(
            `No PDF for ${input.prepostagemId}.${structured.status ? `\nstatus: ${structured.status}` : ''}${reasonLines(structured)}`,
            structured,
          );
        }
        return answer(`Label PDF of ${input.prepostagemId} (application/pdf).`, structured, [
          {
            type: 'resource',
            resource: {
              uri: `label:///${encodeURIComponent(input.prepostagemId)}.pdf`,
              mimeType: 'application/pdf',
              blob: pdf,
            },
          },
        ]);
      } catch {
        return failure('The label service is unavailable right now; try again later.');
      }
    });
  }

  if (offered.has('diagnose_label_issue')) {
    server.registerTool('diagnose_label_issue', TOOLS.diagnose_label_issue, async (input) => {
      try {
        const { instanceId: _ignored, ...args } = input;
        const structured = await deps.issuer.diagnose(args);
        const { attempts } = structured;
        const text =
          attempts.length === 0
            ? 'No attempts found in the last 90 days. Absence of a record does not prove that no label was created.'
            : attempts
                .map(
                  (a) =>
                    `- ${a.createdAt}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''} — supportCode ${a.supportCode}\n  action: ${a.action}`,
                )
                .join('\n');
        return answer(text, structured);
      } catch {
        return failure('The label service is unavailable right now; try again later.');
      }
    });
  }
  return server;
}

/** `POST /mcp`: Streamable HTTP, stateless (a new server and transport per request), agent tokens with scopes. */
export function agentMcpRoutes(deps: AgentMcpDeps): Router {
  const router = Router();
  router.post('/mcp', express.json({ limit: '1mb' }), async (req: Request, res: Response) => {
    const authorization = req.headers.authorization;
    const scopes =
      agentScopes(deps.config.agentTokens, authorization) ?? (await deps.oauth?.scopes(authorization));
    if (!scopes) {
      res.setHeader(
        'WWW-Authenticate',
        deps.oauth?.challenge(authorization) ?? 'Bearer realm="frete-kit-bff", error="invalid_token"',
      );
      res
        .status(401)
        .json({ error: { code: 'invalid_api_key', message: 'Send Authorization: Bearer <agent token>.' } });
      return;
    }
    const { tools, why } = await offeredTools(deps, scopes);
    const server = buildServer(deps, tools, why);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.all('/mcp', methodNotAllowed('POST'));
  return router;
}
