import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { redisConnection } from '../backends/testing.ts';
import { LookupThrottle, MemoryFailures, RedisFailures } from './lookup-throttle.ts';

const limit = { calls: 3, seconds: 900 };

describe('LookupThrottle', () => {
  it('blocks a visitor after its failures, and an order after its own, each for the rest of the window', async () => {
    let now = 1_763_800_000_000;
    const throttle = new LookupThrottle({
      visitors: new MemoryFailures(limit, { now: () => now }),
      orders: new MemoryFailures({ calls: 2, seconds: 900 }, { now: () => now }),
    });
    await throttle.failed('v1', 'A-1');
    await throttle.failed('v2', 'A-1');
    // The order: 2 failures from two visitors; its number in another case is the same order.
    expect(await throttle.blockedFor('v3', 'a-1')).toBe(900);
    expect(await throttle.blockedFor('v3', 'B-2')).toBe(0);
    await throttle.failed('v1', 'C-1');
    await throttle.failed('v1', 'D-1');
    expect(await throttle.blockedFor('v1', 'E-1')).toBe(900);
    now += 900_000;
    expect(await throttle.blockedFor('v1', 'A-1')).toBe(0);
  });

  describe('in Redis (real redis-server), shared by instances', () => {
    let server: RedisServer;
    const connections: RedisConnection[] = [];
    beforeAll(async () => {
      server = await startRedis();
    });
    afterAll(async () => {
      for (const connection of connections) connection.close();
      await server?.close();
    });

    it('counts the failures of every instance together, and falls back to its own count when Redis is away', async () => {
      const counters = await Promise.all(
        [0, 1, 2].map(async () => {
          const connection = await redisConnection(server.url, 'mk_lookup');
          connections.push(connection);
          return new RedisFailures(connection, 'visitor', limit, new MemoryFailures(limit));
        }),
      );
      for (const counter of counters) await counter.fail('203.0.113.7');
      for (const counter of counters) expect(await counter.blockedFor('203.0.113.7')).toBeGreaterThan(890);
      expect(await counters[0]?.blockedFor('198.51.100.1')).toBe(0);
      await server.stop();
      await counters[0]?.fail('192.0.2.1');
      expect(await counters[0]?.blockedFor('192.0.2.1')).toBe(0);
      await server.start();
    });
  });
});
