import type { RateLimit, WindowDecision, WindowedCounter } from '../../shared/windowed-counter.ts';
import type { RedisConnection } from './redis.ts';

/**
 * The windowed counter in one atomic step: a sorted set of hits per key (score: the hit's time in ms, member: unique),
 * trimmed to the window, then counted and taken (`take`), counted (`count`), or one named hit removed (`release`); `wait` answers as `take` without counting. Time is ARGV[4], or
 * the Redis server's own clock when it is negative (the instances' clocks may differ); ARGV[5] is the hit. `take`
 * answers `{1}` when counted, `{0, ms}` with the wait when refused; `count` the count.
 */
const COUNT = `
if ARGV[1] == 'release' then return {redis.call('ZREM', KEYS[1], ARGV[5])} end
local windowMs = tonumber(ARGV[2])
local calls = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local held = redis.call('ZCARD', KEYS[1])
if ARGV[1] == 'count' then return {held} end
if held < calls then
  if ARGV[1] == 'wait' then return {1, 0} end
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[1], windowMs)
  return {1}
end
if calls == 0 then return {0, windowMs} end
local leaving = redis.call('ZRANGE', KEYS[1], held - calls, held - calls, 'WITHSCORES')
return {0, math.max(1, tonumber(leaving[2]) + windowMs - now)}
`;

let sequence = 0;

/**
 * The windowed counter of every instance together (`BFF_REDIS_URL`); this instance's own (`local`) while Redis does not
 * answer, so an outage never blocks anyone and never lifts a limit. Keys live under the store's prefix and `count:`.
 */
export class RedisCounter implements WindowedCounter {
  private readonly connection: RedisConnection;
  private readonly local: WindowedCounter;
  private readonly now: (() => number) | undefined;

  /** `now`: a test's clock; without it, Redis's own. */
  constructor(connection: RedisConnection, local: WindowedCounter, now?: () => number) {
    this.connection = connection;
    this.local = local;
    this.now = now;
  }

  private run(
    op: 'take' | 'release' | 'count' | 'wait',
    key: string,
    limit: RateLimit,
    hit?: string,
  ): Promise<number[]> {
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = hit ?? `${process.pid}:${sequence}:${Math.random()}`;
    const args = [op, limit.seconds * 1000, limit.calls, this.now?.() ?? -1, member];
    return this.connection.commands.eval(
      COUNT,
      1,
      `${this.connection.prefix}:count:${key}`,
      ...args,
    ) as Promise<number[]>;
  }

  take(key: string, limit: RateLimit, hit?: string): Promise<WindowDecision> {
    return this.connection.orLocal(
      async (): Promise<WindowDecision> => {
        const [counted, waitMs] = await this.run('take', key, limit, hit);
        if (counted === 1) return { ok: true };
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(waitMs) / 1000)) };
      },
      () => this.local.take(key, limit, hit),
    );
  }

  release(key: string, hit: string): Promise<void> {
    return this.connection.orLocal(
      async () => void (await this.run('release', key, { calls: 0, seconds: 0 }, hit)),
      // Redis gone meanwhile: the hit stays counted there, or was counted here.
      () => this.local.release(key, hit),
    );
  }

  count(key: string, limit: RateLimit): Promise<number> {
    return this.connection.orLocal(
      async () => Number((await this.run('count', key, limit))[0]),
      () => this.local.count(key, limit),
    );
  }

  wait(key: string, limit: RateLimit): Promise<number> {
    return this.connection.orLocal(
      async () => Number((await this.run('wait', key, limit))[1]),
      () => this.local.wait(key, limit),
    );
  }
}
