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

/**
 * The label ledger's storage. Its guarantees come from the storage itself (UNIQUE constraints, transactions), so
 * they hold across processes sharing it:
 *
 * - a `prepostagemId`, and a platform `supportCode`, is bound to at most one attempt;
 * - an `idempotencyKey` belongs to one attempt while it is remembered;
 * - one request (fingerprint) has at most one open (`pending` or `unknown`) attempt.
 *
 * Async so a PostgreSQL implementation fits behind it; `SqliteLedgerStore` (node:sqlite) is the embedded one.
 */
export interface LedgerStore {
  /**
   * Writes a pending attempt. Throws `IdempotencyConflictError` when the key is remembered for another attempt,
   * `OpenAttemptConflictError` when the same request has an open attempt. A key older than the window, or one
   * whose attempt ended `not_sent`, is released to the new attempt in the same transaction.
   */
  begin(input: BeginInput): Promise<LedgerAttempt>;
  /** Moves an attempt along `TRANSITIONS`; throws `TransitionError` or `BindingConflictError` and changes nothing. */
  settle(id: string, settlement: Settlement): Promise<LedgerAttempt>;
  /** Records why an open attempt stands as it does (for the operator); changes nothing else. */
  note(id: string, note: string): Promise<void>;
  get(id: string): Promise<LedgerAttempt | undefined>;
  /** The attempt holding this key, if the key is still remembered (younger than the window). */
  byKey(idempotencyKey: string): Promise<LedgerAttempt | undefined>;
  /** The open (`pending` or `unknown`) attempt of this request, if any. */
  openAttempt(fingerprint: string): Promise<LedgerAttempt | undefined>;
  /** The most recent `created` attempt of this request since `since` (epoch ms). */
  lastCreated(fingerprint: string, since: number): Promise<LedgerAttempt | undefined>;
  /** Whether a `supportCode` or `prepostagemId` is already bound to an attempt. */
  isBound(binding: {
    supportCode?: string | undefined;
    prepostagemId?: string | undefined;
  }): Promise<boolean>;
  /** Attempts, most recent first, optionally of one state. */
  list(filter?: { state?: AttemptState; limit?: number }): Promise<LedgerAttempt[]>;
  /** At start-up: every `pending` attempt older than `before` becomes `unknown` (its process died mid-call). */
  recoverPending(before: number): Promise<LedgerAttempt[]>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** A new attempt id. */
export function newAttemptId(): string {
  return randomUUID();
}
