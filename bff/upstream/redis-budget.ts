import type { RateLimit } from '../../shared/windowed-counter.ts';
import type { RedisConnection } from '../backends/redis.ts';
import {
  type BudgetDecision,
  type BudgetRoute,
  type LaneShares,
  reserveOf,
  routeLimit,
  type UpstreamBudget,
} from './budget.ts';

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

/**
 * The upstream budget of all instances together (`BFF_REDIS_URL`); this instance's own (`local`) while Redis does not
 * answer.
 */
export class RedisBudget implements UpstreamBudget {
  private readonly connection: RedisConnection;
  private readonly local: UpstreamBudget;
  private readonly limit: RateLimit;
  private readonly reserve: number | undefined;
  private readonly shares: LaneShares;

  /** `watchShare` and `browserShare`: the parts of the limit kept out of their lanes (see `routeLimit`). */
  constructor(
    options: {
      connection: RedisConnection;
      limit: RateLimit;
      local: UpstreamBudget;
      reserve?: number;
    } & LaneShares,
  ) {
    this.connection = options.connection;
    this.local = options.local;
    this.limit = options.limit;
    this.reserve = options.reserve;
    this.shares = options;
  }

  private lane(route: BudgetRoute): RateLimit {
    return routeLimit(this.limit, route, this.shares.watchShare, this.shares.browserShare);
  }

  private key(route: BudgetRoute): string {
    return `${this.connection.prefix}:budget:${route}`;
  }

  take(route: BudgetRoute): Promise<BudgetDecision> {
    return this.connection.orLocal(
      () => this.takeShared(route),
      () => this.local.take(route),
    );
  }

  canRetry(route: BudgetRoute): Promise<boolean> {
    return this.connection.orLocal(
      () =>
        this.usedShared(route).then((used) => {
          const limit = this.lane(route);
          return limit.calls - used > reserveOf(limit, this.reserve);
        }),
      () => this.local.canRetry(route),
    );
  }

  private async takeShared(route: BudgetRoute): Promise<BudgetDecision> {
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${process.pid}:${Date.now()}:${sequence}:${Math.random()}`;
    const { calls, seconds } = this.lane(route);
    const windowMs = seconds * 1000;
    if (calls === 0) return { ok: false, retryAfterMs: windowMs };
    const waitMs = Number(
      await this.connection.commands.eval(TAKE, 1, this.key(route), windowMs, calls, member),
    );
    return waitMs === 0 ? { ok: true } : { ok: false, retryAfterMs: waitMs };
  }

  private async usedShared(route: BudgetRoute): Promise<number> {
    return Number(await this.connection.commands.eval(USED, 1, this.key(route), this.limit.seconds * 1000));
  }
}
