import { describe, expect, it } from 'vitest';
import { CounterPolicy, MemoryCounter, type RateLimit } from '../../shared/windowed-counter.ts';

/** The visitor limit as the BFF builds it on one instance: a policy over the memory counter. */
function visitorLimit(limit: RateLimit, options: { maxKeys?: number; now?: () => number } = {}) {
  const counter = new MemoryCounter(options);
  const policy = new CounterPolicy(counter, 'visitor', limit);
  return {
    take: (key: string) => policy.take(key),
    get size() {
      return counter.size;
    },
  };
}

const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('the visitor limit on one instance', () => {
  it('allows the configured calls per window, then answers a retry delay', async () => {
    const limiter = visitorLimit({ calls: 2, seconds: 60 });
    const decisions = [await limiter.take('a'), await limiter.take('a'), await limiter.take('a')];
    expect(decisions.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(decisions[2]).toMatchObject({ ok: false });
    expect((decisions[2] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50);
    expect(await limiter.take('b')).toEqual({ ok: true });
  });

  it('tells a limited visitor to retry when the window ends, in whole seconds, never 0', async () => {
    const limiter = visitorLimit({ calls: 1, seconds: 60 });
    await limiter.take('a');
    const limited = await limiter.take('a');
    expect(limited).toEqual({ ok: false, retryAfterSeconds: 60 });
    const short = visitorLimit({ calls: 1, seconds: 1 });
    await short.take('a');
    expect(await short.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('holds at most maxKeys visitors after 20,000 distinct ones, and a brand-new shopper still gets a full window', async () => {
    const limiter = visitorLimit({ calls: 5, seconds: 60 }, { maxKeys: 1000 });
    // A flood of 20,000 addresses, each spending its whole window.
    for (let i = 0; i < 20_000; i++) for (let j = 0; j < 6; j++) await limiter.take(ipv4(i));
    expect(limiter.size).toBe(1000);
    // Today's shopper, never seen: five calls go through, as for anyone (no shared bucket for newcomers).
    const shopper = '203.0.113.7';
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.take(shopper));
    expect(decisions.filter((d) => d.ok)).toHaveLength(5);
    // The most recent of the flood are still counted: the limit is not lifted for them.
    expect((await limiter.take(ipv4(19_999))).ok).toBe(false);
  });

  it('forgets the least recently seen visitor first, not the one that keeps coming', async () => {
    const limiter = visitorLimit({ calls: 2, seconds: 60 }, { maxKeys: 3 });
    await limiter.take('regular');
    await limiter.take('regular');
    for (const passer of ['a', 'b', 'c', 'd']) {
      await limiter.take(passer);
      // The regular visitor comes back between passers-by: still limited, so still remembered.
      expect(await limiter.take('regular')).toMatchObject({ ok: false });
    }
    expect(limiter.size).toBe(3);
  });

  it('starts a new window when the old one ends (on the clock it is given)', async () => {
    let now = 1_763_800_000_000;
    const limiter = visitorLimit({ calls: 1, seconds: 60 }, { now: () => now });
    expect(await limiter.take('a')).toEqual({ ok: true });
    now += 59_500;
    expect(await limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 500;
    expect(await limiter.take('a')).toEqual({ ok: true });
  });
});
