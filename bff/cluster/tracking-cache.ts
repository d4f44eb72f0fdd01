import type { Redis } from 'ioredis';
import { type TrackingResult, TrackingResultSchema } from '../../shared/tracking.ts';
import { DEFAULT_TTLS, type Freshness, freshnessOf, type TrackingTtls, ttlOf } from '../tracking/cache.ts';

const DAY = 24 * 60 * 60_000;

/**
 * The tracking cache shared by every instance: one JSON entry per code with the time it was stored and its TTL, so
 * each instance judges freshness (fresh, revalidate, expired) as the in-memory cache does. An entry outlives its TTL by
 * a day as the last known answer for when the platform fails.
 */
export class RedisTrackingCache {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly ttls: TrackingTtls;

  constructor(options: { redis: Redis; prefix: string; now?: () => number; ttls?: TrackingTtls }) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.now = options.now ?? Date.now;
    this.ttls = options.ttls ?? DEFAULT_TTLS;
  }

  async get(code: string): Promise<{ result: TrackingResult; freshness: Freshness } | undefined> {
    const text = await this.redis.get(`${this.prefix}:tc:${code}`);
    if (text === null) return undefined;
    let entry: { result: unknown; storedAt: number; ttl: number };
    try {
      entry = JSON.parse(text);
    } catch {
      return undefined;
    }
    // Validated like any upstream answer: the cache is shared, so it is an edge too.
    const parsed = TrackingResultSchema.safeParse(entry.result);
    if (!parsed.success || typeof entry.storedAt !== 'number' || typeof entry.ttl !== 'number')
      return undefined;
    return { result: parsed.data, freshness: freshnessOf(entry.storedAt, entry.ttl, this.now()) };
  }

  async set(code: string, result: TrackingResult): Promise<void> {
    const ttl = ttlOf(result, this.ttls);
    const entry = JSON.stringify({ result, storedAt: this.now(), ttl });
    await this.redis.set(`${this.prefix}:tc:${code}`, entry, 'PX', 2 * ttl + DAY);
  }
}
