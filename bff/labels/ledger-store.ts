import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../../shared/business-days.ts';
import { MigratedStore } from '../../shared/sql/migrate.ts';
import {
  isUniqueViolation,
  type Sql,
  type SqlRunner,
  type SqlTransaction,
  type SqlValue,
} from '../../shared/sql/sql.ts';
import {
  AgentLimitError,
  AlreadyCreatedError,
  AttemptNotFoundError,
  type AttemptState,
  type BeginInput,
  BindingConflictError,
  type DailyLimits,
  IdempotencyConflictError,
  type LedgerAttempt,
  OpenAttemptConflictError,
  OrderVolumeConflictError,
  type SendWindow,
  SendWindowError,
  type Settlement,
  TRANSITIONS,
  TransitionError,
  attemptFromRow as toAttempt,
  type UnknownWhy,
} from './ledger.ts';
import { LEDGER_MIGRATIONS } from './migrations.ts';

/** What `list` selects. */
export interface AttemptFilter {
  state?: AttemptState | undefined;
  /** Matches the order, the tracking code or the recipient's name (a part of it, any case). */
  q?: string | undefined;
  /** The last attempt of the previous page. */
  before?: { createdAt: number; id: string } | undefined;
  limit?: number | undefined;
}

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
export class LedgerStore extends MigratedStore {
  private readonly keyWindowMs: number;

  constructor(sql: Sql, options: LedgerStoreOptions = {}) {
    super(sql, LEDGER_MIGRATIONS, options.now);
    this.keyWindowMs = options.keyWindowMs ?? 7 * DAY_MS;
  }

  /**
   * Writes a pending attempt, in one transaction with every check that decides whether it may be written:
   *
   * - `IdempotencyConflictError`: the key is remembered for another attempt (a key older than the window, or one
   *   whose attempt ended `not_sent`, is released to the new attempt here);
   * - `OpenAttemptConflictError`: the same request has an open attempt;
   * - `OrderVolumeConflictError`: the order's volume is held by an open or created attempt;
   * - `AlreadyCreatedError`: `createdSince` is given and the request was created since;
   * - `AgentLimitError`: `limits` are given and the issuer is over them for the day;
   * - `SendWindowError`: `window` is given and the store's send window is full.
   */
  async begin(input: BeginInput): Promise<LedgerAttempt> {
    const id = randomUUID();
    const now = this.now();
    await this.sql.transaction(async (tx) => {
      // Locks in one order (window, issuer, request) in every transaction that takes more than one: no deadlock.
      if (input.window) await this.checkWindow(tx, input.window);
      if (input.limits) await this.checkLimits(tx, input.limits, input.declaredValueCents ?? 0);
      await tx.lock(input.fingerprint);
      if (input.idempotencyKey) {
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
          `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, created_at, request, order_id, volume,
             issued_by, recipient, service_code, declared_value_cents, lease_until, locale)
           VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            input.fingerprint,
            input.idempotencyKey ?? null,
            now,
            input.request,
            input.orderId ?? null,
            input.orderId === undefined ? null : (input.volume ?? 1),
            input.issuedBy ?? null,
            input.recipient ?? null,
            input.serviceCode ?? null,
            input.declaredValueCents ?? null,
            input.leaseUntil ?? null,
            input.locale ?? null,
          ],
        );
      } catch (error) {
        if (isUniqueViolation(error, 'idempotency_key'))
          throw new IdempotencyConflictError('idempotency key already used');
        if (isUniqueViolation(error, 'fingerprint'))
          throw new OpenAttemptConflictError('the same request has an open attempt');
        if (isUniqueViolation(error, 'order_id'))
          throw new OrderVolumeConflictError('this volume of the order already has a label');
        throw error;
      }
    });
    return this.mustGet(id);
  }

  /**
   * The send window (see `SendWindow`): attempts in the air, and those whose lost answer is still being reconciled
   * (a live lease), are "unsettled"; a new attempt may begin while fewer than `maxInFlight` are, and while the oldest
   * of them has fewer than `recentReach` attempts after it.
   */
  private async checkWindow(tx: SqlTransaction, window: SendWindow): Promise<void> {
    await tx.lock('label_send_window');
    const unsettled = await tx.one(
      `SELECT count(*) AS n, min(created_at) AS oldest FROM label_attempts
       WHERE state = 'pending' OR (state = 'unknown' AND lease_until > ?)`,
      [window.now],
    );
    const inFlight = Number(unsettled?.n ?? 0);
    if (inFlight >= window.maxInFlight) throw new SendWindowError(`${inFlight} label calls in flight`);
    if (inFlight === 0 || unsettled?.oldest === null || unsettled?.oldest === undefined) return;
    // Attempts written in the same millisecond as the oldest count as after it (one of them is it): the safe side.
    const after = await tx.one('SELECT count(*) - 1 AS n FROM label_attempts WHERE created_at >= ?', [
      Number(unsettled.oldest),
    ]);
    if (Number(after?.n ?? 0) + 1 >= window.recentReach) {
      throw new SendWindowError('an unsettled attempt would fall out of the platform history');
    }
  }

  /** The issuer's labels and declared value today (open or created), against its limits. */
  private async checkLimits(
    tx: SqlTransaction,
    limits: DailyLimits,
    declaredValueCents: number,
  ): Promise<void> {
    await tx.lock(`label_issuer:${limits.issuedBy}`);
    const today = await spent(tx, limits.issuedBy, limits.dayStart, limits.dayEnd);
    if (limits.maxLabels !== undefined && today.labels + 1 > limits.maxLabels) {
      throw new AgentLimitError('maxLabelsPerDay', limits.dayEnd);
    }
    if (
      limits.maxDeclaredValueCents !== undefined &&
      today.cents + declaredValueCents > limits.maxDeclaredValueCents
    ) {
      throw new AgentLimitError('maxDeclaredValuePerDay', limits.dayEnd);
    }
  }

  /** What an issuer has spent of its day (open or created labels), for `preview_label`'s "limits left". */
  spentToday(issuedBy: string, dayStart: number, dayEnd: number): Promise<{ labels: number; cents: number }> {
    return spent(this.sql, issuedBy, dayStart, dayEnd);
  }

  /** Extends (or, with null, ends) the lease of an attempt still open; false when it is no longer open. */
  async lease(id: string, until: number | null): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE label_attempts SET lease_until = ? WHERE id = ? AND state IN ('pending', 'unknown')`,
      [until, id],
    );
    return changed === 1;
  }

  /** The attempt that holds this order's volume (open or created), if any. */
  byOrderVolume(orderId: string, volume: number): Promise<LedgerAttempt | undefined> {
    return this.first(
      `SELECT * FROM label_attempts WHERE order_id = ? AND volume = ? AND state IN ('pending', 'unknown', 'created')`,
      [orderId, volume],
    );
  }

  /** Every attempt of an order, volume by volume (the latest attempt of each first). */
  async byOrder(orderId: string): Promise<LedgerAttempt[]> {
    const rows = await this.sql.all(
      'SELECT * FROM label_attempts WHERE order_id = ? ORDER BY volume, created_at DESC',
      [orderId],
    );
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  /** Moves an attempt along `TRANSITIONS`; throws `TransitionError` or `BindingConflictError` and changes nothing. */
  async settle(id: string, settlement: Settlement): Promise<LedgerAttempt> {
    await this.sql.transaction(async (tx) => {
      const request = await tx.one('SELECT fingerprint FROM label_attempts WHERE id = ?', [id]);
      if (!request) throw new AttemptNotFoundError(`no attempt ${id}`);
      await tx.lock(String(request.fingerprint));
      const current = await this.first('SELECT * FROM label_attempts WHERE id = ?', [id], tx);
      if (!current) throw new AttemptNotFoundError(`no attempt ${id}`);
      if (!TRANSITIONS[current.state].includes(settlement.state)) {
        throw new TransitionError(`an attempt ${current.state} cannot become ${settlement.state}`);
      }
      try {
        const changed = await tx.run(
          `UPDATE label_attempts SET state = ?, prepostagem_id = ?, tracking_code = ?, reason = ?, status = ?,
             support_code = ?, settled_by = ?, settled_at = ?, note = ?, unknown_why = ?, lease_until = ?
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
            // A lost answer keeps its lease while it is first reconciled; a settled attempt holds nothing.
            settlement.state === 'unknown' ? current.leaseUntil : null,
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
    await this.sql.run('UPDATE label_attempts SET unknown_why = ?, note = ? WHERE id = ?', [why, note, id]);
  }

  get(id: string): Promise<LedgerAttempt | undefined> {
    return this.first('SELECT * FROM label_attempts WHERE id = ?', [id]);
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
    const row = await this.sql.one(
      'SELECT id FROM label_attempts WHERE support_code = ? OR prepostagem_id = ? LIMIT 1',
      [binding.supportCode ?? null, binding.prepostagemId ?? null],
    );
    return row !== undefined;
  }

  /**
   * Attempts, most recent first: of one state, matching a text (order, tracking code or recipient, case-insensitive),
   * older than a cursor (the last one of the previous page), at most `limit`.
   */
  async list(filter: AttemptFilter = {}): Promise<LedgerAttempt[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.state) {
      where.push('state = ?');
      params.push(filter.state);
    }
    const q = filter.q?.trim().toLowerCase();
    if (q) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(
        "(lower(order_id) LIKE ? ESCAPE '\\' OR lower(tracking_code) LIKE ? ESCAPE '\\' OR lower(recipient) LIKE ? ESCAPE '\\')",
      );
      params.push(like, like, like);
    }
    if (filter.before) {
      where.push('(created_at < ? OR (created_at = ? AND id > ?))');
      params.push(filter.before.createdAt, filter.before.createdAt, filter.before.id);
    }
    const limit = filter.limit === undefined ? '' : 'LIMIT ?';
    if (filter.limit !== undefined) params.push(filter.limit);
    const rows = await this.sql.all(
      `SELECT * FROM label_attempts ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id ${limit}`,
      params,
    );
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  /**
   * Pending attempts whose process died mid-call become `unknown`: those written before `before`, and those whose
   * lease ran out. Each gets `reconcileLease` (epoch ms), so the send window keeps it within the platform's reach
   * while it is reconciled.
   */
  async recoverPending(before: number, reconcileLease: number | null = null): Promise<LedgerAttempt[]> {
    const now = this.now();
    const rows = await this.sql.all(
      `UPDATE label_attempts SET state = 'unknown', settled_by = 'restart', settled_at = ?, lease_until = ?,
         note = 'the BFF stopped during the call; outcome unknown until diagnosis or the operator settles it'
       WHERE state = 'pending' AND (created_at < ? OR lease_until < ?)
       RETURNING *`,
      [now, reconcileLease, before, now],
    );
    return rows.flatMap((row) => toAttempt(row) ?? []);
  }

  healthy(): Promise<boolean> {
    return this.sql.healthy();
  }

  private async first(sql: string, params: SqlValue[], runner: SqlRunner = this.sql) {
    return toAttempt(await runner.one(sql, params));
  }

  private async mustGet(id: string): Promise<LedgerAttempt> {
    const attempt = await this.get(id);
    if (!attempt) throw new AttemptNotFoundError(`no attempt ${id}`);
    return attempt;
  }
}

/** An issuer's labels and declared value (centavos) between two instants, open or created ones. */
async function spent(
  runner: SqlRunner,
  issuedBy: string,
  from: number,
  to: number,
): Promise<{ labels: number; cents: number }> {
  const row = await runner.one(
    `SELECT count(*) AS n, CAST(coalesce(sum(declared_value_cents), 0) AS BIGINT) AS cents FROM label_attempts
     WHERE issued_by = ? AND created_at >= ? AND created_at < ? AND state IN ('pending', 'unknown', 'created')`,
    [issuedBy, from, to],
  );
  return { labels: Number(row?.n ?? 0), cents: Number(row?.cents ?? 0) };
}
