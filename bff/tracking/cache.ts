import { LRUCache } from 'lru-cache';
import type { TrackingResult } from '../../shared/tracking.ts';

const MINUTE = 60_000;

/** How long a result is fresh, by what it says (delivered objects do not change; moving ones do). */
export interface TrackingTtls {
  delivered: number;
  moving: number;
  notFound: number;
}

export const DEFAULT_TTLS: TrackingTtls = {
  delivered: 24 * 60 * MINUTE,
  moving: 5 * MINUTE,
  notFound: 2 * MINUTE,
};

export type Freshness = 'fresh' | 'revalidate' | 'expired';

/** A cached result and how fresh it is now. */
export interface Cached {
  result: TrackingResult;
  freshness: Freshness;
}

/**
 * Results per code with their freshness: `TrackingCache` in this process's memory, or `RedisTrackingCache`
 * (redis-cache.ts) shared by every instance.
 */
export interface TrackingStore {
  get(code: string): Cached | undefined | Promise<Cached | undefined>;
  set(code: string, result: TrackingResult): void | Promise<void>;
}

/** How long a result stays fresh, by what it says (delivered objects do not change; moving ones do). */
export function ttlOf(result: TrackingResult, ttls: TrackingTtls = DEFAULT_TTLS): number {
  if (!result.found) return ttls.notFound;
  return result.delivered ? ttls.delivered : ttls.moving;
}

/** Fresh within its TTL, served while revalidating within one more, expired after. */
export function freshnessOf(storedAt: number, ttl: number, now: number): Freshness {
  const age = now - storedAt;
  return age < ttl ? 'fresh' : age < 2 * ttl ? 'revalidate' : 'expired';
}

interface Entry {
  result: TrackingResult;
  storedAt: number;
  ttl: number;
}

/**
 * Results per code with a TTL that fits the state and stale-while-revalidate: within one more TTL a result is served
 * while a refresh runs. Older results are kept (up to `maxEntries`, least recently used first out) as the last known
 * answer for when the upstream fails.
 */
export class TrackingCache implements TrackingStore {
  private readonly entries: LRUCache<string, Entry>;
  private readonly now: () => number;
  private readonly ttls: TrackingTtls;

  constructor(options: { now?: () => number; ttls?: TrackingTtls; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.ttls = options.ttls ?? DEFAULT_TTLS;
    this.entries = new LRUCache({ max: options.maxEntries ?? 20_000 });
  }

  ttlFor(result: TrackingResult): number {
    return ttlOf(result, this.ttls);
  }

  get(code: string): Cached | undefined {
    const entry = this.entries.get(code);
    return entry && { result: entry.result, freshness: freshnessOf(entry.storedAt, entry.ttl, this.now()) };
  }

  set(code: string, result: TrackingResult): void {
    this.entries.set(code, { result, storedAt: this.now(), ttl: this.ttlFor(result) });
  }

  get size(): number {
    return this.entries.size;
  }
}
