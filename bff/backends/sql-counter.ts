import { randomUUID } from 'node:crypto';
import { MigratedStore, type Migration } from '../../shared/sql/migrate.ts';
import type { Sql, SqlTransaction } from '../../shared/sql/sql.ts';
import {
  type RateLimit,
  refusal,
  type WindowDecision,
  type WindowedCounter,
  waitOf,
} from '../../shared/windowed-counter.ts';

/** The hits of `SqlCounter`, one row each, on node:sqlite and PostgreSQL alike. */
export const COUNTER_MIGRATIONS: readonly Migration[] = [
  {
    id: '400-window-hits',
    sql: `
      CREATE TABLE window_hits (
        counter_key TEXT NOT NULL,
        hit TEXT NOT NULL,
        hit_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (counter_key, hit)
      );
      CREATE INDEX window_hits_key ON window_hits (counter_key, hit_at);
      CREATE INDEX window_hits_expires ON window_hits (expires_at)
    `,
  },
];

/**
 * The windowed counter in a database every instance shares (PostgreSQL) or one BFF's node:sqlite file: each call is
 * one transaction under a lock on its key (an advisory lock on PostgreSQL; node:sqlite's only writer), so concurrent
 * hits on several instances never get more than the limit through. Hits that left their window are deleted as new
 * ones come.
 */
export class SqlCounter extends MigratedStore implements WindowedCounter {
  constructor(sql: Sql, options: { now?: () => number } = {}) {
    super(sql, COUNTER_MIGRATIONS, options.now);
  }

  /** The key's hits in the window (oldest first), under its lock, after deleting every expired hit. */
  private async hits(tx: SqlTransaction, key: string, limit: RateLimit, now: number): Promise<number[]> {
    await tx.lock(`window_hits:${key}`);
    await tx.run('DELETE FROM window_hits WHERE expires_at <= ?', [now]);
    const rows = await tx.all(
      'SELECT hit_at FROM window_hits WHERE counter_key = ? AND hit_at > ? ORDER BY hit_at',
      [key, now - limit.seconds * 1000],
    );
    return rows.map((row) => Number(row.hit_at));
  }

  take(key: string, limit: RateLimit, hit: string = randomUUID()): Promise<WindowDecision> {
    const now = this.now();
    return this.sql.transaction(async (tx): Promise<WindowDecision> => {
      const hits = await this.hits(tx, key, limit, now);
      if (hits.length >= limit.calls) return refusal(hits[hits.length - limit.calls], limit, now);
      await tx.run('INSERT INTO window_hits (hit, counter_key, hit_at, expires_at) VALUES (?, ?, ?, ?)', [
        hit,
        key,
        now,
        now + limit.seconds * 1000,
      ]);
      return { ok: true };
    });
  }

  async release(key: string, hit: string): Promise<void> {
    // An expired hit is no longer counted: deleting it changes nothing.
    await this.sql.run('DELETE FROM window_hits WHERE counter_key = ? AND hit = ?', [key, hit]);
  }

  async count(key: string, limit: RateLimit): Promise<number> {
    const now = this.now();
    return this.sql.transaction(async (tx) => (await this.hits(tx, key, limit, now)).length);
  }

  async wait(key: string, limit: RateLimit): Promise<number> {
    const now = this.now();
    const hits = await this.sql.transaction((tx) => this.hits(tx, key, limit, now));
    return hits.length < limit.calls ? 0 : waitOf(hits[hits.length - limit.calls], limit, now);
  }
}
