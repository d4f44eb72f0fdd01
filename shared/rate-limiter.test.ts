import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimiter } from './rate-limiter.ts';

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

describe('RateLimiter', () => {
  it('allows `calls` per window per key, then says when to retry', () => {
    let now = T0;
    const limiter = new RateLimiter({ calls: 2, seconds: 60 }, () => now);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    now = T0 + 15_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 45 });
    now = T0 + 60_000;
    expect(limiter.take('a')).toEqual({ ok: true });
  });

  it('lets no more than 60 through in any 60 s across a window edge (a fixed window let 119 through)', () => {
    let now = T0;
    const limiter = new RateLimiter({ calls: 60, seconds: 60 }, () => now);
    const admitted: number[] = [];
    const call = () => {
      if (limiter.take('store rates').ok) admitted.push(now);
    };
    call(); // opens what a fixed window would take as its start
    now = T0 + 57_500;
    for (let i = 0; i < 59; i++) call();
    // 2.5 s later the fixed window had restarted and admitted 60 more.
    for (now = T0 + 60_000; now <= T0 + 62_500; now += 50) call();
    expect(admitted).toHaveLength(61); // the single call at T0 left the window at T0 + 60 s
    expect(busiestWindow(admitted, 60_000)).toBe(60);
  });

  it('never admits more than `calls` in any window, whatever the call times (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 200 }),
        (calls, seconds, gaps) => {
          let now = T0;
          const limiter = new RateLimiter({ calls, seconds }, () => now);
          const admitted: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if (limiter.take('k').ok) admitted.push(now);
          }
          return busiestWindow(admitted, seconds * 1000) <= calls;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('admits again as soon as the oldest call leaves the window, and its Retry-After says when', () => {
    let now = T0;
    const limiter = new RateLimiter({ calls: 3, seconds: 10 }, () => now);
    for (const at of [0, 4_000, 8_000]) {
      now = T0 + at;
      expect(limiter.take('k').ok).toBe(true);
    }
    now = T0 + 9_000;
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now = T0 + 10_000;
    expect(limiter.take('k')).toEqual({ ok: true });
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 4 });
  });

  it('admits a limited key again after reset, and only that', () => {
    const now = T0;
    const limiter = new RateLimiter({ calls: 1, seconds: 60 }, () => now);
    expect(limiter.take('k').ok).toBe(true);
    expect(limiter.take('k').ok).toBe(false);
    limiter.reset();
    expect(limiter.take('k').ok).toBe(true);
    expect(limiter.take('k').ok).toBe(false);
  });

  it('forgets keys whose calls all left the window, so memory stays bounded', () => {
    let now = T0;
    const limiter = new RateLimiter({ calls: 1, seconds: 1 }, () => now);
    for (let i = 0; i < 5_000; i++) {
      now += 2_000;
      limiter.take(`visitor-${i}`);
    }
    const logs = (limiter as unknown as { logs: Map<string, unknown> }).logs;
    expect(logs.size).toBeLessThan(1_100);
  });

  it('stays exact and fast over a long run with a high limit (the queue compacts)', () => {
    let now = T0;
    const limiter = new RateLimiter({ calls: 5_000, seconds: 1 }, () => now);
    const admitted: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      now += 0.1; // 10,000 calls a second against a limit of 5,000
      if (limiter.take('k').ok) admitted.push(now);
    }
    expect(busiestWindow(admitted, 1_000)).toBe(5_000);
    expect(admitted.length).toBeGreaterThan(95_000);
  });
});

describe('the window counter used above', () => {
  it('counts a burst straddling a fixed-window edge, so the checks above can fail', () => {
    expect(busiestWindow([0, 59_999, 60_000, 60_001], 60_000)).toBe(3);
    expect(busiestWindow([0, 60_000], 60_000)).toBe(1);
  });
});

describe('parseRateLimit', () => {
  it('reads calls/seconds and refuses anything else', () => {
    expect(parseRateLimit('60/60')).toEqual({ calls: 60, seconds: 60 });
    expect(parseRateLimit('120/60')).toEqual({ calls: 120, seconds: 60 });
    for (const bad of ['60', '0/60', '60/0', 'a/b', '']) expect(parseRateLimit(bad)).toBeUndefined();
  });

  it('takes surrounding spaces but nothing else around the numbers', () => {
    expect(parseRateLimit(' 60/60 ')).toEqual({ calls: 60, seconds: 60 });
    for (const bad of ['x60/60', '60/60x', '60/60/60', '-60/60', '60 / 60'])
      expect(parseRateLimit(bad)).toBeUndefined();
  });
});
