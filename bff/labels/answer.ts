import {
  approvalSummary,
  labelRefusalSummary,
  labelSummary,
  notSentStatus,
  outcomeUnknownStatus,
  unsettledLabelSummary,
} from '../../shared/agent-texts.ts';
import type { AgentLabelOutput } from '../../shared/labels/agent-label.ts';
import type { IssueOutcome } from './outcomes.ts';
import { UNKNOWN_ADVICE } from './reconciler.ts';

/** Why a label request was refused before anything reached the platform (plus the issuer's own refusals). */
export interface LabelRefusal {
  reason: string;
  message: string;
  /** The input field it names (`weightGrams`, `recipient.nome`, `declaredItems[2].valor`, …). */
  field?: string | undefined;
  /** For `agent_limit_reached`: which limit, and when it resets (epoch ms; absent for a limit that does not reset). */
  limit?: string | undefined;
  resetsAt?: number | undefined;
}

/** What a label request came to, for the MCP tool and the desk alike. */
export type LabelAnswer =
  | { kind: 'issued'; outcome: IssueOutcome; orderId?: string | undefined; volume?: number | undefined }
  | { kind: 'refused'; refusal: LabelRefusal }
  | {
      kind: 'approval';
      reason: 'approval_pending' | 'approval_rejected' | 'approval_expired';
      approvalId: string;
      message: string;
    };

/**
 * What a label request came to, told the same way to an agent (the MCP tool's structured result and text) and to the
 * desk (its JSON): the spec 2.4 record with what the BFF adds (attemptId, order and volume, approvalId, the refusal's
 * field and limit), a one-line summary, and whether nothing was done (`refused`: the tool's `isError`).
 */
export function describeAnswer(result: LabelAnswer): {
  structured: AgentLabelOutput;
  summary: string;
  refused: boolean;
  /** The HTTP status the desk answers with: 201 a new label, 200 anything told again or still open, 422 a refusal. */
  status: 200 | 201 | 422;
} {
  if (result.kind === 'refused') {
    const { reason, message, field, limit, resetsAt } = result.refusal;
    return {
      structured: {
        reason,
        status: message,
        ...(field ? { field } : {}),
        ...(limit ? { limit } : {}),
        ...(resetsAt === undefined ? {} : { resetsAt: new Date(resetsAt).toISOString() }),
      },
      summary: labelRefusalSummary({ reason, message, field }),
      refused: true,
      status: 422,
    };
  }
  if (result.kind === 'approval') {
    const refused = result.reason !== 'approval_pending';
    return {
      structured: { reason: result.reason, approvalId: result.approvalId, status: result.message },
      summary: approvalSummary(result),
      refused,
      status: refused ? 422 : 200,
    };
  }
  const { outcome } = result;
  const order = result.orderId === undefined ? {} : { orderId: result.orderId, volume: result.volume ?? 1 };
  switch (outcome.kind) {
    case 'created':
      return {
        structured: { ...outcome.record, attemptId: outcome.attemptId, ...order },
        summary: labelSummary(outcome.record, outcome.replayed),
        refused: false,
        status: outcome.replayed ? 200 : 201,
      };
    case 'rejected':
      return {
        structured: { ...outcome.record, attemptId: outcome.attemptId, ...order },
        summary: labelSummary({ ...outcome.record, prepostagemId: undefined }),
        refused: false,
        status: 200,
      };
    case 'unknown':
    case 'not_sent': {
      const structured = {
        ...(outcome.kind === 'not_sent'
          ? { reason: 'not_sent' as const, status: notSentStatus() }
          : {
              reason: 'outcome_unknown' as const,
              status: outcomeUnknownStatus({
                sentAt: outcome.since,
                because: UNKNOWN_ADVICE[outcome.why],
                attemptId: outcome.attemptId,
              }),
            }),
        attemptId: outcome.attemptId,
        ...order,
      };
      return { structured, summary: unsettledLabelSummary(structured), refused: false, status: 200 };
    }
    case 'refused':
      return describeAnswer({
        kind: 'refused',
        refusal: {
          reason: outcome.why,
          message: outcome.message,
          limit: outcome.limit,
          resetsAt: outcome.resetsAt,
        },
      });
  }
}
