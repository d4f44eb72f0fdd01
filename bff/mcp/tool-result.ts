import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { leanText } from '../../shared/agent-texts.ts';
import { scrubSecrets } from '../logger.ts';
import { isUpstreamError } from '../upstream/errors.ts';

/** How long an agent should wait before calling again after a transient failure (platform down, limited, slow). */
export const RETRY_AFTER_SECONDS = 10;

/**
 * A tool answer for an agent: a one-line summary, then the structured result as compact JSON when both fit in 1,000
 * characters (`leanText`), so a host that forwards only `content` still shows the model the fields that matter
 * (`prepostagemId`, `reason`, `actionUrl`), without the PDF: a label's PDF travels once, in the structured result.
 * Built by us from structured data: no key, no upstream internals.
 */
export function answer(summary: string, structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: scrubSecrets(leanText(summary, structured)) }],
    structuredContent: structured,
  };
}

/** A refusal: nothing was done; `isError` with the structured reason (docs/agents/connect.md, "What agents get back"), so an agent can act on it. */
export function refused(summary: string, structured: Record<string, unknown>): CallToolResult {
  return { ...answer(summary, structured), isError: true };
}

/** A tool error the agent can act on: what went wrong and, as JSON, what to do. */
export function failure(summary: string, details: Record<string, unknown> = {}): CallToolResult {
  const text = Object.keys(details).length > 0 ? `${summary}\n${JSON.stringify(details, null, 2)}` : summary;
  return { content: [{ type: 'text', text: scrubSecrets(text) }], isError: true };
}

/**
 * A transient failure (the platform is down, slow or limiting us): an error with a retry delay. The upstream's own
 * words are never passed on; only our classification.
 */
export function transientFailure(what: string, error: unknown): CallToolResult {
  const limited = isUpstreamError(error) && error.failure === 'limited';
  const retryAfterSeconds = RETRY_AFTER_SECONDS;
  return failure(
    `${what} is temporarily unavailable (${limited ? 'the platform is limiting calls' : 'the platform did not answer'}); try again in ${retryAfterSeconds} seconds.`,
    { error: limited ? 'rate_limited' : 'upstream_unavailable', retryable: true, retryAfterSeconds },
  );
}
