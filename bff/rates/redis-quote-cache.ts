import { type RatesResponse, RatesResponseSchema } from '../../shared/quote.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { type MemoryQuoteStore, QUOTE_CACHE_MS, type QuoteStore } from './quote-cache.ts';

/**
 * The quote cache shared by every instance (`BFF_REDIS_URL`): a checkout storm spread over three instances still
 * costs the platform one call per cart and CEP. Each answer is also kept in this instance's memory, which answers
 * while Redis does not. Redis expires an entry itself (`PX`), so every instance sees the same lifetime.
 */
export class RedisQuoteStore implements QuoteStore {
  private readonly connection: RedisConnection;
  private readonly local: MemoryQuoteStore;
  private readonly ttlMs: number;

  constructor(options: { connection: RedisConnection; local: MemoryQuoteStore; ttlMs?: number }) {
    this.connection = options.connection;
    this.local = options.local;
    this.ttlMs = options.ttlMs ?? QUOTE_CACHE_MS;
  }

  /** The cart is hashed: a key of bounded length, and no cart content in Redis's key space. */
  private key(key: string): string {
    return `${this.connection.prefix}:quote:${sha256Hex(key)}`;
  }

  get(key: string): Promise<RatesResponse | undefined> {
    return this.connection.orLocal(
      async () => (await this.shared(key)) ?? this.local.get(key),
      () => this.local.get(key),
    );
  }

  async set(key: string, response: RatesResponse): Promise<void> {
    await this.local.set(key, response);
    if (!this.connection.ready) return;
    await this.connection.commands
      .set(this.key(key), JSON.stringify(response), 'PX', this.ttlMs)
      .catch(() => undefined);
  }

  private shared(key: string): Promise<RatesResponse | undefined> {
    // Checked like the platform's answer it was.
    return this.connection.getJson(this.key(key), RatesResponseSchema);
  }
}
