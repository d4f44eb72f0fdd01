import { placeholders, type Sql, type SqlRunner, skipLocked } from './sql.ts';

/**
 * The one outbox: rows to send to the outside (the notifications' webhooks and e-mails, the tracking sent back to the
 * stores), written in the transaction that decided them, sent later and at least once. Each user keeps its own table
 * (its unit differs: a shipment event's delivery, a store's order) with `OUTBOX_COLUMNS`, and says which states are
 * still to send; this module owns the rest:
 *
 * - the claim: due rows (`next_at <= now`, no live lease) are leased to one sender and counted as a try — `FOR UPDATE
 *   SKIP LOCKED` on PostgreSQL, where every instance claims; node:sqlite has one writer;
 * - the lease: a sender that dies mid-send leaves it to run out, and the row goes again (at least once);
 * - the backoff (`retryDelayMs`), until the row's `give_up_at`;
 * - the drain loop (`OutboxDrain`): claim, deliver, again until nothing is due.
 */

/** The columns every outbox table has, besides its key and its own: to paste in its `CREATE TABLE`. */
export const OUTBOX_COLUMNS = `state TEXT NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        next_at BIGINT NOT NULL,
        give_up_at BIGINT NOT NULL,
        lease_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        created_at BIGINT NOT NULL`;

/**
 * Where a row stands: `pending` (not tried yet), `retrying` (a try failed, another is due at `next_at`), `sent`, or
 * `failed` (refused for good, or still failing at `give_up_at`). A user may add states that are still to send.
 */
export const OUTBOX_STATES = ['pending', 'retrying', 'sent', 'failed'] as const;

/**
 * The wait before try `n + 1` after `n` failed tries: 30 s doubling to at most 2 h, with "equal jitter" (half of it
 * fixed, half random) so that many rows failing together do not come back together. About 16 tries fit 24 h.
 */
export function retryDelayMs(tries: number, random: () => number = Math.random): number {
  const delay = Math.min(30_000 * 2 ** Math.max(0, tries - 1), 2 * 3_600_000);
  return delay / 2 + random() * (delay / 2);
}

/** An outbox table: its name, its key, and what of the claim is its own. */
export interface OutboxShape {
  /** The table, with a TEXT primary key and `OUTBOX_COLUMNS`. */
  table: string;
  /** Its primary key column. */
  key: string;
  /** States besides `pending` and `retrying` in which a row is still to send (and claimed when due). */
  alsoOpen?: readonly string[];
  /** A further condition on a row to claim, over the table aliased `o` (e.g. none before it still waiting). */
  claimable?: string;
  /** The claim's order, over `o`; default `o.next_at, o.<key>`. */
  order?: string;
}

/** The rows of one outbox table: claimed for a lease, then marked sent, retrying or failed. */
export class OutboxTable {
  readonly sql: Sql;
  private readonly shape: OutboxShape;
  /** The states still to send, as an SQL list (literals from code, never from input). */
  private readonly open: string;

  constructor(sql: Sql, shape: OutboxShape) {
    this.sql = sql;
    this.shape = shape;
    this.open = ['pending', 'retrying', ...(shape.alsoOpen ?? [])].map((state) => `'${state}'`).join(', ');
  }

  /**
   * Up to `limit` rows due at `now`, each leased until `leaseUntil` and counted as a try; `read` reads the claimed
   * keys' rows in the claim's transaction, in the user's own shape.
   */
  async claim<T>(
    limit: number,
    now: number,
    leaseUntil: number,
    read: (tx: SqlRunner, keys: string[]) => Promise<T[]>,
  ): Promise<T[]> {
    const { table, key, claimable, order } = this.shape;
    return this.sql.transaction(async (tx) => {
      const due = await tx.all(
        `SELECT o.${key} FROM ${table} o
         WHERE o.state IN (${this.open}) AND o.next_at <= ? AND (o.lease_until IS NULL OR o.lease_until < ?)
           ${claimable ? `AND ${claimable}` : ''}
         ORDER BY ${order ?? `o.next_at, o.${key}`} LIMIT ?${skipLocked(tx)}`,
        [now, now, limit],
      );
      if (due.length === 0) return [];
      const keys = due.map((row) => String(row[key]));
      await tx.run(
        `UPDATE ${table} SET lease_until = ?, tries = tries + 1 WHERE ${key} IN (${placeholders(keys.length)})`,
        [leaseUntil, ...keys],
      );
      return read(tx, keys);
    });
  }

  /** Delivered: never sent again. */
  async sent(key: string, now: number): Promise<void> {
    await this.sql.run(
      `UPDATE ${this.shape.table} SET state = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL
       WHERE ${this.shape.key} = ? AND state IN (${this.open})`,
      [now, key],
    );
  }

  /** Failed this time: tried again at `nextAt` (see `retryDelayMs`), or given up when that is past `give_up_at`. */
  async failed(
    key: string,
    error: string,
    now: number,
    nextAt: number | undefined,
  ): Promise<'retrying' | 'failed'> {
    const row = await this.sql.one(`SELECT give_up_at FROM ${this.shape.table} WHERE ${this.shape.key} = ?`, [
      key,
    ]);
    const state =
      nextAt === undefined || row === undefined || nextAt > Number(row.give_up_at) ? 'failed' : 'retrying';
    await this.mark(key, state, nextAt ?? now, error);
    return state;
  }

  /**
   * A try failed: the row goes again after the backoff (`retryDelayMs` of its tries), or is given up when the failure
   * is `permanent` or the next try would fall past its `give_up_at`.
   */
  retry(
    key: string,
    failure: { tries: number; error: string; permanent: boolean },
    now: number,
    random: () => number = Math.random,
  ): Promise<'retrying' | 'failed'> {
    const nextAt = failure.permanent ? undefined : now + retryDelayMs(failure.tries, random);
    return this.failed(key, failure.error, now, nextAt);
  }

  /** A row still to send moves to `state`, due at `nextAt`, its lease ended; `why` is shown on the desk. */
  async mark(key: string, state: string, nextAt: number, why: string): Promise<void> {
    await this.sql.run(
      `UPDATE ${this.shape.table} SET state = ?, next_at = ?, last_error = ?, lease_until = NULL
       WHERE ${this.shape.key} = ? AND state IN (${this.open})`,
      [state, nextAt, why.slice(0, 300), key],
    );
  }

  /**
   * node:sqlite only (one writer): at start, every lease belongs to a process that is gone, so its rows are due again
   * now rather than when the lease would have run out. Answers how many.
   */
  async releaseLeases(): Promise<number> {
    if (this.sql.dialect !== 'sqlite') return 0;
    return this.sql.run(
      `UPDATE ${this.shape.table} SET lease_until = NULL WHERE lease_until IS NOT NULL AND state IN (${this.open})`,
    );
  }
}

/**
 * How a sender drains an outbox: claim what is due for a lease, deliver each, again until nothing is due. A call while
 * a drain runs joins it and makes it look once more before it ends, so what was written meanwhile is not left for the
 * next tick. Any instance may drain the same outbox: the claim's lease decides who sends what.
 */
export class OutboxDrain<T> {
  private readonly claim: () => Promise<readonly T[]>;
  private readonly deliver: (item: T) => Promise<void>;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(claim: () => Promise<readonly T[]>, deliver: (item: T) => Promise<void>) {
    this.claim = claim;
    this.deliver = deliver;
  }

  /** Sends everything due now; answers how many tries it made. */
  drain(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async loop(): Promise<number> {
    let tries = 0;
    for (;;) {
      this.again = false;
      const claimed = await this.claim();
      if (claimed.length === 0 && !this.again) return tries;
      tries += claimed.length;
      await Promise.all(claimed.map((item) => this.deliver(item)));
    }
  }
}
