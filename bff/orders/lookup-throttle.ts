import { LRUCache } from 'lru-cache';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimit } from '../../shared/rate-limit.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import type { RedisConnection } from '../backends/redis.ts';

/** Failed order lookups one visitor may make in 15 minutes, and one order number may be tried with. */
export const LOOKUP_FAILURES = {
  perVisitor: { calls: 10, seconds: 900 },
  perOrder: { calls: 5, seconds: 900 },
} as const satisfies Record<string, RateLimit>;

/** Failures counted per key in a window: `MemoryFailures` here, `RedisFailures` for every instance. */
export interface FailureCounter {
  /** Seconds until the key may try again; 0 when it may now. */
  blockedFor(key: string): Promise<number>;
  fail(key: string): Promise<void>;
}

/** A fixed window per key in a bounded LRU map: at most `maxKeys` keys, the least recently failed forgotten first. */
export class MemoryFailures implements FailureCounter {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>;
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { maxKeys?: number; now?: () => number } = {}) {
    this.limit = limit;
    this.now = options.now ?? Date.now;
    this.windows = new LRUCache({ max: options.maxKeys ?? 50_000 });
  }

  async blockedFor(key: string): Promise<number> {
    const window = this.windows.get(key);
    const now = this.now();
    if (!window || window.endsAt <= now || window.count < this.limit.calls) return 0;
    return Math.max(1, Math.ceil((window.endsAt - now) / 1000));
  }

  async fail(key: string): Promise<void> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      this.windows.set(key, { count: 1, endsAt: now + this.limit.seconds * 1000 });
      return;
    }
    window.count += 1;
  }
}

/** The same count in Redis (rate-limiter-flexible's store), shared by every instance; this instance's own while Redis is away. */
export class RedisFailures implements FailureCounter {
  private readonly limiter: RateLimiterRedis;
  private readonly connection: RedisConnection;
  private readonly local: FailureCounter;
  private readonly limit: RateLimit;

  constructor(connection: RedisConnection, name: string, limit: RateLimit, local: FailureCounter) {
    this.connection = connection;
    this.local = local;
    this.limit = limit;
    this.limiter = new RateLimiterRedis({
      storeClient: connection.commands,
      keyPrefix: `${connection.prefix}:lookup-failures:${name}`,
      points: limit.calls,
      duration: limit.seconds,
    });
  }

  blockedFor(key: string): Promise<number> {
    return this.connection.orLocal(
      async () => {
        const state = await this.limiter.get(key);
        if (!state || state.consumedPoints < this.limit.calls) return 0;
        return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
      },
      () => this.local.blockedFor(key),
    );
  }

  fail(key: string): Promise<void> {
    return this.connection.orLocal(
      async () => {
        await this.limiter.penalty(key, 1);
      },
      () => this.local.fail(key),
    );
  }
}

/**
 * Failed order lookups (an unknown order, or a wrong CEP: the same to the visitor) are counted per visitor and per
 * order number, so neither a visitor guessing many orders nor many visitors guessing one order's CEP get far. Order
 * numbers are counted by their hash: the counters never hold one in clear. Every order number tried counts, known or
 * not, so a 429 tells nothing about whether an order exists.
 */
export class LookupThrottle {
  private readonly visitors: FailureCounter;
  private readonly orders: FailureCounter;

  constructor(counters: { visitors: FailureCounter; orders: FailureCounter }) {
    this.visitors = counters.visitors;
    this.orders = counters.orders;
  }

  /** Seconds to wait before this visitor may look this order up again; 0 when they may now. */
  async blockedFor(visitor: string, orderId: string): Promise<number> {
    const [byVisitor, byOrder] = await Promise.all([
      this.visitors.blockedFor(visitor),
      this.orders.blockedFor(orderKey(orderId)),
    ]);
    return Math.max(byVisitor, byOrder);
  }

  async failed(visitor: string, orderId: string): Promise<void> {
    await Promise.all([this.visitors.fail(visitor), this.orders.fail(orderKey(orderId))]);
  }
}

function orderKey(orderId: string): string {
  return sha256Hex(orderId.trim().toLowerCase());
}
