import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CounterPolicy, MemoryCounter, parseRateLimit, type RateLimit } from './windowed-counter.ts';

/** One limit over a memory counter on the test's clock, as the sandbox's limiter is built. */
function limiterOf(limit: RateLimit, now: () => number) {
  const memory = new MemoryCounter({ now });
  const policy = new CounterPolicy(memory, 'store-route', limit);
  return { take: (key: string) => policy.take(key), memory };
}

/** Far from 0 and not aligned to any window, like a real clock. */
const T0 = 1_763_800_000_123;

/** The most calls admitted within any half-open interval [s, s + windowMs). */
function busiestWindow(admitted: number[], windowMs: number): number {
  const sorted = [...admitted].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe("MemoryCounter, as a limit (the sandbox's spec 8)", () => {
  it('allows `calls` per window per key, then says when to retry', async () => {
    let now = T0;
    const limiter = limiterOf({ calls: 2, seconds: 60 }, () => now);
    expect(await limiter.take('a')).toEqual({ ok: true });
    expect(await limiter.take('a')).toEqual({ ok: true });
    expect(await limiter.take('b')).toEqual({ ok: true });
    now = T0 + 15_000;
    expect(await limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 45 });
    now = T0 + 60_000;
    expect(await limiter.take('a')).toEqual({ ok: true });
  });

  it('lets no more than 60 through in any 60 s across a window edge (a fixed window let 119 through)', async () => {
    let now = T0;
    const limiter = limiterOf({ calls: 60, seconds: 60 }, () => now);
    const admitted: number[] = [];
    const call = async () => {
      if ((await limiter.take('store rates')).ok) admitted.push(now);
    };
    await call(); // opens what a fixed window would take as its start
    now = T0 + 57_500;
    for (let i = 0; i < 59; i++) await call();
    // 2.5 s later the fixed window had restarted and admitted 60 more.
    for (now = T0 + 60_000; now <= T0 + 62_500; now += 50) await call();
    expect(admitted).toHaveLength(61); // the single call at T0 left the window at T0 + 60 s
    expect(busiestWindow(admitted, 60_000)).toBe(60);
  });

  it('never admits more than `calls` in any window, whatever the call times (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 200 }),
        async (calls, seconds, gaps) => {
          let now = T0;
          const limiter = limiterOf({ calls, seconds }, () => now);
          const admitted: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if ((await limiter.take('k')).ok) admitted.push(now);
          }
          return busiestWindow(admitted, seconds * 1000) <= calls;
        },
      ),
      { numRuns: 300 },
    );
    // 300 runs of up to 200 takes is CPU work, not waiting: on a busy machine and under the mutation run's
    // instrumentation it takes seconds, so a minute rather than the 4 s a hanging call gets.
  }, 60_000);

  it('admits again as soon as the oldest call leaves the window, and its Retry-After says when', async () => {
    let now = T0;
    const limiter = limiterOf({ calls: 3, seconds: 10 }, () => now);
    for (const at of [0, 4_000, 8_000]) {
      now = T0 + at;
      expect((await limiter.take('k')).ok).toBe(true);
    }
    now = T0 + 9_000;
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now = T0 + 10_000;
    expect(await limiter.take('k')).toEqual({ ok: true });
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 4 });
  });

  it('admits a limited key again after reset, and only that', async () => {
    const now = T0;
    const limiter = limiterOf({ calls: 1, seconds: 60 }, () => now);
    expect((await limiter.take('k')).ok).toBe(true);
    expect((await limiter.take('k')).ok).toBe(false);
    limiter.memory.clear();
    expect((await limiter.take('k')).ok).toBe(true);
    expect((await limiter.take('k')).ok).toBe(false);
  });

  it('forgets keys whose calls all left the window, so memory stays bounded', async () => {
    let now = T0;
    const limiter = limiterOf({ calls: 1, seconds: 1 }, () => now);
    for (let i = 0; i < 5_000; i++) {
      now += 2_000;
      await limiter.take(`visitor-${i}`);
    }
    expect(limiter.memory.size).toBeLessThan(1_100);
  });

  it('stays exact and fast over a long run with a high limit (the queue compacts)', async () => {
    let now = T0;
    const limiter = limiterOf({ calls: 5_000, seconds: 1 }, () => now);
    const admitted: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      now += 0.1; // 10,000 calls a second against a limit of 5,000
      if ((await limiter.take('k')).ok) admitted.push(now);
    }
    expect(busiestWindow(admitted, 1_000)).toBe(5_000);
    expect(admitted.length).toBeGreaterThan(95_000);
  });
});

describe('the window counter used above', () => {
  it('counts a burst straddling a fixed-window edge, so the checks above can fail', async () => {
    expect(busiestWindow([0, 59_999, 60_000, 60_001], 60_000)).toBe(3);
    expect(busiestWindow([0, 60_000], 60_000)).toBe(1);
  });
});

describe('parseRateLimit', () => {
  it('reads calls/seconds and refuses anything else', async () => {
    expect(parseRateLimit('60/60')).toEqual({ calls: 60, seconds: 60 });
    expect(parseRateLimit('120/60')).toEqual({ calls: 120, seconds: 60 });
    for (const bad of ['60', '0/60', '60/0', 'a/b', '']) expect(parseRateLimit(bad)).toBeUndefined();
  });

  it('takes surrounding spaces but nothing else around the numbers', async () => {
    expect(parseRateLimit(' 60/60 ')).toEqual({ calls: 60, seconds: 60 });
    for (const bad of ['x60/60', '60/60x', '60/60/60', '-60/60', '60 / 60'])
      expect(parseRateLimit(bad)).toBeUndefined();
  });
});
