import { describe, expect, it } from 'vitest';
import { MemoryBudget } from './budget.ts';

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
