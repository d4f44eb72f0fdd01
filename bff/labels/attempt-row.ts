import * as z from 'zod/mini';
import { ATTEMPT_STATES, type LedgerAttempt, UNKNOWN_WHYS } from './ledger.ts';

const text = z.nullable(z.string());
/** Epoch milliseconds, and other whole numbers: the SQL layer returns BIGINT as a number on both databases. */
const epoch = z.number();
const optionalNumber = z.optional(z.nullable(z.number()));
const optionalText = z.optional(text);
/** A row as stored: validated on the way out, so a hand-edited row cannot slip an unknown state in. */
const AttemptRowSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  idempotency_key: text,
  state: z.enum(ATTEMPT_STATES),
  prepostagem_id: text,
  tracking_code: text,
  reason: text,
  status: text,
  support_code: text,
  settled_by: z.nullable(z.enum(['answer', 'diagnosis', 'operator', 'restart'])),
  created_at: epoch,
  settled_at: z.nullable(epoch),
  request: z.string(),
  note: text,
  unknown_why: z.optional(z.nullable(z.enum(UNKNOWN_WHYS))),
  order_id: optionalText,
  volume: optionalNumber,
  issued_by: optionalText,
  recipient: optionalText,
  service_code: optionalText,
  declared_value_cents: optionalNumber,
  lease_until: optionalNumber,
  locale: optionalText,
});

/** A stored row (node:sqlite or PostgreSQL) as a `LedgerAttempt`; undefined for no row. */
export function attemptFromRow(row: unknown): LedgerAttempt | undefined {
  if (!row) return undefined;
  const r = AttemptRowSchema.parse(row);
  return {
    id: r.id,
    fingerprint: r.fingerprint,
    idempotencyKey: r.idempotency_key,
    state: r.state,
    prepostagemId: r.prepostagem_id,
    trackingCode: r.tracking_code,
    reason: r.reason,
    status: r.status,
    supportCode: r.support_code,
    settledBy: r.settled_by,
    createdAt: r.created_at,
    settledAt: r.settled_at,
    request: r.request,
    note: r.note,
    unknownWhy: r.unknown_why ?? null,
    orderId: r.order_id ?? null,
    volume: r.volume ?? null,
    issuedBy: r.issued_by ?? null,
    recipient: r.recipient ?? null,
    serviceCode: r.service_code ?? null,
    declaredValueCents: r.declared_value_cents ?? null,
    leaseUntil: r.lease_until ?? null,
    locale: r.locale ?? null,
  };
}
