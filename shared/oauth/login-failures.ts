import { LRUCache } from 'lru-cache';
import { type Migration, migrated } from '../sql/migrate.ts';
import type { Sql } from '../sql/sql.ts';

/** The failures counted under one key (`address:…`, `account:…`, `device:…`) in its current window. */
export interface FailureCount {
  count: number;
  /** Epoch ms of the latest failure. */
  last: number;
  /** Epoch ms when the window ends and the count is forgotten. */
  until: number;
}

/**
 * How a failure moves its key's window: a first failure (or one after the window ended) opens a window of `windowMs`;
 * from the `extendFrom`th failure on, each one restarts it (`1`: forgotten only after `windowMs` without a failure;
 * the limit: a lock lasts `windowMs` from the failure that reached it).
 */
export interface FailureRule {
  windowMs: number;
  extendFrom: number;
}

/**
 * Counts of failed logins, kept where every instance sees them (`LoginGuard` decides what they mean):
 * `MemoryLoginFailures` in this process, `SqlLoginFailures` in the database of the OAuth store (node:sqlite or the
 * PostgreSQL every BFF instance shares), or `RedisLoginFailures` (bff/oauth/) in the BFF's Redis. Each call is one
 * atomic step, so concurrent failures on several instances are all counted.
 */
export interface LoginFailures {
  /** The key's count, or undefined when it has none or its window ended at `now`. */
  get(key: string, now: number): Promise<FailureCount | undefined>;
  /** Counts one failure; answers the count with it. */
  add(key: string, now: number, rule: FailureRule): Promise<FailureCount>;
  /** Takes one failure back (a counted attempt that turned out right), never below zero. */
  release(key: string, now: number): Promise<void>;
  /** Forgets the key. */
  clear(key: string): Promise<void>;
  /** Forgets every key (the sandbox's reset). */
  clearAll(): Promise<void>;
}

/** The count after one more failure, from the count before it (shared by the memory and Redis stores' logic). */
export function nextCount(before: FailureCount | undefined, now: number, rule: FailureRule): FailureCount {
  if (!before || before.until <= now) {
    return { count: 1, last: now, until: now + rule.windowMs };
  }
  const count = before.count + 1;
  return { count, last: now, until: count >= rule.extendFrom ? now + rule.windowMs : before.until };
}

/** Keys held per kind (the part before `:`): a flood of one kind never pushes out another's counts. */
const MAX_KEYS_PER_KIND = 10_000;

/**
 * In this process (the sandbox; a BFF without a database of its own for them). Bounded: each kind of key is a
 * least-recently-used map of at most 10,000, so addresses never push an account's count out.
 */
export class MemoryLoginFailures implements LoginFailures {
  private readonly kinds = new Map<string, LRUCache<string, FailureCount>>();

  private map(key: string): LRUCache<string, FailureCount> {
    const kind = key.split(':', 1)[0] ?? '';
    let map = this.kinds.get(kind);
    if (!map) {
      map = new LRUCache({ max: MAX_KEYS_PER_KIND });
      this.kinds.set(kind, map);
    }
    return map;
  }

  async get(key: string, now: number): Promise<FailureCount | undefined> {
    const found = this.map(key).get(key);
    return found && found.until > now ? { ...found } : undefined;
  }

  async add(key: string, now: number, rule: FailureRule): Promise<FailureCount> {
    const next = nextCount(this.map(key).get(key), now, rule);
    this.map(key).set(key, next);
    return { ...next };
  }

  async release(key: string, now: number): Promise<void> {
    const found = this.map(key).get(key);
    if (found && found.until > now && found.count > 0) found.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.map(key).delete(key);
  }

  async clearAll(): Promise<void> {
    this.kinds.clear();
  }
}

/** The table of `SqlLoginFailures`, on node:sqlite and PostgreSQL alike. */
export const LOGIN_FAILURE_MIGRATIONS: readonly Migration[] = [
  {
    id: '150-login-failures',
    sql: `
      CREATE TABLE login_failures (
        id TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_at BIGINT NOT NULL,
        until_at BIGINT NOT NULL
      );
      CREATE INDEX login_failures_until ON login_failures (until_at)
    `,
  },
];

/**
 * In the OAuth store's database: node:sqlite (one BFF), or the PostgreSQL every instance shares. One upsert per
 * failure computes the next count in the database, so concurrent failures on several instances never overwrite each
 * other. Rows whose window ended are deleted as new failures come; a key is written only when a password was
 * actually checked and failed, which the account's budget bounds.
 */
export class SqlLoginFailures implements LoginFailures {
  /** Settles once the table exists. */
  readonly ready: Promise<void>;
  private readonly sql: Sql;

  constructor(sql: Sql) {
    ({ ready: this.ready, sql: this.sql } = migrated(sql, LOGIN_FAILURE_MIGRATIONS));
  }

  async get(key: string, now: number): Promise<FailureCount | undefined> {
    const row = await this.sql.one(
      'SELECT failures, last_at, until_at FROM login_failures WHERE id = ? AND until_at > ?',
      [key, now],
    );
    return row && { count: Number(row.failures), last: Number(row.last_at), until: Number(row.until_at) };
  }

  async add(key: string, now: number, rule: FailureRule): Promise<FailureCount> {
    await this.sql.run('DELETE FROM login_failures WHERE until_at <= ?', [now]);
    const row = await this.sql.one(
      `INSERT INTO login_failures (id, failures, last_at, until_at) VALUES (?, 1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET
         failures = CASE WHEN login_failures.until_at <= ? THEN 1 ELSE login_failures.failures + 1 END,
         until_at = CASE
           WHEN login_failures.until_at <= ? OR login_failures.failures + 1 >= ? THEN ?
           ELSE login_failures.until_at END,
         last_at = ?
       RETURNING failures, last_at, until_at`,
      [key, now, now + rule.windowMs, now, now, rule.extendFrom, now + rule.windowMs, now],
    );
    return { count: Number(row?.failures), last: Number(row?.last_at), until: Number(row?.until_at) };
  }

  async release(key: string, now: number): Promise<void> {
    await this.sql.run(
      'UPDATE login_failures SET failures = failures - 1 WHERE id = ? AND failures > 0 AND until_at > ?',
      [key, now],
    );
  }

  async clear(key: string): Promise<void> {
    await this.sql.run('DELETE FROM login_failures WHERE id = ?', [key]);
  }

  async clearAll(): Promise<void> {
    await this.sql.run('DELETE FROM login_failures');
  }
}
