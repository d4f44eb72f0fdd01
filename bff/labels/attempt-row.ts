import * as z from 'zod/mini';
import { fromRow, nullish } from '../../shared/sql/rows.ts';
import { ATTEMPT_STATES, type LedgerAttempt, SETTLERS, UNKNOWN_WHYS } from './ledger.ts';

const text = z.nullable(z.string());
/** Epoch milliseconds, and other whole numbers: the SQL layer returns BIGINT as a number on both databases. */
const epoch = z.number();
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
  settled_by: z.nullable(z.enum(SETTLERS)),
  created_at: epoch,
  settled_at: z.nullable(epoch),
  request: z.string(),
  note: text,
  unknown_why: nullish(z.enum(UNKNOWN_WHYS)),
  order_id: nullish(z.string()),
  volume: nullish(z.number()),
  issued_by: nullish(z.string()),
  recipient: nullish(z.string()),
  service_code: nullish(z.string()),
  declared_value_cents: nullish(z.number()),
  lease_until: nullish(z.number()),
  locale: nullish(z.string()),
});

/** A stored row (node:sqlite or PostgreSQL) as a `LedgerAttempt`; undefined for no row. */
export function attemptFromRow(row: unknown): LedgerAttempt | undefined {
  return row ? fromRow(AttemptRowSchema, row) : undefined;
}
