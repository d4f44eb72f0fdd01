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
  /** Counts one hit now, unless the key's window already holds `limit.calls`; a refused hit is not counted. */
  take(key: string, limit: RateLimit): Promise<WindowDecision>;
  /**
   * Takes the key's latest hit back (one counted that turned out not to matter: a lookup that found its order), never
   * below zero, and never a hit that already left the window.
   */
  release(key: string, limit: RateLimit): Promise<void>;
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

/**
 * In this process: a log of hit times per key, in an LRU map of at most `maxKeys` keys, so a flood of new keys pushes
 * out the least recently counted ones (who start afresh if they come back) and never puts newcomers into one shared
 * bucket. Memory: at most `limit.calls` times per key.
 */
export class MemoryCounter implements WindowedCounter {
  private readonly logs: LRUCache<string, number[]>;
  private readonly now: () => number;

  constructor(options: { maxKeys?: number; now?: () => number } = {}) {
    this.logs = new LRUCache({ max: options.maxKeys ?? 50_000 });
    this.now = options.now ?? Date.now;
  }

  /** Keys held right now. */
  get size(): number {
    return this.logs.size;
  }

  /** The key's hits still in the window (oldest first), the expired ones dropped. */
  private hits(key: string, limit: RateLimit, now: number): number[] {
    const from = now - limit.seconds * 1000;
    const hits = (this.logs.get(key) ?? []).filter((at) => at > from);
    this.logs.set(key, hits);
    return hits;
  }

  async take(key: string, limit: RateLimit): Promise<WindowDecision> {
    const now = this.now();
    const hits = this.hits(key, limit, now);
    if (hits.length >= limit.calls) return refusal(hits, limit, now);
    hits.push(now);
    return { ok: true };
  }

  async release(key: string, limit: RateLimit): Promise<void> {
    this.hits(key, limit, this.now()).pop();
  }

  async count(key: string, limit: RateLimit): Promise<number> {
    return this.hits(key, limit, this.now()).length;
  }

  /** Forgets every key (the sandbox's reset). */
  clear(): void {
    this.logs.clear();
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

  take(key: string): Promise<WindowDecision> {
    return this.counter.take(`${this.name}:${key}`, this.limit);
  }

  release(key: string): Promise<void> {
    return this.counter.release(`${this.name}:${key}`, this.limit);
  }

  count(key: string): Promise<number> {
    return this.counter.count(`${this.name}:${key}`, this.limit);
  }
}
