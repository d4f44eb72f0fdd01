import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { LimitDecision, RateLimit } from '../../shared/rate-limiter.ts';
import { senderKey } from '../../shared/security/address.ts';
import { rateLimited } from '../http/errors.ts';

/**
 * The per-visitor limit of the tracking API: `MemoryVisitorLimiter` in this process, or `RedisVisitorLimiter`
 * (redis-visitor-limiter.ts) shared by every instance.
 */
export interface VisitorLimiter {
  take(key: string): Promise<LimitDecision>;
}

/**
 * A fixed window per visitor in a bounded LRU map (lru-cache): memory follows the visitors of the last window and
 * never holds more than `maxKeys` of them. A flood of new addresses pushes out the least recently seen visitors —
 * who start a fresh window if they come back — and never puts newcomers into one shared bucket, so no flood can
 * lock a new shopper out.
 */
export class MemoryVisitorLimiter implements VisitorLimiter {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>;
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { maxKeys?: number; now?: () => number } = {}) {
    this.limit = limit;
    this.now = options.now ?? Date.now;
    this.windows = new LRUCache({ max: options.maxKeys ?? 50_000 });
  }

  /** Visitors held right now. */
  get size(): number {
    return this.windows.size;
  }

  async take(key: string): Promise<LimitDecision> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.limit.seconds * 1000 };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit.calls) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.count += 1;
    return { ok: true };
  }
}

/**
 * Takes one of the visitor's lookups, or answers `rate_limited` with `Retry-After` (the tracking and order APIs). The
 * visitor is its `senderKey`: an IP address as far as `trust proxy` allows, an IPv6 address by its /64.
 */
export function limitVisitors(limiter: VisitorLimiter): RequestHandler {
  return async (req, res, next) => {
    const decision = await limiter.take(senderKey(req));
    if (decision.ok) return next();
    const wait = decision.retryAfterSeconds;
    throw rateLimited(res, wait, `Too many lookups; retry in ${wait} s.`);
  };
}
