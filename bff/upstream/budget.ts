import type { Redis } from 'ioredis';
import type { RateLimit } from '../../shared/rate-limit.ts';

/** The routes the platform limits separately (spec 8: per store and route). */
export type BudgetRoute = 'rates' | 'tracking';

export type BudgetDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * The store's upstream allowance (spec 8, `SHIPPING_RATE_LIMIT`: 60 calls per 60 s per store and route), spent before
 * every upstream call, so the BFF — all of its instances together, with a shared store — never sends a call the
 * platform would answer with 429. A retry goes only while more than the reserve is left, so retries never eat the
 * calls that visitors' first lookups need.
 */
export interface UpstreamBudget {
  /** Spends one call of the route's allowance, or says how long until one frees. */
  take(route: BudgetRoute): Promise<BudgetDecision>;
  /** Whether a retry on this route leaves the reserve untouched. */
  canRetry(route: BudgetRoute): Promise<boolean>;
}

/** The calls kept for first attempts: a quarter of the limit, unless said. */
function reserveOf(limit: RateLimit, reserve: number | undefined): number {
  return reserve ?? Math.ceil(limit.calls / 4);
}

/** A sliding log of the last window's calls per route, in process memory (one instance). */
export class MemoryBudget implements UpstreamBudget {
  private readonly sent = new Map<BudgetRoute, number[]>();
  private readonly limit: RateLimit;
  private readonly reserve: number;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { reserve?: number; now?: () => number } = {}) {
    this.limit = limit;
    this.reserve = reserveOf(limit, options.reserve);
    this.now = options.now ?? Date.now;
  }

  private log(route: BudgetRoute, now: number): number[] {
    const windowMs = this.limit.seconds * 1000;
    const log = (this.sent.get(route) ?? []).filter((at) => at > now - windowMs);
    this.sent.set(route, log);
    return log;
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    const now = this.now();
    const log = this.log(route, now);
    const oldest = log[0];
    if (log.length >= this.limit.calls && oldest !== undefined) {
      return { ok: false, retryAfterMs: Math.max(1, oldest + this.limit.seconds * 1000 - now) };
    }
    log.push(now);
    return { ok: true };
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    return this.limit.calls - this.log(route, this.now()).length > this.reserve;
  }
}

/**
 * One sliding window in Redis for every instance: the script trims the log, counts and records in one atomic step on
 * the Redis server's clock (the instances' clocks may differ). Each call is a unique member, so two calls in one
 * microsecond both count.
 */
const TAKE = `
local now = redis.call('TIME')
local nowUs = tonumber(now[1]) * 1000000 + tonumber(now[2])
local windowUs = tonumber(ARGV[1]) * 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowUs - windowUs)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], nowUs, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, math.ceil((tonumber(oldest[2]) + windowUs - nowUs) / 1000))
`;

/** Calls sent in the current window. */
const USED = `
local now = redis.call('TIME')
local nowUs = tonumber(now[1]) * 1000000 + tonumber(now[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowUs - tonumber(ARGV[1]) * 1000)
return redis.call('ZCARD', KEYS[1])
`;

let sequence = 0;

export class RedisBudget implements UpstreamBudget {
  private readonly redis: Redis;
  private readonly limit: RateLimit;
  private readonly reserve: number;
  private readonly prefix: string;

  /** `prefix` names the store (never the key itself), e.g. `frete:{<store hash>}`. */
  constructor(options: { redis: Redis; limit: RateLimit; prefix: string; reserve?: number }) {
    this.redis = options.redis;
    this.limit = options.limit;
    this.reserve = reserveOf(options.limit, options.reserve);
    this.prefix = options.prefix;
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${process.pid}:${Date.now()}:${sequence}:${Math.random()}`;
    const windowMs = this.limit.seconds * 1000;
    const waitMs = Number(
      await this.redis.eval(TAKE, 1, `${this.prefix}:budget:${route}`, windowMs, this.limit.calls, member),
    );
    return waitMs === 0 ? { ok: true } : { ok: false, retryAfterMs: waitMs };
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    const used = Number(
      await this.redis.eval(USED, 1, `${this.prefix}:budget:${route}`, this.limit.seconds * 1000),
    );
    return this.limit.calls - used > this.reserve;
  }
}
