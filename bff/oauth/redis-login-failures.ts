import {
  type FailureCount,
  type FailureRule,
  type LoginFailures,
  MemoryLoginFailures,
} from '../../shared/oauth/login-failures.ts';
import type { RedisConnection } from '../backends/redis.ts';

/** `nextCount` (shared/oauth/login-failures.ts) in one atomic step; Redis expires the key when its window ends. */
const ADD = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local extendFrom = tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 'count', 'until')
local count = tonumber(held[1])
local untilAt = tonumber(held[2])
if (not count) or (not untilAt) or untilAt <= now then
  count = 1
  untilAt = now + window
else
  count = count + 1
  if count >= extendFrom then untilAt = now + window end
end
redis.call('HSET', KEYS[1], 'count', count, 'last', now, 'until', untilAt)
redis.call('PEXPIRE', KEYS[1], math.max(1, untilAt - now))
return {count, now, untilAt}
`;

const RELEASE = `
local held = redis.call('HMGET', KEYS[1], 'count', 'until')
if tonumber(held[1]) and tonumber(held[1]) > 0 and tonumber(held[2]) > tonumber(ARGV[1]) then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0
`;

/**
 * Failed logins counted in the BFF's Redis (`BFF_REDIS_URL`), so every instance sees every failure; this instance's
 * memory while Redis does not answer (then each instance counts alone, as for the visitor limit).
 */
export class RedisLoginFailures implements LoginFailures {
  private readonly connection: RedisConnection;
  private readonly local: MemoryLoginFailures;

  constructor(connection: RedisConnection, local = new MemoryLoginFailures()) {
    this.connection = connection;
    this.local = local;
  }

  private key(key: string): string {
    return `${this.connection.prefix}:login:${key}`;
  }

  get(key: string, now: number): Promise<FailureCount | undefined> {
    return this.connection.orLocal(
      async () => {
        const [count, last, until] = await this.connection.commands.hmget(
          this.key(key),
          'count',
          'last',
          'until',
        );
        if (count === null || until === null || Number(until) <= now) return undefined;
        return { count: Number(count), last: Number(last), until: Number(until) };
      },
      () => this.local.get(key, now),
    );
  }

  add(key: string, now: number, rule: FailureRule): Promise<FailureCount> {
    return this.connection.orLocal(
      async () => {
        const [count, last, until] = (await this.connection.commands.eval(
          ADD,
          1,
          this.key(key),
          now,
          rule.windowMs,
          rule.extendFrom,
        )) as number[];
        return { count: Number(count), last: Number(last), until: Number(until) };
      },
      () => this.local.add(key, now, rule),
    );
  }

  release(key: string, now: number): Promise<void> {
    return this.connection.orLocal(
      async () => void (await this.connection.commands.eval(RELEASE, 1, this.key(key), now)),
      () => this.local.release(key, now),
    );
  }

  clear(key: string): Promise<void> {
    return this.connection.orLocal(
      async () => void (await this.connection.commands.del(this.key(key))),
      () => this.local.clear(key),
    );
  }

  async clearAll(): Promise<void> {
    await this.local.clearAll();
    await this.connection.orLocal(
      async () => {
        const keys = await this.connection.commands.keys(`${this.connection.prefix}:login:*`);
        if (keys.length > 0) await this.connection.commands.del(...keys);
      },
      () => undefined,
    );
  }
}
