import * as z from 'zod/mini';
import { DAY_MS } from '../../shared/business-days.ts';
import { PARCEL_STATUSES } from '../../shared/parcel-status.ts';
import { type CamelCased, flag, fromRow } from '../../shared/sql/rows.ts';
import { placeholders, type Sql, type SqlRunner, skipLocked } from '../../shared/sql/sql.ts';
import type { WatchState } from './look.ts';
import { WATCH_DAYS } from './migrations.ts';
import { enqueueEvent, type NewEvent } from './outbox.ts';

/** A label the watcher follows: its tracking code, what was last seen, and the version its next record must match. */
const WatchRowSchema = z.object({
  attempt_id: z.string(),
  tracking_code: z.string(),
  status: z.nullable(z.enum(PARCEL_STATUSES)),
  event_key: z.nullable(z.string()),
  changed_at: z.number(),
  stalled: flag,
  reminded: z._default(flag, false),
  version: z.number(),
});

export type Watch = CamelCased<z.output<typeof WatchRowSchema>>;

function toWatch(row: unknown): Watch {
  return fromRow(WatchRowSchema, row);
}

/**
 * The watcher's state (`shipment_watches`, migrations.ts) over the ledger's `Sql`. Every instance may run the watcher:
 * a due label is claimed by one of them (`FOR UPDATE SKIP LOCKED` on PostgreSQL; node:sqlite has one writer), and a
 * look is recorded only against the version it was claimed at, in the same transaction as its event and the event's
 * deliveries — so a change becomes exactly one event, and a crash leaves the look either recorded whole or not at all.
 */
const StalledRowSchema = z.object({ tracking_code: z.string() });

export class WatchStore {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /**
   * Starts watching the labels issued since the last call: `created` attempts of the last `WATCH_DAYS` with a tracking
   * code and no watch yet (the ledger's `label_attempts`, in the same database). A new label has no carrier events:
   * that is its first status, so its first movement is already a change. Answers how many it added. `ledgerNow` is
   * the clock of the ledger's `created_at` (the BFF's), when the watcher runs on the sandbox's (`BFF_TEST_CLOCK`).
   */
  discover(now: number, ledgerNow = now): Promise<number> {
    return this.sql.run(
      `INSERT INTO shipment_watches (attempt_id, tracking_code, status, changed_at, next_check_at, created_at)
       SELECT a.id, a.tracking_code, 'no-events', ?, ?, ? FROM label_attempts a
       WHERE a.state = 'created' AND a.tracking_code IS NOT NULL AND a.created_at >= ?
         AND NOT EXISTS (SELECT 1 FROM shipment_watches w WHERE w.attempt_id = a.id)
       ON CONFLICT (attempt_id) DO NOTHING`,
      [now, now, now, ledgerNow - WATCH_DAYS * DAY_MS],
    );
  }

  /**
   * Claims up to `limit` labels due for a look (the longest waiting first) and moves their next look to `nextCheckAt`,
   * so no other instance (and no later round) looks at them meanwhile. Labels past `WATCH_DAYS` are let go here.
   */
  async claimDue(limit: number, now: number, nextCheckAt: number): Promise<Watch[]> {
    return this.sql.transaction(async (tx) => {
      await tx.run('UPDATE shipment_watches SET done = 1 WHERE done = 0 AND created_at < ?', [
        now - WATCH_DAYS * DAY_MS,
      ]);
      const rows = await tx.all(
        `SELECT attempt_id, tracking_code, status, event_key, changed_at, stalled, reminded, version FROM shipment_watches
         WHERE done = 0 AND next_check_at <= ? ORDER BY next_check_at, attempt_id LIMIT ?${skipLocked(this.sql)}`,
        [now, limit],
      );
      const watches = rows.map(toWatch);
      await nextCheck(tx, watches, nextCheckAt);
      return watches;
    });
  }

  /** Claimed labels that could not be looked at (the watcher's share was spent): first in line again from `at`. */
  putBack(watches: readonly Watch[], at: number): Promise<void> {
    return nextCheck(this.sql, watches, at);
  }

  /**
   * Records one look at a label, with its event (and the event's deliveries) when it made one — only if nobody
   * recorded a look since the label was claimed (its version) — and whatever else the look taught (`also`: the
   * delivery promise's history), in the same transaction. Answers whether this call recorded it.
   */
  async record(
    watch: Watch,
    look: { next: WatchState; done: boolean },
    event: NewEvent | undefined,
    now: number,
    also?: (tx: SqlRunner) => Promise<void>,
    /** The outbox's clock for the event's deliveries (the dispatcher's; `now` unless a test clock drives the look). */
    queuedAt = now,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const { next } = look;
      const changed = await tx.run(
        `UPDATE shipment_watches SET status = ?, event_key = ?, changed_at = ?, stalled = ?, reminded = ?, done = ?,
           checked_at = ?, version = version + 1
         WHERE attempt_id = ? AND version = ?`,
        [
          next.status,
          next.eventKey,
          next.changedAt,
          next.stalled ? 1 : 0,
          next.reminded ? 1 : 0,
          look.done ? 1 : 0,
          now,
          watch.attemptId,
          watch.version,
        ],
      );
      if (changed !== 1) return false;
      if (event)
        await enqueueEvent(tx, { ...event, attemptId: watch.attemptId, seq: watch.version + 1 }, queuedAt);
      await also?.(tx);
      return true;
    });
  }

  /** One label's watch, for tests and the desk. */
  /**
   * The codes among `codes` the watcher has declared stalled and not seen move since (`shipment.stalled` was sent): the
   * tracking page says what the e-mail said.
   */
  async stalledAmong(codes: readonly string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await this.sql.all(
      `SELECT tracking_code FROM shipment_watches WHERE stalled = 1 AND done = 0
       AND tracking_code IN (${placeholders(codes.length)})`,
      [...codes],
    );
    return new Set(rows.map((row) => StalledRowSchema.parse(row).tracking_code));
  }

  async get(attemptId: string): Promise<(Watch & { done: boolean; nextCheckAt: number }) | undefined> {
    const row = await this.sql.one('SELECT * FROM shipment_watches WHERE attempt_id = ?', [attemptId]);
    if (!row) return undefined;
    return { ...toWatch(row), done: Number(row.done) === 1, nextCheckAt: Number(row.next_check_at) };
  }
}

/** Moves the next look at these labels to `at`. */
async function nextCheck(runner: SqlRunner, watches: readonly Watch[], at: number): Promise<void> {
  if (watches.length === 0) return;
  await runner.run(
    `UPDATE shipment_watches SET next_check_at = ? WHERE attempt_id IN (${placeholders(watches.length)})`,
    [at, ...watches.map((watch) => watch.attemptId)],
  );
}
