import { LRUCache } from 'lru-cache';
import * as z from 'zod/mini';
import { type TrackingResult, TrackingResultSchema } from '../../shared/tracking.ts';

const MINUTE = 60_000;

/** How long a result is fresh, by what it says (delivered objects do not change; moving ones do). */
export const DEFAULT_TTLS = {
  delivered: 24 * 60 * MINUTE,
  moving: 5 * MINUTE,
  notFound: 2 * MINUTE,
};
export type TrackingTtls = typeof DEFAULT_TTLS;

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

/** A result, when it was stored and its TTL then: what the cache holds here and in Redis (redis-cache.ts). */
export const TrackingEntrySchema = /* @__PURE__ */ z.object({
  result: TrackingResultSchema,
  storedAt: z.number(),
  ttl: z.number(),
});
export type TrackingEntry = z.infer<typeof TrackingEntrySchema>;

/**
 * Results per code with a TTL that fits the state and stale-while-revalidate: within one more TTL a result is served
 * while a refresh runs. Older results are kept (up to `maxEntries`, least recently used first out) as the last known
 * answer for when the upstream fails.
 */
export class TrackingCache implements TrackingStore {
  private readonly entries: LRUCache<string, TrackingEntry>;
  private readonly now: () => number;
  private readonly ttls: TrackingTtls;

  constructor(options: { now?: () => number; ttls?: TrackingTtls; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.ttls = options.ttls ?? DEFAULT_TTLS;
    this.entries = new LRUCache({ max: options.maxEntries ?? 20_000 });
  }

  /** `result` stored now, with the TTL its state calls for (`TrackingTtls`). */
  entryOf(result: TrackingResult): TrackingEntry {
    const { delivered, moving, notFound } = this.ttls;
    return {
      result,
      storedAt: this.now(),
      ttl: result.found ? (result.delivered ? delivered : moving) : notFound,
    };
  }

  /** An entry as it reads now: fresh within its TTL, served while revalidating within one more, expired after. */
  read(entry: TrackingEntry): Cached {
    const age = this.now() - entry.storedAt;
    const freshness = age < entry.ttl ? 'fresh' : age < 2 * entry.ttl ? 'revalidate' : 'expired';
    return { result: entry.result, freshness };
  }

  get(code: string): Cached | undefined {
    const entry = this.entries.get(code);
    return entry && this.read(entry);
  }

  set(code: string, result: TrackingResult): void {
    this.entries.set(code, this.entryOf(result));
  }

  get size(): number {
    return this.entries.size;
  }
}
