import { LRUCache } from 'lru-cache';

/** `calls` per `seconds`, e.g. the spec's 60/60. */
export interface RateLimit {
  calls: number;
  seconds: number;
}

/** Parses `60/60` (calls/seconds). */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return undefined;
  const calls = Number(match[1]);
  const seconds = Number(match[2]);
  return calls > 0 && seconds > 0 ? { calls, seconds } : undefined;
}

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
  /**
   * Milliseconds until the key's window has room for one more hit, 0 when it has now: for a caller that waits to the
   * millisecond (the upstream budget) rather than say whole seconds.
   */
  wait(key: string, limit: RateLimit): Promise<number>;
}

/**
 * The refusal of a hit: it waits until the hit that must leave for it does, at `leavingAt` (at least 1 s; none, as for
 * a limit of 0: a whole window).
 */
export function refusal(leavingAt: number | undefined, limit: RateLimit, now: number): WindowDecision {
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitOf(leavingAt, limit, now) / 1000)) };
}

/** The milliseconds until the hit that must leave for one more, at `leavingAt`, does (at least 1). */
export function waitOf(leavingAt: number | undefined, limit: RateLimit, now: number): number {
  const windowMs = limit.seconds * 1000;
  return Math.max(1, leavingAt === undefined ? windowMs : leavingAt + windowMs - now);
}

/** How many `take`s between sweeps of keys whose every hit has left the window (bounds memory between evictions). */
const SWEEP_EVERY = 1024;

/**
 * The hits of one key, oldest first from `head` (a queue over an array: O(1) amortized per hit). Times only, 8 bytes a
 * hit, unless a hit is named: then `names`, beside them ('' for a hit without a name).
 */
interface HitLog {
  times: number[];
  names: string[] | undefined;
  head: number;
  /** When the latest hit leaves the window: the key is forgotten by the next sweep after. */
  endsAt: number;
}

/**
 * In this process: a log of hit times per key, in an LRU map of at most `maxKeys` keys per kind (a key's part before
 * its first `:`, a policy's name), so a flood of new keys pushes out the least recently counted of its own kind (who
 * start afresh if they come back), never another kind's counts, and never puts newcomers into one shared bucket.
 * Memory: at most `limit.calls` times per key; keys whose hits all left the window are swept.
 */
export class MemoryCounter implements WindowedCounter {
  private readonly kinds = new Map<string, LRUCache<string, HitLog>>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private takes = 0;

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

  private logs(key: string): LRUCache<string, HitLog> {
    const kind = key.split(':', 1)[0] ?? '';
    let logs = this.kinds.get(kind);
    if (!logs) {
      logs = new LRUCache({ max: this.maxKeys });
      this.kinds.set(kind, logs);
    }
    return logs;
  }

  /** The key's log, the hits outside its window (now - window, now] dropped. */
  private log(key: string, limit: RateLimit, now: number): HitLog {
    const logs = this.logs(key);
    let log = logs.get(key);
    if (!log) {
      log = { times: [], names: undefined, head: 0, endsAt: now };
      logs.set(key, log);
    }
    const from = now - limit.seconds * 1000;
    while (log.head < log.times.length && (log.times[log.head] as number) <= from) log.head++;
    if (log.head >= 1024 && log.head * 2 >= log.times.length) {
      log.times = log.times.slice(log.head);
      log.names = log.names?.slice(log.head);
      log.head = 0;
    }
    return log;
  }

  async take(key: string, limit: RateLimit, hit?: string): Promise<WindowDecision> {
    const now = this.now();
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(now);
    const log = this.log(key, limit, now);
    if (log.times.length - log.head >= limit.calls) {
      return refusal(log.times[log.times.length - limit.calls], limit, now);
    }
    if (hit !== undefined && !log.names) log.names = log.times.map(() => '');
    log.names?.push(hit ?? '');
    log.times.push(now);
    log.endsAt = now + limit.seconds * 1000;
    return { ok: true };
  }

  async release(key: string, hit: string): Promise<void> {
    const log = this.logs(key).peek(key);
    const index = log?.names?.indexOf(hit, log.head) ?? -1;
    if (!log || index < 0) return;
    log.times.splice(index, 1);
    log.names?.splice(index, 1);
  }

  async count(key: string, limit: RateLimit): Promise<number> {
    const log = this.log(key, limit, this.now());
    return log.times.length - log.head;
  }

  async wait(key: string, limit: RateLimit): Promise<number> {
    const now = this.now();
    const log = this.log(key, limit, now);
    if (log.times.length - log.head < limit.calls) return 0;
    return waitOf(log.times[log.times.length - limit.calls], limit, now);
  }

  /** Forgets every key (the sandbox's reset). */
  clear(): void {
    this.kinds.clear();
  }

  private sweep(now: number): void {
    for (const logs of this.kinds.values()) {
      const ended = [...logs.entries()].filter(([, log]) => log.endsAt <= now).map(([key]) => key);
      for (const key of ended) logs.delete(key);
    }
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
}
