import * as z from 'zod/mini';
import { type CamelCased, fromRow, nullish } from '../../shared/sql/rows.ts';

/**
 * Where an attempt stands. Written `pending` before the upstream call, then settled:
 *
 * - `created` / `rejected`: the platform's answer (or its history, or the operator) says so;
 * - `not_sent`: the request never reached the tool (refused connection, DNS, TLS, an HTTP error); it may go again;
 * - `unknown`: sent, answer lost; the pre-posting may exist. Only diagnosis or the operator settle it.
 */
export const ATTEMPT_STATES = ['pending', 'created', 'rejected', 'unknown', 'not_sent'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

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
export const SETTLERS = ['answer', 'diagnosis', 'operator', 'restart'] as const;
export type SettledBy = (typeof SETTLERS)[number];

const text = z.nullable(z.string());
/** Epoch milliseconds, and other whole numbers: the SQL layer returns BIGINT as a number on both databases. */
const epoch = z.number();

/** An attempt as stored: validated on the way out, so a hand-edited row cannot slip an unknown state in. */
const AttemptRowSchema = z.object({
  id: z.string(),
  /** sha256 of the canonical request (see fingerprint.ts). */
  fingerprint: z.string(),
  idempotency_key: text,
  state: z.enum(ATTEMPT_STATES),
  prepostagem_id: text,
  tracking_code: text,
  reason: text,
  status: text,
  /** The platform's attempt this one is bound to (its answer, or the history entry diagnosis matched). */
  support_code: text,
  settled_by: z.nullable(z.enum(SETTLERS)),
  /** Epoch ms when the attempt was written, before the upstream call. */
  created_at: epoch,
  settled_at: z.nullable(epoch),
  /** The request as sent (canonical JSON of the parsed input, without `instanceId`): the merchant's own data. */
  request: z.string(),
  /** Why it stands as it does, for the operator (e.g. why diagnosis could not decide). */
  note: text,
  /** For an `unknown` attempt: why diagnosis has not settled it (null until it was tried). */
  unknown_why: nullish(z.enum(UNKNOWN_WHYS)),
  /** The merchant's order this label is for, and which of its boxes (1-based); null for a label sent without one. */
  order_id: nullish(z.string()),
  volume: nullish(z.number()),
  /** Who asked for it: a static agent token's name, an OAuth client's name, or `desk`; null before release 0.3. */
  issued_by: nullish(z.string()),
  /** The recipient's name and the contract service, copied from the request for the desk's list and search. */
  recipient: nullish(z.string()),
  service_code: nullish(z.string()),
  /** The content declaration's total (Σ quantidade × valor) in centavos, for the agents' daily limits. */
  declared_value_cents: nullish(z.number()),
  /**
   * Until when (epoch ms) the instance that wrote it still holds it: renewed while its call is in flight and while its
   * lost answer is first reconciled. A pending attempt whose lease ran out belongs to a stopped instance.
   */
  lease_until: nullish(z.number()),
  /** The language of the shopper's order (`pt-BR`, `en`, `es`) when the caller said; null: pt-BR. */
  locale: nullish(z.string()),
});
export type LedgerAttempt = CamelCased<z.output<typeof AttemptRowSchema>>;

/** A stored row (node:sqlite or PostgreSQL) as a `LedgerAttempt`; undefined for no row. */
export function attemptFromRow(row: unknown): LedgerAttempt | undefined {
  return row ? fromRow(AttemptRowSchema, row) : undefined;
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
  orderId?: string | undefined;
  /** 1-based; default 1 with an `orderId`. */
  volume?: number | undefined;
  /** A static agent token's name, an OAuth client's name, or `desk`. */
  issuedBy?: string | undefined;
  /** The language of the shopper's order (their status e-mails): kept with the attempt, never sent upstream. */
  locale?: string | undefined;
  idempotencyKey?: string | undefined;
  request: string;
  recipient?: string | undefined;
  serviceCode?: string | undefined;
  declaredValueCents?: number | undefined;
  /**
   * Refuse (`AlreadyCreatedError`) when the same request was created since this time (epoch ms): an unkeyed
   * identical request returns the first label, checked in the same transaction as the insert.
   */
  createdSince?: number | undefined;
  /** Refuse (`AgentLimitError`) when the issuer is over its daily limits, counted in the same transaction. */
  limits?: DailyLimits | undefined;
  /** Refuse (`SendWindowError`) unless the send window has room (see `SendWindow`), checked in the same transaction. */
  window?: SendWindow | undefined;
  /** The lease the new attempt starts with (epoch ms). */
  leaseUntil?: number | undefined;
}

/** An issuer's limits for one day (São Paulo calendar day), counted from the ledger. */
export interface DailyLimits {
  issuedBy: string;
  /** The day's start and the next day's start (epoch ms). */
  dayStart: number;
  dayEnd: number;
  maxLabels?: number | undefined;
  maxDeclaredValueCents?: number | undefined;
}

/**
 * How many attempts may be in the air at once for the whole store, across every instance sharing the ledger, and how
 * far the platform's list of recent attempts reaches: an attempt is begun only while every unsettled one (pending,
 * or unknown and still being reconciled) stays among the `recentReach` most recent, so a lost answer can always be
 * found in the history (spec 4.4.5: the 10 most recent are listed).
 */
export interface SendWindow {
  maxInFlight: number;
  recentReach: number;
  now: number;
}

/** The limit an issuer reached, and when it resets. */
export class AgentLimitError extends Error {
  override readonly name = 'AgentLimitError';
  readonly limit: 'maxLabelsPerDay' | 'maxDeclaredValuePerDay';
  readonly resetsAt: number;

  constructor(limit: AgentLimitError['limit'], resetsAt: number) {
    super(`${limit} reached`);
    this.limit = limit;
    this.resetsAt = resetsAt;
  }
}

/** The store's send window is full (too many in flight, or an unsettled attempt would fall out of reach). */
export class SendWindowError extends Error {
  override readonly name = 'SendWindowError';
}

/** This order's volume is held by another request (a different label). */
export class OrderVolumeConflictError extends Error {
  override readonly name = 'OrderVolumeConflictError';
}

/** The same request was already created within the window: replay it instead of sending again. */
export class AlreadyCreatedError extends Error {
  override readonly name = 'AlreadyCreatedError';
}
