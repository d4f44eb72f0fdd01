import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../cluster/test-servers.ts';
import { MemoryBudget, RedisBudget } from './budget.ts';

describe('MemoryBudget', () => {
  it('lets N calls through in any window of the configured length, per route', async () => {
    let now = 1_763_800_000_000;
    const budget = new MemoryBudget({ calls: 3, seconds: 60 }, { now: () => now });
    for (let i = 0; i < 3; i++) expect(await budget.take('tracking')).toEqual({ ok: true });
    expect(await budget.take('tracking')).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(await budget.take('rates')).toEqual({ ok: true });
    now += 59_999;
    expect(await budget.take('tracking')).toEqual({ ok: false, retryAfterMs: 1 });
    now += 1;
    expect(await budget.take('tracking')).toEqual({ ok: true });
  });

  it('is a sliding window: calls spread across a window edge never exceed the limit in 60 s', async () => {
    let now = 1_763_800_000_000;
    const budget = new MemoryBudget({ calls: 60, seconds: 60 }, { now: () => now });
    now += 59_000;
    let passed = 0;
    for (let i = 0; i < 60; i++) if ((await budget.take('tracking')).ok) passed++;
    now += 2_000; // a fixed window would have reset here
    for (let i = 0; i < 60; i++) if ((await budget.take('tracking')).ok) passed++;
    expect(passed).toBe(60);
  });

  it('lets retries go only while more than the reserve is left', async () => {
    const now = 1_763_800_000_000;
    const budget = new MemoryBudget({ calls: 4, seconds: 60 }, { reserve: 1, now: () => now });
    await budget.take('tracking');
    await budget.take('tracking');
    expect(await budget.canRetry('tracking')).toBe(true);
    await budget.take('tracking');
    expect(await budget.canRetry('tracking')).toBe(false);
    expect(await budget.canRetry('rates')).toBe(true);
  });
});

describe('RedisBudget (real redis-server)', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis(server.url);
    clients.push(redis);
    return redis;
  };

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await server?.close();
  });

  it('lets exactly the limit through across three instances taking at once', async () => {
    const limit = { calls: 7, seconds: 60 };
    const budgets = [0, 1, 2].map(() => new RedisBudget({ redis: client(), limit, prefix: 'test:a' }));
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, i) => budgets[i % 3]?.take('tracking')),
    );
    expect(decisions.filter((d) => d?.ok)).toHaveLength(7);
    const refused = decisions.find((d) => d && !d.ok);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(59_000);
    // Another route and another store have their own allowance.
    expect(await budgets[0]?.take('rates')).toEqual({ ok: true });
    expect(await new RedisBudget({ redis: client(), limit, prefix: 'test:b' }).take('tracking')).toEqual({
      ok: true,
    });
  });

  it('frees the allowance as the window slides', async () => {
    const budget = new RedisBudget({
      redis: client(),
      limit: { calls: 2, seconds: 1 },
      prefix: 'test:c',
      reserve: 0,
    });
    expect((await budget.take('tracking')).ok).toBe(true);
    expect(await budget.canRetry('tracking')).toBe(true);
    expect((await budget.take('tracking')).ok).toBe(true);
    expect(await budget.canRetry('tracking')).toBe(false);
    const refused = await budget.take('tracking');
    expect(refused.ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, refused.ok ? 0 : refused.retryAfterMs + 20));
    expect((await budget.take('tracking')).ok).toBe(true);
  });
});
