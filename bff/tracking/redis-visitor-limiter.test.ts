import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CounterPolicy, MemoryCounter } from '../../shared/windowed-counter.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { RedisCounter } from '../backends/redis-counter.ts';
import { redisConnection } from '../backends/testing.ts';

describe('the visitor limit on Redis (real redis-server)', () => {
  let server: RedisServer;
  const connections: RedisConnection[] = [];
  const limit = { calls: 5, seconds: 60 };
  /** The limiter of one more BFF instance of the store, with its own local fallback. */
  const instance = async () => {
    const connection = await redisConnection(server.url);
    connections.push(connection);
    return new CounterPolicy(new RedisCounter(connection, new MemoryCounter()), 'visitor', limit);
  };

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await server?.close();
  });

  it('holds one limit across three instances, and tells when to come back', async () => {
    const limiters = await Promise.all([instance(), instance(), instance()]);
    const decisions = [];
    for (let i = 0; i < 9; i++) decisions.push(await (limiters[i % 3] as CounterPolicy).take('198.51.100.1'));
    expect(decisions.filter((d) => d.ok)).toHaveLength(5);
    expect(decisions.at(-1)).toMatchObject({ ok: false });
    expect((decisions.at(-1) as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50);
    expect(await (limiters[0] as CounterPolicy).take('198.51.100.2')).toEqual({ ok: true });
  });

  it('falls back to this instance’s own limit while Redis is down: visitors are served, and still limited', async () => {
    const limiter = await instance();
    await server.stop();
    try {
      const decisions = [];
      for (let i = 0; i < 7; i++) decisions.push(await limiter.take('198.51.100.3'));
      expect(decisions.filter((d) => d.ok)).toHaveLength(5);
    } finally {
      await server.start();
    }
  });
});
