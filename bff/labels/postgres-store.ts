import type pg from 'pg';
import { answers, inTransaction, type Migration, migrate } from '../cluster/postgres.ts';
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
  type Settlement,
  TRANSITIONS,
  TransitionError,
} from './ledger.ts';

const DAY_MS = 86_400_000;

/** The ledger's schema in PostgreSQL: the same UNIQUE constraints and partial unique index as node:sqlite's. */
export const LEDGER_MIGRATIONS: Migration[] = [
  {
    id: '001-label-attempts',
    sql: `
      CREATE TABLE label_attempts (
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
      CREATE UNIQUE INDEX label_attempts_one_open ON label_attempts (fingerprint) WHERE state IN ('pending', 'unknown');
      CREATE INDEX label_attempts_by_request ON label_attempts (fingerprint, created_at);
      CREATE INDEX label_attempts_by_state ON label_attempts (state, created_at);
    `,
  },
];

/** The constraint a unique violation names (PostgreSQL error 23505), mapped to the column it guards. */
function uniqueColumn(error: unknown): string | undefined {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code !== '23505' || !constraint) return undefined;
  if (constraint === 'label_attempts_one_open') return 'fingerprint';
  return /^label_attempts_(\w+)_key$/.exec(constraint)?.[1];
}

export interface PostgresLedgerStoreOptions {
  pool: pg.Pool;
  now?: () => number;
  /** How long an idempotency key is remembered (default 7 days). */
  keyWindowMs?: number;
}

/**
 * The ledger in PostgreSQL (`BFF_DATABASE_URL`), for several BFF instances: the same guarantees as node:sqlite, from
 * the same constraints. Read-then-write steps run in one transaction holding the attempt's row lock
 * (`SELECT … FOR UPDATE`), so two instances settling one attempt cannot both succeed.
 */
export class PostgresLedgerStore implements LedgerStore {
  private readonly pool: pg.Pool;
  private readonly now: () => number;
  private readonly keyWindowMs: number;

  private constructor(options: PostgresLedgerStoreOptions) {
    this.pool = options.pool;
    this.now = options.now ?? Date.now;
    this.keyWindowMs = options.keyWindowMs ?? 7 * DAY_MS;
  }

  /** Runs the ledger's migrations (idempotent, safe when instances start together), then opens the store. */
  static async open(options: PostgresLedgerStoreOptions): Promise<PostgresLedgerStore> {
    await migrate(options.pool, LEDGER_MIGRATIONS);
    return new PostgresLedgerStore(options);
  }

  async begin(input: BeginInput): Promise<LedgerAttempt> {
    const id = newAttemptId();
    const now = this.now();
    await this.transaction(async (client) => {
      // One request at a time per fingerprint (begin and settle both take this lock): "already created?" and the
      // insert are then one step, as under node:sqlite's write lock.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [input.fingerprint]);
      if (input.idempotencyKey) {
        // A key is forgotten after the window, and released by an attempt that never reached the platform.
        await client.query(
          `UPDATE label_attempts SET idempotency_key = NULL
           WHERE idempotency_key = $1 AND (created_at < $2 OR state = 'not_sent')`,
          [input.idempotencyKey, now - this.keyWindowMs],
        );
      }
      if (input.createdSince !== undefined) {
        const { rowCount } = await client.query(
          `SELECT id FROM label_attempts WHERE fingerprint = $1 AND state = 'created' AND created_at >= $2 LIMIT 1`,
          [input.fingerprint, input.createdSince],
        );
        if ((rowCount ?? 0) > 0) throw new AlreadyCreatedError('the same request was already created');
      }
      try {
        await client.query(
          `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, created_at, request)
           VALUES ($1, $2, $3, 'pending', $4, $5)`,
          [id, input.fingerprint, input.idempotencyKey ?? null, now, input.request],
        );
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
    await this.transaction(async (client) => {
      await client.query(
        'SELECT pg_advisory_xact_lock(hashtextextended(fingerprint, 0)) FROM label_attempts WHERE id = $1',
        [id],
      );
      const { rows } = await client.query('SELECT * FROM label_attempts WHERE id = $1 FOR UPDATE', [id]);
      const current = toAttempt(rows[0]);
      if (!current) throw new AttemptNotFoundError(`no attempt ${id}`);
      if (!TRANSITIONS[current.state].includes(settlement.state)) {
        throw new TransitionError(`an attempt ${current.state} cannot become ${settlement.state}`);
      }
      try {
        const changed = await client.query(
          `UPDATE label_attempts SET state = $1, prepostagem_id = $2, tracking_code = $3, reason = $4, status = $5,
             support_code = $6, settled_by = $7, settled_at = $8, note = $9
           WHERE id = $10 AND state = $11`,
          [
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
          ],
        );
        if (changed.rowCount !== 1) throw new TransitionError(`attempt ${id} changed meanwhile`);
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
    await this.pool.query('UPDATE label_attempts SET note = $1 WHERE id = $2', [note, id]);
  }

  async get(id: string): Promise<LedgerAttempt | undefined> {
    return this.one('SELECT * FROM label_attempts WHERE id = $1', [id]);
  }

  async byKey(idempotencyKey: string): Promise<LedgerAttempt | undefined> {
    return this.one('SELECT * FROM label_attempts WHERE idempotency_key = $1 AND created_at >= $2', [
      idempotencyKey,
      this.now() - this.keyWindowMs,
    ]);
  }

  async openAttempt(fingerprint: string): Promise<LedgerAttempt | undefined> {
    return this.one(
      `SELECT * FROM label_attempts WHERE fingerprint = $1 AND state IN ('pending', 'unknown')`,
      [fingerprint],
    );
  }

  async lastCreated(fingerprint: string, since: number): Promise<LedgerAttempt | undefined> {
    return this.one(
      `SELECT * FROM label_attempts WHERE fingerprint = $1 AND state = 'created' AND created_at >= $2
       ORDER BY created_at DESC LIMIT 1`,
      [fingerprint, since],
    );
  }

  async isBound(binding: {
    supportCode?: string | undefined;
    prepostagemId?: string | undefined;
  }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT id FROM label_attempts WHERE support_code = $1 OR prepostagem_id = $2 LIMIT 1',
      [binding.supportCode ?? null, binding.prepostagemId ?? null],
    );
    return (rowCount ?? 0) > 0;
  }

  async list(filter: { state?: AttemptState; limit?: number } = {}): Promise<LedgerAttempt[]> {
    const limit = filter.limit ?? null;
    const { rows } = filter.state
      ? await this.pool.query(
          'SELECT * FROM label_attempts WHERE state = $1 ORDER BY created_at DESC, id LIMIT $2',
          [filter.state, limit],
        )
      : await this.pool.query('SELECT * FROM label_attempts ORDER BY created_at DESC, id LIMIT $1', [limit]);
    return rows.map((row) => toAttempt(row) as LedgerAttempt);
  }

  async recoverPending(before: number): Promise<LedgerAttempt[]> {
    const { rows } = await this.pool.query(
      `UPDATE label_attempts SET state = 'unknown', settled_by = 'restart', settled_at = $1,
         note = 'the BFF stopped during the call; outcome unknown until diagnosis or the operator settles it'
       WHERE state = 'pending' AND created_at < $2
       RETURNING *`,
      [this.now(), before],
    );
    return rows.map((row) => toAttempt(row) as LedgerAttempt);
  }

  healthy(): Promise<boolean> {
    return answers(this.pool);
  }

  /** The pool belongs to whoever opened it (it may serve other stores): closing the store does not end it. */
  async close(): Promise<void> {}

  private async one(sql: string, values: unknown[]): Promise<LedgerAttempt | undefined> {
    const { rows } = await this.pool.query(sql, values);
    return toAttempt(rows[0]);
  }

  private async mustGet(id: string): Promise<LedgerAttempt> {
    const attempt = await this.get(id);
    if (!attempt) throw new AttemptNotFoundError(`no attempt ${id}`);
    return attempt;
  }

  private transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    return inTransaction(this.pool, work);
  }
}
