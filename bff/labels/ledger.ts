import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Where an attempt stands: written `pending` before the upstream call, settled after. */
export type AttemptState = 'pending' | 'created' | 'rejected' | 'unknown';

export interface LedgerAttempt {
  id: string;
  fingerprint: string;
  idempotencyKey: string | null;
  state: AttemptState;
  prepostagemId: string | null;
  trackingCode: string | null;
  reason: string | null;
  status: string | null;
  supportCode: string | null;
  /** Epoch ms when the attempt was written, before the upstream call. */
  createdAt: number;
  settledAt: number | null;
  /** The request as sent (no secrets), for reconciliation. */
  request: string;
}

export interface Settlement {
  state: Exclude<AttemptState, 'pending'>;
  prepostagemId?: string | undefined;
  trackingCode?: string | undefined;
  reason?: string | undefined;
  status?: string | undefined;
  supportCode?: string | undefined;
}

/** The idempotency key is already bound to another request. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
}

/**
 * The label ledger (node:sqlite in `BFF_DATA_DIR`): every `generate_label` attempt, written before the upstream call
 * and settled after, so a label is never issued twice by a retry.
 */
export class LabelLedger {
  private readonly db: DatabaseSync;
  private readonly now: () => number;

  /** `dataDir: ':memory:'` keeps the ledger in memory (tests only: it does not survive a restart). */
  constructor(options: { dataDir: string; now?: () => number }) {
    if (options.dataDir === ':memory:') {
      this.db = new DatabaseSync(':memory:');
    } else {
      mkdirSync(options.dataDir, { recursive: true });
      this.db = new DatabaseSync(join(options.dataDir, 'labels.sqlite'));
    }
    this.now = options.now ?? Date.now;
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS attempts (
        id TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        idempotency_key TEXT UNIQUE,
        state TEXT NOT NULL,
        prepostagem_id TEXT,
        tracking_code TEXT,
        reason TEXT,
        status TEXT,
        support_code TEXT,
        created_at INTEGER NOT NULL,
        settled_at INTEGER,
        request TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS attempts_fingerprint ON attempts (fingerprint, created_at);
    `);
  }

  /** Writes a pending attempt. Throws `IdempotencyConflictError` when the key is taken. */
  begin(fingerprint: string, idempotencyKey: string | undefined, request: unknown): LedgerAttempt {
    const id = randomUUID();
    try {
      this.db
        .prepare(
          'INSERT INTO attempts (id, fingerprint, idempotency_key, state, created_at, request) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(id, fingerprint, idempotencyKey ?? null, 'pending', this.now(), JSON.stringify(request));
    } catch (error) {
      if (String(error).includes('UNIQUE'))
        throw new IdempotencyConflictError('idempotency key already used');
      throw error;
    }
    return this.get(id) as LedgerAttempt;
  }

  settle(id: string, settlement: Settlement): LedgerAttempt {
    this.db
      .prepare(
        `UPDATE attempts SET state = ?, prepostagem_id = ?, tracking_code = ?, reason = ?, status = ?, support_code = ?,
         settled_at = ? WHERE id = ?`,
      )
      .run(
        settlement.state,
        settlement.prepostagemId ?? null,
        settlement.trackingCode ?? null,
        settlement.reason ?? null,
        settlement.status ?? null,
        settlement.supportCode ?? null,
        this.now(),
        id,
      );
    return this.get(id) as LedgerAttempt;
  }

  get(id: string): LedgerAttempt | undefined {
    return toAttempt(this.db.prepare('SELECT * FROM attempts WHERE id = ?').get(id));
  }

  byKey(idempotencyKey: string): LedgerAttempt | undefined {
    return toAttempt(this.db.prepare('SELECT * FROM attempts WHERE idempotency_key = ?').get(idempotencyKey));
  }

  /** Attempts of the same request since `since` (epoch ms), most recent first. */
  sameRequest(fingerprint: string, since: number): LedgerAttempt[] {
    return this.db
      .prepare('SELECT * FROM attempts WHERE fingerprint = ? AND created_at >= ? ORDER BY created_at DESC')
      .all(fingerprint, since)
      .map((row) => toAttempt(row) as LedgerAttempt);
  }

  bySupportCode(supportCode: string): LedgerAttempt | undefined {
    return toAttempt(this.db.prepare('SELECT * FROM attempts WHERE support_code = ?').get(supportCode));
  }

  /** Every attempt, most recent first (for tests and the operator). */
  all(): LedgerAttempt[] {
    return this.db
      .prepare('SELECT * FROM attempts ORDER BY created_at DESC')
      .all()
      .map((row) => toAttempt(row) as LedgerAttempt);
  }

  /** True when the database answers. */
  healthy(): boolean {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

function toAttempt(row: unknown): LedgerAttempt | undefined {
  if (!row) return undefined;
  const r = row as Record<string, string | number | null>;
  return {
    id: String(r.id),
    fingerprint: String(r.fingerprint),
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    state: r.state as AttemptState,
    prepostagemId: (r.prepostagem_id as string | null) ?? null,
    trackingCode: (r.tracking_code as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    status: (r.status as string | null) ?? null,
    supportCode: (r.support_code as string | null) ?? null,
    createdAt: Number(r.created_at),
    settledAt: r.settled_at === null ? null : Number(r.settled_at),
    request: String(r.request),
  };
}
