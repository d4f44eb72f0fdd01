import { migrate } from '../../shared/sql/migrate.ts';
import { isUniqueViolation, type Sql, type SqlRunner, type SqlValue } from '../../shared/sql/sql.ts';
import { attemptFromRow as toAttempt } from './attempt-row.ts';
import {
  AlreadyCreatedError,
  AttemptNotFoundError,
  type AttemptState,
  type BeginInput,
  BindingConflictError,
  IdempotencyConflictError,
  type LedgerAttempt,
  newAttemptId,
  OpenAttemptConflictError,
  type Settlement,
  TRANSITIONS,
  TransitionError,
  type UnknownWhy,
} from './ledger.ts';
import { LEDGER_MIGRATIONS } from './migrations.ts';

const DAY_MS = 86_400_000;

export interface LedgerStoreOptions {
  now?: () => number;
  /** How long an idempotency key is remembered (default 7 days). */
  keyWindowMs?: number;
}

/**
 * The label ledger, on node:sqlite or PostgreSQL (one implementation over `Sql`). Its guarantees come from the
 * storage itself, so they hold across processes and instances sharing it:
 *
 * - a `prepostagemId`, and a platform `supportCode`, is bound to at most one attempt (UNIQUE);
 * - an `idempotencyKey` belongs to one attempt while it is remembered (UNIQUE);
 * - one request (fingerprint) has at most one open (`pending` or `unknown`) attempt (a partial unique index).
 *
 * Read-then-write steps run in one transaction holding the request's lock (`lock(fingerprint)`: an advisory lock on
 * PostgreSQL, the write lock on node:sqlite), so "already created?" and the insert are one step, and two instances
 * settling one attempt cannot both succeed.
 */
export class LedgerStore {
  /**
   * Settles once the ledger's tables are migrated (idempotent; safe when instances start together); every call
   * waits for it. Await it at start to fail fast.
   */
  readonly ready: Promise<void>;
  private readonly db: Sql;
  private readonly now: () => number;
  private readonly keyWindowMs: number;

  constructor(sql: Sql, options: LedgerStoreOptions = {}) {
    this.db = sql;
    this.now = options.now ?? Date.now;
    this.keyWindowMs = options.keyWindowMs ?? 7 * DAY_MS;
    this.ready = migrate(sql, LEDGER_MIGRATIONS).then(() => undefined);
    this.ready.catch(() => undefined);
  }

  /** The database, once migrated. */
  private async sql(): Promise<Sql> {
    await this.ready;
    return this.db;
  }

  /**
   * Writes a pending attempt. Throws `IdempotencyConflictError` when the key is remembered for another attempt,
   * `OpenAttemptConflictError` when the same request has an open attempt, `AlreadyCreatedError` when `createdSince`
   * is given and the request was created since. A key older than the window, or one whose attempt ended `not_sent`,
   * is released to the new attempt in the same transaction.
   */
  async begin(input: BeginInput): Promise<LedgerAttempt> {
    const id = newAttemptId();
    const now = this.now();
    await (await this.sql()).transaction(async (tx) => {
      await tx.lock(input.fingerprint);
      if (input.idempotencyKey) {
        // A key is forgotten after the window, and released by an attempt that never reached the platform.
        await tx.run(
          `UPDATE label_attempts SET idempotency_key = NULL
           WHERE idempotency_key = ? AND (created_at < ? OR state = 'not_sent')`,
          [input.idempotencyKey, now - this.keyWindowMs],
        );
      }
      if (input.createdSince !== undefined) {
        const created = await tx.one(
          `SELECT id FROM label_attempts WHERE fingerprint = ? AND state = 'created' AND created_at >= ? LIMIT 1`,
          [input.fingerprint, input.createdSince],
        );
        if (created) throw new AlreadyCreatedError('the same request was already created');
      }
      try {
        await tx.run(
          `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, created_at, request)
           VALUES (?, ?, ?, 'pending', ?, ?)`,
          [id, input.fingerprint, input.idempotencyKey ?? null, now, input.request],
        );
      } catch (error) {
        if (isUniqueViolation(error, 'idempotency_key'))
          throw new IdempotencyConflictError('idempotency key already used');
        if (isUniqueViolation(error, 'fingerprint'))
          throw new OpenAttemptConflictError('the same request has an open attempt');
        throw error;
      }
    });
    return this.mustGet(id);
  }

  /** Moves an attempt along `TRANSITIONS`; throws `TransitionError` or `BindingConflictError` and changes nothing. */
  async settle(id: string, settlement: Settlement): Promise<LedgerAttempt> {
    await (await this.sql()).transaction(async (tx) => {
      const request = await tx.one('SELECT fingerprint FROM label_attempts WHERE id = ?', [id]);
      if (!request) throw new AttemptNotFoundError(`no attempt ${id}`);
      await tx.lock(String(request.fingerprint));
      const current = await this.row(tx, id);
      if (!current) throw new AttemptNotFoundError(`no attempt ${id}`);
      if (!TRANSITIONS[current.state].includes(settlement.state)) {
        throw new TransitionError(`an attempt ${current.state} cannot become ${settlement.state}`);
      }
      try {
        const changed = await tx.run(
          `UPDATE label_attempts SET state = ?, prepostagem_id = ?, tracking_code = ?, reason = ?, status = ?,
             support_code = ?, settled_by = ?, settled_at = ?, note = ?, unknown_why = ?
           WHERE id = ? AND state = ?`,
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
            settlement.state === 'unknown' ? (settlement.unknownWhy ?? null) : null,
            id,
            current.state,
          ],
        );
        if (changed !== 1) throw new TransitionError(`attempt ${id} changed meanwhile`);
      } catch (error) {
        if (isUniqueViolation(error, 'prepostagem_id') || isUniqueViolation(error, 'support_code')) {
          throw new BindingConflictError(`that ${error.column} is already bound to another attempt`);
        }
        throw error;
      }
    });
    return this.mustGet(id);
  }

  /** Records why an open attempt is still unknown (`why`, a code) and a sentence for the operator; nothing else. */
  async explain(id: string, why: UnknownWhy, note: string): Promise<void> {
    await (await this.sql()).run('UPDATE label_attempts SET unknown_why = ?, note = ? WHERE id = ?', [
      why,
      note,
      id,
    ]);
  }

  /** Records a sentence for the operator on an attempt; changes nothing else. */
  async note(id: string, note: string): Promise<void> {
    await (await this.sql()).run('UPDATE label_attempts SET note = ? WHERE id = ?', [note, id]);
  }

  async get(id: string): Promise<LedgerAttempt | undefined> {
    return this.row(await this.sql(), id);
  }

  /** The attempt holding this key, if the key is still remembered (younger than the window). */
  byKey(idempotencyKey: string): Promise<LedgerAttempt | undefined> {
    return this.first('SELECT * FROM label_attempts WHERE idempotency_key = ? AND created_at >= ?', [
      idempotencyKey,
      this.now() - this.keyWindowMs,
    ]);
  }

  /** The open (`pending` or `unknown`) attempt of this request, if any. */
  openAttempt(fingerprint: string): Promise<LedgerAttempt | undefined> {
    return this.first(
      `SELECT * FROM label_attempts WHERE fingerprint = ? AND state IN ('pending', 'unknown')`,
      [fingerprint],
    );
  }

  /** The most recent `created` attempt of this request since `since` (epoch ms). */
  lastCreated(fingerprint: string, since: number): Promise<LedgerAttempt | undefined> {
    return this.first(
      `SELECT * FROM label_attempts WHERE fingerprint = ? AND state = 'created' AND created_at >= ?
       ORDER BY created_at DESC LIMIT 1`,
      [fingerprint, since],
    );
  }

  /** Whether a `supportCode` or `prepostagemId` is already bound to an attempt. */
  async isBound(binding: {
    supportCode?: string | undefined;
    prepostagemId?: string | undefined;
  }): Promise<boolean> {
    const row = await (await this.sql()).one(
      'SELECT id FROM label_attempts WHERE support_code = ? OR prepostagem_id = ? LIMIT 1',
      [binding.supportCode ?? null, binding.prepostagemId ?? null],
    );
    return row !== undefined;
  }

  /** Attempts, most recent first, optionally of one state. */
  async list(filter: { state?: AttemptState; limit?: number } = {}): Promise<LedgerAttempt[]> {
    const where = filter.state ? 'WHERE state = ?' : '';
    const limit = filter.limit === undefined ? '' : 'LIMIT ?';
    const params = [
      ...(filter.state ? [filter.state] : []),
      ...(filter.limit === undefined ? [] : [filter.limit]),
    ];
    const rows = await (await this.sql()).all(
      `SELECT * FROM label_attempts ${where} ORDER BY created_at DESC, id ${limit}`,
      params,
    );
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  /** Every `pending` attempt older than `before` becomes `unknown` (its process died mid-call). */
  async recoverPending(before: number): Promise<LedgerAttempt[]> {
    const rows = await (await this.sql()).all(
      `UPDATE label_attempts SET state = 'unknown', settled_by = 'restart', settled_at = ?,
         note = 'the BFF stopped during the call; outcome unknown until diagnosis or the operator settles it'
       WHERE state = 'pending' AND created_at < ?
       RETURNING *`,
      [this.now(), before],
    );
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  healthy(): Promise<boolean> {
    return this.db.healthy();
  }

  private async row(runner: SqlRunner, id: string): Promise<LedgerAttempt | undefined> {
    return toAttempt(await runner.one('SELECT * FROM label_attempts WHERE id = ?', [id]));
  }

  private async first(sql: string, params: SqlValue[]): Promise<LedgerAttempt | undefined> {
    return toAttempt(await (await this.sql()).one(sql, params));
  }

  private async mustGet(id: string): Promise<LedgerAttempt> {
    const attempt = await this.get(id);
    if (!attempt) throw new AttemptNotFoundError(`no attempt ${id}`);
    return attempt;
  }
}
