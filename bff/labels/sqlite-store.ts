import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { attemptFromRow as toAttempt } from './attempt-row.ts';
import {
  AlreadyCreatedError,
  AttemptNotFoundError,
  type AttemptState,
  type BeginInput,
  BindingConflictError,
  IdempotencyConflictError,
  type LedgerAttempt,
  type LedgerStore,
  newAttemptId,
  OpenAttemptConflictError,
  type SettledBy,
  type Settlement,
  TRANSITIONS,
  TransitionError,
} from './ledger.ts';

const DAY_MS = 86_400_000;

/**
 * Plain SQL that PostgreSQL also takes: UNIQUE constraints and a partial unique index carry the guarantees of
 * `LedgerStore`; no trigger, no vendor function.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS label_attempts (
    id TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    idempotency_key TEXT UNIQUE,
    state TEXT NOT NULL,
    prepostagem_id TEXT UNIQUE,
    tracking_code TEXT,
    reason TEXT,
    status TEXT,
    support_code TEXT UNIQUE,
    settled_by TEXT,
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    request TEXT NOT NULL,
    note TEXT
  );
  CREATE UNIQUE INDEX IF NOT EXISTS label_attempts_one_open
    ON label_attempts (fingerprint) WHERE state IN ('pending', 'unknown');
  CREATE INDEX IF NOT EXISTS label_attempts_by_request ON label_attempts (fingerprint, created_at);
  CREATE INDEX IF NOT EXISTS label_attempts_by_state ON label_attempts (state, created_at);
`;

export interface SqliteLedgerStoreOptions {
  /** A directory for `labels.sqlite`, or `':memory:'` (tests: gone when closed). */
  dataDir: string;
  now?: () => number;
  /** How long an idempotency key is remembered (default 7 days). */
  keyWindowMs?: number;
  /** How long to wait for another process's write lock (default 5 s). */
  busyTimeoutMs?: number;
}

/**
 * The embedded ledger store: node:sqlite in WAL mode with a busy timeout, so the BFF and `npm run ledger` can use the
 * same file at once.
 */
export class SqliteLedgerStore implements LedgerStore {
  private readonly db: DatabaseSync;
  private readonly now: () => number;
  private readonly keyWindowMs: number;

  constructor(options: SqliteLedgerStoreOptions) {
    if (options.dataDir === ':memory:') {
      this.db = new DatabaseSync(':memory:');
    } else {
      mkdirSync(options.dataDir, { recursive: true });
      this.db = new DatabaseSync(join(options.dataDir, 'labels.sqlite'));
    }
    this.now = options.now ?? Date.now;
    this.keyWindowMs = options.keyWindowMs ?? 7 * DAY_MS;
    this.db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)};`);
    this.db.exec('PRAGMA journal_mode = WAL;');
    this.transaction(() => {
      this.db.exec(SCHEMA);
      this.migrateLegacy();
    });
  }

  async begin(input: BeginInput): Promise<LedgerAttempt> {
    const id = newAttemptId();
    const now = this.now();
    this.transaction(() => {
      if (input.idempotencyKey) {
        // A key is forgotten after the window, and released by an attempt that never reached the platform.
        this.db
          .prepare(
            `UPDATE label_attempts SET idempotency_key = NULL
             WHERE idempotency_key = ? AND (created_at < ? OR state = 'not_sent')`,
          )
          .run(input.idempotencyKey, now - this.keyWindowMs);
      }
      if (input.createdSince !== undefined) {
        const created = this.db
          .prepare(
            `SELECT id FROM label_attempts WHERE fingerprint = ? AND state = 'created' AND created_at >= ? LIMIT 1`,
          )
          .get(input.fingerprint, input.createdSince);
        if (created) throw new AlreadyCreatedError('the same request was already created');
      }
      try {
        this.db
          .prepare(
            `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, created_at, request)
             VALUES (?, ?, ?, 'pending', ?, ?)`,
          )
          .run(id, input.fingerprint, input.idempotencyKey ?? null, now, input.request);
      } catch (error) {
        const column = uniqueColumn(error);
        if (column === 'idempotency_key') throw new IdempotencyConflictError('idempotency key already used');
        if (column === 'fingerprint')
          throw new OpenAttemptConflictError('the same request has an open attempt');
        throw error;
      }
    });
    return this.mustGet(id);
  }

  async settle(id: string, settlement: Settlement): Promise<LedgerAttempt> {
    this.transaction(() => {
      const current = this.row(id);
      if (!current) throw new AttemptNotFoundError(`no attempt ${id}`);
      if (!TRANSITIONS[current.state].includes(settlement.state)) {
        throw new TransitionError(`an attempt ${current.state} cannot become ${settlement.state}`);
      }
      try {
        const changed = this.db
          .prepare(
            `UPDATE label_attempts SET state = ?, prepostagem_id = ?, tracking_code = ?, reason = ?, status = ?,
               support_code = ?, settled_by = ?, settled_at = ?, note = ?
             WHERE id = ? AND state = ?`,
          )
          .run(
            settlement.state,
            settlement.prepostagemId ?? null,
            settlement.trackingCode ?? null,
            settlement.reason ?? null,
            settlement.status ?? null,
            settlement.supportCode ?? null,
            settlement.settledBy,
            this.now(),
            settlement.note ?? null,
            id,
            current.state,
          );
        if (Number(changed.changes) !== 1) throw new TransitionError(`attempt ${id} changed meanwhile`);
      } catch (error) {
        const column = uniqueColumn(error);
        if (column === 'prepostagem_id' || column === 'support_code') {
          throw new BindingConflictError(`that ${column} is already bound to another attempt`);
        }
        throw error;
      }
    });
    return this.mustGet(id);
  }

  async note(id: string, note: string): Promise<void> {
    this.db.prepare('UPDATE label_attempts SET note = ? WHERE id = ?').run(note, id);
  }

  async get(id: string): Promise<LedgerAttempt | undefined> {
    return this.row(id);
  }

  async byKey(idempotencyKey: string): Promise<LedgerAttempt | undefined> {
    return toAttempt(
      this.db
        .prepare('SELECT * FROM label_attempts WHERE idempotency_key = ? AND created_at >= ?')
        .get(idempotencyKey, this.now() - this.keyWindowMs),
    );
  }

  async openAttempt(fingerprint: string): Promise<LedgerAttempt | undefined> {
    return toAttempt(
      this.db
        .prepare(`SELECT * FROM label_attempts WHERE fingerprint = ? AND state IN ('pending', 'unknown')`)
        .get(fingerprint),
    );
  }

  async lastCreated(fingerprint: string, since: number): Promise<LedgerAttempt | undefined> {
    return toAttempt(
      this.db
        .prepare(
          `SELECT * FROM label_attempts WHERE fingerprint = ? AND state = 'created' AND created_at >= ?
           ORDER BY created_at DESC LIMIT 1`,
        )
        .get(fingerprint, since),
    );
  }

  async isBound(binding: {
    supportCode?: string | undefined;
    prepostagemId?: string | undefined;
  }): Promise<boolean> {
    const row = this.db
      .prepare('SELECT id FROM label_attempts WHERE support_code = ? OR prepostagem_id = ? LIMIT 1')
      .get(binding.supportCode ?? null, binding.prepostagemId ?? null);
    return row !== undefined;
  }

  async list(filter: { state?: AttemptState; limit?: number } = {}): Promise<LedgerAttempt[]> {
    const limit = filter.limit ?? -1;
    const rows = filter.state
      ? this.db
          .prepare('SELECT * FROM label_attempts WHERE state = ? ORDER BY created_at DESC, id LIMIT ?')
          .all(filter.state, limit)
      : this.db.prepare('SELECT * FROM label_attempts ORDER BY created_at DESC, id LIMIT ?').all(limit);
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  async recoverPending(before: number): Promise<LedgerAttempt[]> {
    const ids: string[] = [];
    this.transaction(() => {
      const rows = this.db
        .prepare(`SELECT id FROM label_attempts WHERE state = 'pending' AND created_at < ?`)
        .all(before);
      for (const row of rows) ids.push(String((row as { id: string }).id));
      this.db
        .prepare(
          `UPDATE label_attempts SET state = 'unknown', settled_by = 'restart', settled_at = ?,
             note = 'the BFF stopped during the call; outcome unknown until diagnosis or the operator settles it'
           WHERE state = 'pending' AND created_at < ?`,
        )
        .run(this.now(), before);
    });
    return Promise.all(ids.map((id) => this.mustGet(id)));
  }

  async healthy(): Promise<boolean> {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }

  private row(id: string): LedgerAttempt | undefined {
    return toAttempt(this.db.prepare('SELECT * FROM label_attempts WHERE id = ?').get(id));
  }

  private mustGet(id: string): LedgerAttempt {
    const attempt = this.row(id);
    if (!attempt) throw new AttemptNotFoundError(`no attempt ${id}`);
    return attempt;
  }

  /** BEGIN IMMEDIATE takes the write lock up front, so a read-then-write cannot interleave with another process. */
  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * The first ledger (table `attempts`) had no UNIQUE on prepostagem_id and support_code. Its rows move to the new
   * table; a pre-posting already bound to an earlier row (the misassignment this schema now prevents) is not copied
   * onto the later row, which becomes `unknown` with a note for the operator.
   */
  private migrateLegacy(): void {
    const legacy = this.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'attempts'`)
      .get();
    if (!legacy) return;
    const rows = this.db.prepare('SELECT * FROM attempts ORDER BY created_at').all() as Record<
      string,
      unknown
    >[];
    const seen = new Set<string>();
    const insert = this.db.prepare(
      `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, prepostagem_id, tracking_code, reason,
         status, support_code, settled_by, created_at, settled_at, request, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const open = new Set<string>();
    for (const row of rows) {
      const binding = [row.prepostagem_id, row.support_code].filter(
        (v): v is string => typeof v === 'string',
      );
      const clash = binding.some((value) => seen.has(value));
      for (const value of binding) seen.add(value);
      let state = String(row.state) as AttemptState;
      let note: string | null = null;
      if (clash) {
        state = 'unknown';
        note = `migrated: its pre-posting ${String(row.prepostagem_id)} is also bound to an earlier attempt; check the carrier's panel`;
      }
      const fingerprint = String(row.fingerprint);
      // The old ledger could hold two open attempts of one request (after 24 h); the first one keeps blocking it.
      const isOpen = state === 'pending' || state === 'unknown';
      if (isOpen && open.has(fingerprint)) continue;
      if (isOpen) open.add(fingerprint);
      insert.run(
        String(row.id),
        fingerprint,
        (row.idempotency_key as string | null) ?? null,
        state,
        clash ? null : ((row.prepostagem_id as string | null) ?? null),
        clash ? null : ((row.tracking_code as string | null) ?? null),
        (row.reason as string | null) ?? null,
        (row.status as string | null) ?? null,
        clash ? null : ((row.support_code as string | null) ?? null),
        row.settled_at === null ? null : ('answer' satisfies SettledBy),
        Number(row.created_at),
        row.settled_at === null ? null : Number(row.settled_at),
        String(row.request),
        note,
      );
    }
    this.db.exec('DROP TABLE attempts');
  }
}

function uniqueColumn(error: unknown): string | undefined {
  const match = /UNIQUE constraint failed: label_attempts\.(\w+)/.exec(String(error));
  return match?.[1];
}
