import type { Redis } from 'ioredis';
import type { RateLimit } from '../../shared/rate-limit.ts';

/** The routes the platform limits separately (spec 8: per store and route). */
export type BudgetRoute = 'rates' | 'tracking';

export type BudgetDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * The store's upstream allowance (spec 8: 60 calls per 60 s per store and route), spent before each upstream call so
 * the BFF — all of its instances together — never sends a call the platform would answer with 429.
 */
export interface UpstreamBudget {
  take(route: BudgetRoute): Promise<BudgetDecision>;
}

/** A sliding log of the calls of the last window, per route, in process memory (one instance). */
export class MemoryBudget implements UpstreamBudget {
  private readonly sent = new Map<BudgetRoute, number[]>();
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.limit = limit;
    this.now = now;
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    const now = this.now();
    const windowMs = this.limit.seconds * 1000;
    const log = (this.sent.get(route) ?? []).filter((at) => at > now - windowMs);
    this.sent.set(route, log);
    const oldest = log[0];
    if (log.length >= this.limit.calls && oldest !== undefined) {
      return { ok: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    log.push(now);
    return { ok: true };
  }
}

/**
 * One sliding window in Redis for every instance: the script trims the log, counts and records in one atomic step, on
 * the Redis server's clock (instances' clocks may differ). A member is unique per call so two calls in one
 * microsecond both count.
 */
const TAKE = `
local now = redis.call('TIME')
local nowUs = tonumber(now[1]) * 1000000 + tonumber(now[2])
local windowUs = tonumber(ARGV[1]) * 1000
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowUs - windowUs)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], nowUs, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, math.ceil((tonumber(oldest[2]) + windowUs - nowUs) / 1000))
`;

let sequence = 0;

export class RedisBudget implements UpstreamBudget {
  private readonly redis: Redis;
  private readonly limit: RateLimit;
  private readonly prefix: string;

  /** `prefix` names the store (never the key itself): e.g. `frete:<store hash>:budget`. */
  constructor(options: { redis: Redis; limit: RateLimit; prefix: string }) {
    this.redis = options.redis;
    this.limit = options.limit;
    this.prefix = options.prefix;
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${process.pid}:${Date.now()}:${sequence}:${Math.random()}`;
    const waitMs = Number(
      await this.redis.eval(
        TAKE,
        1,
        `${this.prefix}:${route}`,
        this.limit.seconds * 1000,
        this.limit.calls,
        member,
      ),
    );
    return waitMs === 0 ? { ok: true } : { ok: false, retryAfterMs: waitMs };
  }
}
