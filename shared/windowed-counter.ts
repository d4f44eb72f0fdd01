import { LRUCache } from 'lru-cache';
import type { RateLimit } from './rate-limiter.ts';

/** A hit counted, or refused with the seconds until the key's oldest hit in the window leaves it. */
export type WindowDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * The one windowed counter: hits per key in a sliding window, never more than `limit.calls` within any
 * `limit.seconds`-long interval, wherever it starts (a fixed window let twice the limit through across its edge). The
 * limits, throttles, budgets and shares of the BFF and the sandbox are policies over it: they name a key and a limit.
 * `MemoryCounter` here (one process), `RedisCounter` (bff/backends/redis-counter.ts, every instance) and `SqlCounter`
 * (bff/backends/sql-counter.ts, node:sqlite or PostgreSQL). Each call is one atomic step, so N concurrent hits never
 * get more than the limit through.
 */
export interface WindowedCounter {
  /**
   * Counts one hit now, unless the key's window already holds `limit.calls`; a refused hit is not counted. `hit` names
   * it for `release` (unique per key; default: a random one).
   */
  take(key: string, limit: RateLimit, hit?: string): Promise<WindowDecision>;
  /**
   * Takes the hit named `hit` back (one counted that turned out not to matter: a lookup that found its order) while it
   * is still counted: never twice, never one that left its window, so never a free hit in a later window.
   */
  release(key: string, hit: string): Promise<void>;
  /** The key's hits in the window now. */
  count(key: string, limit: RateLimit): Promise<number>;
}

/** The seconds a refused hit waits: until the hit that must leave for it does (at least 1; a limit of 0: a window). */
export function refusal(hits: readonly number[], limit: RateLimit, now: number): WindowDecision {
  const windowMs = limit.seconds * 1000;
  const leaving = hits[hits.length - limit.calls];
  const waitMs = leaving === undefined ? windowMs : leaving + windowMs - now;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** A hit in memory: when, and its name when the caller gave one (for `release`). */
interface HeldHit {
  at: number;
  hit: string | undefined;
}

/**
 * In this process: a log of hit times per key, in an LRU map of at most `maxKeys` keys per kind (a key's part before
 * its first `:`, a policy's name), so a flood of new keys pushes out the least recently counted of its own kind (who
 * start afresh if they come back), never another kind's counts, and never puts newcomers into one shared bucket.
 * Memory: at most `limit.calls` times per key.
 */
export class MemoryCounter implements WindowedCounter {
  private readonly kinds = new Map<string, LRUCache<string, HeldHit[]>>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: { maxKeys?: number; now?: () => number } = {}) {
    this.maxKeys = options.maxKeys ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  /** Keys held right now, of every kind. */
  get size(): number {
    let size = 0;
    for (const logs of this.kinds.values()) size += logs.size;
    return size;
  }

  private logs(key: string): LRUCache<string, HeldHit[]> {
    const kind = key.split(':', 1)[0] ?? '';
    let logs = this.kinds.get(kind);
    if (!logs) {
      logs = new LRUCache({ max: this.maxKeys });
      this.kinds.set(kind, logs);
    }
    return logs;
  }

  /** The key's hits still in the window (oldest first), the expired ones dropped. */
  private hits(key: string, limit: RateLimit, now: number) {
    const from = now - limit.seconds * 1000;
    const hits = (this.logs(key).get(key) ?? []).filter((held) => held.at > from);
    this.logs(key).set(key, hits);
    return hits;
  }

  async take(key: string, limit: RateLimit, hit?: string): Promise<WindowDecision> {
    const now = this.now();
    const hits = this.hits(key, limit, now);
    if (hits.length >= limit.calls)
      return refusal(
        hits.map((held) => held.at),
        limit,
        now,
      );
    hits.push({ at: now, hit });
    return { ok: true };
  }

  async release(key: string, hit: string): Promise<void> {
    const hits = this.logs(key).peek(key);
    const index = hits?.findIndex((held) => held.hit === hit) ?? -1;
    if (hits && index >= 0) hits.splice(index, 1);
  }

  async count(key: string, limit: RateLimit): Promise<number> {
    return this.hits(key, limit, this.now()).length;
  }

  /** Forgets every key (the sandbox's reset). */
  clear(): void {
    this.kinds.clear();
  }
}

/** What a policy's users call: one hit of a key against the policy's limit. */
export interface KeyedLimit {
  take(key: string): Promise<WindowDecision>;
}

/**
 * A policy over the counter: one limit for the keys of one name (`visitor`, `share`, `quote-agent`…), which prefixes
 * them so two policies never count each other's hits.
 */
export class CounterPolicy implements KeyedLimit {
  readonly limit: RateLimit;
  private readonly counter: WindowedCounter;
  private readonly name: string;

  constructor(counter: WindowedCounter, name: string, limit: RateLimit) {
    this.counter = counter;
    this.name = name;
    this.limit = limit;
  }

  take(key: string, hit?: string): Promise<WindowDecision> {
    return this.counter.take(`${this.name}:${key}`, this.limit, hit);
  }

  release(key: string, hit: string): Promise<void> {
    return this.counter.release(`${this.name}:${key}`, hit);
  }

  count(key: string): Promise<number> {
    return this.counter.count(`${this.name}:${key}`, this.limit);
  }
}
