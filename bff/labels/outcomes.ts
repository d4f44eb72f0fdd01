/**
 * The issuer's outcome vocabulary: what an intended label came to (`IssueOutcome`), why nothing was sent
 * (`RefusalWhy`), and the constructors of each outcome the issuer tells (issuer.ts).
 */
import type { GenerateLabelOutput } from '../../shared/labels/label.ts';
import type { AgentLimitError, LedgerAttempt, UnknownWhy } from './ledger.ts';

/** What the agent is told. `record` follows spec 2.4 (plus the platform's `supportCode`). */
export type IssueOutcome =
  | { kind: 'created'; record: GenerateLabelOutput; attemptId: string; replayed: boolean }
  | { kind: 'rejected'; record: GenerateLabelOutput; attemptId: string; replayed: boolean }
  /** Sent, answer lost, not settled by the platform's history: the pre-posting may or may not exist (spec 3.4). */
  | { kind: 'unknown'; attemptId: string; since: number; why: UnknownWhy }
  /** Never reached the platform's tool: nothing was created; the same request may be sent again. */
  | { kind: 'not_sent'; attemptId: string; message: string }
  | {
      kind: 'refused';
      why: RefusalWhy;
      message: string;
      limit?: AgentLimitError['limit'];
      resetsAt?: number;
    };

/** Why the issuer sent nothing. */
export type RefusalWhy =
  /** The idempotency key was used for another request. */
  | 'key_conflict'
  /** The identical request is in the air elsewhere, or the store's send window stayed full. */
  | 'in_progress'
  /** The order's volume already has a label (or one in the air) for a different request. */
  | 'order_volume_conflict'
  /** The issuer is over its daily limits. */
  | 'agent_limit_reached'
  /** An identical request of another order or volume has an outcome nobody knows yet: a person settles it first. */
  | 'identical_request_unknown';

/** The issuer sent nothing: the identical request is in the air, or the store's send window stayed full. */
export function inProgress(message: string): IssueOutcome {
  return { kind: 'refused', why: 'in_progress', message };
}

/** The idempotency key was used for another request. */
export function keyConflict(): IssueOutcome {
  return {
    kind: 'refused',
    why: 'key_conflict',
    message: 'This idempotencyKey was used for a different label request.',
  };
}

/** An identical request of another order or volume (attempt `attemptId`) has an outcome nobody knows yet. */
export function identicalRequestUnknown(attemptId: string): IssueOutcome {
  return {
    kind: 'refused',
    why: 'identical_request_unknown',
    message: `An identical request for another label (attempt ${attemptId}) has an unknown outcome; it must be settled (in the desk) before this one is sent, or the platform's history could not tell them apart.`,
  };
}

/** The order's volume already has a label (or one in the air) for a different request. */
export function orderConflict(orderId: string, volume: number, held: LedgerAttempt): IssueOutcome {
  const what =
    held.state === 'created'
      ? `already has a label (${held.prepostagemId ?? 'pre-posting'}${held.trackingCode ? `, ${held.trackingCode}` : ''})`
      : held.state === 'pending'
        ? 'has a label being issued right now'
        : 'has a label whose outcome is unknown';
  return {
    kind: 'refused',
    why: 'order_volume_conflict',
    message: `Volume ${volume} of order ${orderId} ${what} for a different request; nothing was sent. Use another volume number for another box, or the same input to get that label again.`,
  };
}

/** An attempt whose outcome stays unknown, and why. */
export function unknownOutcome(attempt: LedgerAttempt, why: UnknownWhy): IssueOutcome {
  return { kind: 'unknown', attemptId: attempt.id, since: attempt.createdAt, why };
}

/** The issuer is over its daily limits (labels, or declared value), until midnight in São Paulo. */
export function limitReached(error: AgentLimitError): IssueOutcome {
  const what = error.limit === 'maxLabelsPerDay' ? 'labels per day' : 'declared value per day';
  return {
    kind: 'refused',
    why: 'agent_limit_reached',
    limit: error.limit,
    resetsAt: error.resetsAt,
    message: `This agent reached its limit of ${what} (${error.limit}); nothing was sent. It resets at ${new Date(error.resetsAt).toISOString()} (midnight in São Paulo).`,
  };
}

/** The platform's answer as the ledger kept it (spec 2.4). */
export function storedRecord(attempt: LedgerAttempt): GenerateLabelOutput {
  return {
    ...(attempt.prepostagemId ? { prepostagemId: attempt.prepostagemId } : {}),
    ...(attempt.trackingCode ? { trackingCode: attempt.trackingCode } : {}),
    ...(attempt.status ? { status: attempt.status } : {}),
    ...(attempt.reason ? { reason: attempt.reason } : {}),
    ...(attempt.supportCode ? { supportCode: attempt.supportCode } : {}),
  };
}

/** A created or rejected outcome told as sent by this call (`false`) or as told again (`true`). */
export function markReplayed(outcome: IssueOutcome, replayed = true): IssueOutcome {
  return outcome.kind === 'created' || outcome.kind === 'rejected' ? { ...outcome, replayed } : outcome;
}
