import { describe, expect, it } from 'vitest';
import { MemoryCounter, type RateLimit } from '../../shared/windowed-counter.ts';
import { type LaneShares, RouteBudget, routeLimit, watchCalls } from './budget.ts';

/** The budget of one instance: the route policy over a memory counter, on the test's clock. */
function memoryBudget(limit: RateLimit, options: { reserve?: number; now?: () => number } & LaneShares = {}) {
  const { now, ...rest } = options;
  return new RouteBudget(new MemoryCounter(now ? { now } : {}), limit, rest);
}

describe('the upstream budget on one instance', () => {
  it('lets N calls through in any window of the configured length, per route', async () => {
    let now = 1_763_800_000_000;
    const budget = memoryBudget({ calls: 3, seconds: 60 }, { now: () => now });
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
    const budget = memoryBudget({ calls: 60, seconds: 60 }, { now: () => now });
    now += 59_000;
    let passed = 0;
    for (let i = 0; i < 60; i++) if ((await budget.take('tracking')).ok) passed++;
    now += 2_000; // a fixed window would have reset here
    for (let i = 0; i < 60; i++) if ((await budget.take('tracking')).ok) passed++;
    expect(passed).toBe(60);
  });

  it('lets retries go only while more than the reserve is left', async () => {
    const now = 1_763_800_000_000;
    const budget = memoryBudget({ calls: 4, seconds: 60 }, { reserve: 1, now: () => now });
    await budget.take('tracking');
    await budget.take('tracking');
    expect(await budget.canRetry('tracking')).toBe(true);
    await budget.take('tracking');
    expect(await budget.canRetry('tracking')).toBe(false);
    expect(await budget.canRetry('rates')).toBe(true);
  });

  it('keeps the watcher within its share, and the visitors get the rest whatever the watcher does', async () => {
    let now = 1_763_800_000_000;
    const budget = memoryBudget({ calls: 10, seconds: 60 }, { now: () => now, watchShare: 0.2 });
    // The watcher asks for far more than its share: it gets 2 of 10.
    const watcher = await Promise.all(Array.from({ length: 30 }, () => budget.take('tracking-watch')));
    expect(watcher.filter((d) => d.ok)).toHaveLength(2);
    // The visitors still get all 8 of theirs, and never a ninth (the watcher's two are not theirs to take).
    const visitors = await Promise.all(Array.from({ length: 30 }, () => budget.take('tracking')));
    expect(visitors.filter((d) => d.ok)).toHaveLength(8);
    // Together never more than the platform's limit in the window; both lanes free as it slides.
    now += 60_000;
    expect(await budget.take('tracking-watch')).toEqual({ ok: true });
    expect(await budget.take('tracking')).toEqual({ ok: true });
  });

  it('gives the watcher nothing without a share, and rounds its share down', async () => {
    const budget = memoryBudget({ calls: 10, seconds: 60 });
    expect(await budget.take('tracking-watch')).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(watchCalls({ calls: 60, seconds: 60 }, 0.2)).toBe(12);
    expect(watchCalls({ calls: 4, seconds: 60 }, 0.2)).toBe(0);
    expect(watchCalls({ calls: 10, seconds: 60 }, 0.3)).toBe(3);
    expect(routeLimit({ calls: 60, seconds: 60 }, 'tracking', 0.2)).toEqual({ calls: 48, seconds: 60 });
    expect(routeLimit({ calls: 60, seconds: 60 }, 'rates', 0.2)).toEqual({ calls: 60, seconds: 60 });
  });
});
