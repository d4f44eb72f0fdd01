import { type TrackingResult, TrackingResultSchema } from '../../shared/tracking.ts';
import type { RedisConnection } from '../backends/redis.ts';
import {
  type Cached,
  DEFAULT_TTLS,
  freshnessOf,
  type TrackingCache,
  type TrackingStore,
  type TrackingTtls,
  ttlOf,
} from './cache.ts';

const DAY = 24 * 60 * 60_000;

/**
 * The tracking cache shared by every instance (`BFF_REDIS_URL`): one JSON entry per code with the time it was stored
 * and its TTL, so each instance judges freshness (fresh, revalidate, expired) as the in-memory cache does. An entry
 * outlives its TTL by a day as the last known answer for when the platform fails. Every result is also kept in this
 * instance's memory, which answers while Redis does not.
 */
export class RedisTrackingCache implements TrackingStore {
  private readonly connection: RedisConnection;
  private readonly local: TrackingCache;
  private readonly now: () => number;
  private readonly ttls: TrackingTtls;

  constructor(options: {
    connection: RedisConnection;
    local: TrackingCache;
    now?: () => number;
    ttls?: TrackingTtls;
  }) {
    this.connection = options.connection;
    this.local = options.local;
    this.now = options.now ?? Date.now;
    this.ttls = options.ttls ?? DEFAULT_TTLS;
  }

  private key(code: string): string {
    return `${this.connection.prefix}:tc:${code}`;
  }

  async get(code: string): Promise<Cached | undefined> {
    return this.connection.orLocal(
      async () => (await this.shared(code)) ?? this.local.get(code),
      () => this.local.get(code),
    );
  }

  async set(code: string, result: TrackingResult): Promise<void> {
    this.local.set(code, result);
    if (!this.connection.ready) return;
    const ttl = ttlOf(result, this.ttls);
    const entry = JSON.stringify({ result, storedAt: this.now(), ttl });
    await this.connection.commands.set(this.key(code), entry, 'PX', 2 * ttl + DAY).catch(() => undefined);
  }

  private async shared(code: string): Promise<Cached | undefined> {
    const text = await this.connection.commands.get(this.key(code));
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
}
