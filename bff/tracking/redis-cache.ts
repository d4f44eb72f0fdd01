import type { TrackingResult } from '../../shared/tracking.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { type Cached, type TrackingCache, TrackingEntrySchema, type TrackingStore } from './cache.ts';

const DAY = 24 * 60 * 60_000;

/**
 * The tracking cache shared by every instance (`BFF_REDIS_URL`): one JSON entry per code with the time it was stored
 * and its TTL, so each instance judges freshness (fresh, revalidate, expired) as the in-memory cache does. An entry
 * outlives its TTL by a day as the last known answer for when the platform fails. Every result is also kept in this
 * instance's memory, which answers while Redis does not, and whose clock and TTLs every entry is judged by.
 */
export class RedisTrackingCache implements TrackingStore {
  private readonly connection: RedisConnection;
  private readonly local: TrackingCache;

  constructor(options: { connection: RedisConnection; local: TrackingCache }) {
    this.connection = options.connection;
    this.local = options.local;
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
    const entry = this.local.entryOf(result);
    await this.connection.commands
      .set(this.key(code), JSON.stringify(entry), 'PX', 2 * entry.ttl + DAY)
      .catch(() => undefined);
  }

  private async shared(code: string): Promise<Cached | undefined> {
    // Validated like any upstream answer: the cache is shared, so it is an edge too.
    const entry = await this.connection.getJson(this.key(code), TrackingEntrySchema);
    return entry ? this.local.read(entry) : undefined;
  }
}
