import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimit } from '../../shared/rate-limit.ts';

/**
 * The store's calls per route this window (spec 8: `SHIPPING_RATE_LIMIT`, per store and route), as this process
 * spends them. First attempts always go (the platform decides with 429); a retry goes only while more than `reserve`
 * calls are left, so retries never eat the quota that visitors' first lookups need. In process memory: the
 * multi-instance issue shares it through Redis behind the same two methods.
 */
export class UpstreamBudget {
  private readonly limiter: RateLimiterMemory;
  private readonly calls: number;
  private readonly reserve: number;

  constructor(limit: RateLimit, options: { reserve?: number } = {}) {
    this.limiter = new RateLimiterMemory({ points: limit.calls, duration: limit.seconds });
    this.calls = limit.calls;
    this.reserve = options.reserve ?? Math.ceil(limit.calls / 4);
  }

  /** Counts one call on a route (whether or not it was within the limit). */
  async spend(route: string): Promise<void> {
    await this.limiter.consume(route).catch(() => undefined);
  }

  /** Whether a retry on this route leaves the reserve untouched. */
  async canRetry(route: string): Promise<boolean> {
    const used = (await this.limiter.get(route))?.consumedPoints ?? 0;
    return this.calls - used > this.reserve;
  }
}
