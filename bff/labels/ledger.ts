import { randomUUID } from 'node:crypto';

/**
 * Where an attempt stands. Written `pending` before the upstream call, then settled:
 *
 * - `created` / `rejected`: the platform's answer (or its history, or the operator) says so;
 * - `not_sent`: the request never reached the tool (refused connection, DNS, TLS, an HTTP error); it may go again;
 * - `unknown`: sent, answer lost; the pre-posting may exist. Only diagnosis or the operator settle it.
 */
export type AttemptState = 'pending' | 'created' | 'rejected' | 'unknown' | 'not_sent';
export const ATTEMPT_STATES: readonly AttemptState[] = [
  'pending',
  'created',
  'rejected',
  'unknown',
  'not_sent',
];

/** Why an unknown outcome could not be settled (yet): a column of its own, never parsed from the note. */
export const UNKNOWN_WHYS = [
  /** No platform attempt matching the whole request was found among the recent ones (it may still appear). */
  'no_match',
  /** More than one unclaimed platform attempt matches the whole request: no choice is safe. */
  'ambiguous',
  /** The recent history the platform lists no longer reaches back to this attempt. */
  'history_overflow',
  /** The platform's history could not be read. */
  'diagnosis_failed',
  /** The platform answered with a pre-posting already bound to another attempt (needs a person). */
  'binding_conflict',
] as const;
export type UnknownWhy = (typeof UNKNOWN_WHYS)[number];

/** Who settled an attempt. */
export type SettledBy = 'answer' | 'diagnosis' | 'operator' | 'restart';

export interface LedgerAttempt {
  id: string;
  /** sha256 of the canonical request (see fingerprint.ts). */
  fingerprint: string;
  idempotencyKey: string | null;
  state: AttemptState;
  prepostagemId: string | null;
  trackingCode: string | null;
  reason: string | null;
  status: string | null;
  /** The platform's attempt this one is bound to (its answer, or the history entry diagnosis matched). */
  supportCode: string | null;
  settledBy: SettledBy | null;
  /** Epoch ms when the attempt was written, before the upstream call. */
  createdAt: number;
  settledAt: number | null;
  /** The request as sent (canonical JSON of the parsed input, without `instanceId`): the merchant's own data. */
  request: string;
  /** Why it stands as it does, for the operator (e.g. why diagnosis could not decide). */
  note: string | null;
  /** For an `unknown` attempt: why diagnosis has not settled it (null until it was tried). */
  unknownWhy: UnknownWhy | null;
}

export interface Settlement {
  state: Exclude<AttemptState, 'pending'>;
  settledBy: SettledBy;
  prepostagemId?: string | undefined;
  trackingCode?: string | undefined;
  reason?: string | undefined;
  status?: string | undefined;
  supportCode?: string | undefined;
  note?: string | undefined;
  /** With `state: 'unknown'`: why (e.g. `binding_conflict`). */
  unknownWhy?: UnknownWhy | undefined;
}

/** The transitions the state machine allows: from each state, to which. */
export const TRANSITIONS: Record<AttemptState, readonly AttemptState[]> = {
  pending: ['created', 'rejected', 'unknown', 'not_sent'],
  unknown: ['created', 'rejected', 'not_sent'],
  created: [],
  rejected: [],
  not_sent: [],
};

/** The idempotency key is bound to another attempt. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
}

/** Another attempt of the identical request is still pending or unknown (one open attempt per request). */
export class OpenAttemptConflictError extends Error {
  override readonly name = 'OpenAttemptConflictError';
}

/** The `prepostagemId` or `supportCode` is already bound to another attempt. */
export class BindingConflictError extends Error {
  override readonly name = 'BindingConflictError';
}

/** The attempt is not in a state this settlement may leave (e.g. settling a created attempt again). */
export class TransitionError extends Error {
  override readonly name = 'TransitionError';
}

/** Unknown attempt id. */
export class AttemptNotFoundError extends Error {
  override readonly name = 'AttemptNotFoundError';
}

export interface BeginInput {
  fingerprint: string;
  idempotencyKey?: string | undefined;
  request: string;
  /**
   * Refuse (`AlreadyCreatedError`) when the same request was created since this time (epoch ms): an unkeyed
   * identical request returns the first label, checked in the same transaction as the insert.
   */
  createdSince?: number | undefined;
}

/** The same request was already created within the window: replay it instead of sending again. */
export class AlreadyCreatedError extends Error {
  override readonly name = 'AlreadyCreatedError';
}

/** A new attempt id. */
export function newAttemptId(): string {
  return randomUUID();
}
