import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounter, type RateLimit } from '../../shared/windowed-counter.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { RedisCounter } from '../backends/redis-counter.ts';
import { redisConnection } from '../backends/testing.ts';
import { RouteBudget } from './budget.ts';

describe('the upstream budget on Redis (real redis-server)', () => {
  let server: RedisServer;
  const connections: RedisConnection[] = [];
  /** The budget of one store (by its secret key) on one more instance, with its own local fallback. */
  const budgetOf = async (secretKey: string, limit: RateLimit, reserve?: number) => {
    const connection = await redisConnection(server.url, secretKey);
    connections.push(connection);
    const counter = new RedisCounter(connection, new MemoryCounter());
    return new RouteBudget(counter, limit, reserve === undefined ? {} : { reserve });
  };

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await server?.close();
  });

  it('lets exactly the limit through across three instances taking at once', async () => {
    const limit = { calls: 7, seconds: 60 };
    const budgets = await Promise.all([0, 1, 2].map(() => budgetOf('mk_a', limit)));
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, i) => budgets[i % 3]?.take('tracking')),
    );
    expect(decisions.filter((d) => d?.ok)).toHaveLength(7);
    const refused = decisions.find((d) => d && !d.ok);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(59_000);
    // Another route and another store have their own allowance.
    expect(await budgets[0]?.take('rates')).toEqual({ ok: true });
    expect(await (await budgetOf('mk_b', limit)).take('tracking')).toEqual({ ok: true });
  });

  it('frees the allowance as the window slides', async () => {
    const budget = await budgetOf('mk_c', { calls: 2, seconds: 1 }, 0);
    expect((await budget.take('tracking')).ok).toBe(true);
    expect(await budget.canRetry('tracking')).toBe(true);
    expect((await budget.take('tracking')).ok).toBe(true);
    expect(await budget.canRetry('tracking')).toBe(false);
    const refused = await budget.take('tracking');
    expect(refused.ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, refused.ok ? 0 : refused.retryAfterMs + 20));
    expect((await budget.take('tracking')).ok).toBe(true);
  });

  it('splits the tracking route between visitors and the watcher across instances', async () => {
    const limit = { calls: 10, seconds: 60 };
    const budgets = await Promise.all(
      [0, 1].map(async () => {
        const connection = await redisConnection(server.url, 'mk_watch');
        connections.push(connection);
        return new RouteBudget(new RedisCounter(connection, new MemoryCounter()), limit, { watchShare: 0.3 });
      }),
    );
    const watcher = await Promise.all(
      Array.from({ length: 20 }, (_, i) => budgets[i % 2]?.take('tracking-watch')),
    );
    const visitors = await Promise.all(
      Array.from({ length: 20 }, (_, i) => budgets[i % 2]?.take('tracking')),
    );
    expect(watcher.filter((d) => d?.ok)).toHaveLength(3);
    expect(visitors.filter((d) => d?.ok)).toHaveLength(7);
  });
});
