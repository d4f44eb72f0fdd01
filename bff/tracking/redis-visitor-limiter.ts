import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitDecision, RateLimit } from '../../shared/rate-limiter.ts';
import type { RedisConnection } from '../backends/redis.ts';
import type { MemoryVisitorLimiter, VisitorLimiter } from './visitor-limiter.ts';

/**
 * One visitor limit for every instance: rate-limiter-flexible's Redis store (a window per visitor key that Redis
 * expires). While Redis does not answer, this instance's own limiter takes over, so an outage never blocks visitors
 * and never lifts the limit.
 */
export class RedisVisitorLimiter implements VisitorLimiter {
  private readonly limiter: RateLimiterRedis;
  private readonly connection: RedisConnection;
  private readonly local: MemoryVisitorLimiter;

  constructor(
    connection: RedisConnection,
    limit: RateLimit,
    local: MemoryVisitorLimiter,
    /** What the limit counts, in its keys: `visitor` (lookups), `share` (lookups that reach the platform). */
    name = 'visitor',
  ) {
    this.connection = connection;
    this.local = local;
    this.limiter = new RateLimiterRedis({
      storeClient: connection.commands,
      keyPrefix: `${connection.prefix}:${name}`,
      points: limit.calls,
      duration: limit.seconds,
    });
  }

  take(key: string): Promise<LimitDecision> {
    return this.connection.orLocal(
      () => this.consume(key),
      () => this.local.take(key),
    );
  }

  /** One point; a refusal of the limiter is a decision, any other failure (Redis down) is thrown to `orLocal`. */
  private async consume(key: string): Promise<LimitDecision> {
    try {
      await this.limiter.consume(key);
      return { ok: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }
}
