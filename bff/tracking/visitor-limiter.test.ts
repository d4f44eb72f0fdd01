import { describe, expect, it } from 'vitest';
import { addressKey, MemoryVisitorLimiter } from './visitor-limiter.ts';

const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('MemoryVisitorLimiter', () => {
  it('allows the configured calls per window, then answers a retry delay', async () => {
    const limiter = new MemoryVisitorLimiter({ calls: 2, seconds: 60 });
    const decisions = [await limiter.take('a'), await limiter.take('a'), await limiter.take('a')];
    expect(decisions.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(decisions[2]).toMatchObject({ ok: false });
    expect((decisions[2] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50);
    expect(await limiter.take('b')).toEqual({ ok: true });
  });

  it('tells a limited visitor to retry when the window ends, in whole seconds, never 0', async () => {
    const limiter = new MemoryVisitorLimiter({ calls: 1, seconds: 60 });
    await limiter.take('a');
    const limited = await limiter.take('a');
    expect(limited).toEqual({ ok: false, retryAfterSeconds: 60 });
    const short = new MemoryVisitorLimiter({ calls: 1, seconds: 1 });
    await short.take('a');
    expect(await short.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('holds at most maxKeys visitors after 20,000 distinct ones, and a brand-new shopper still gets a full window', async () => {
    const limiter = new MemoryVisitorLimiter({ calls: 5, seconds: 60 }, { maxKeys: 1000 });
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
    const limiter = new MemoryVisitorLimiter({ calls: 2, seconds: 60 }, { maxKeys: 3 });
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
    const limiter = new MemoryVisitorLimiter({ calls: 1, seconds: 60 }, { now: () => now });
    expect(await limiter.take('a')).toEqual({ ok: true });
    now += 59_500;
    expect(await limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 500;
    expect(await limiter.take('a')).toEqual({ ok: true });
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, folds IPv6 to its /64 and refuses anything else', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('not-an-ip')).toBeUndefined();
    expect(addressKey('203.0.113.7, 10.0.0.1')).toBeUndefined();
    expect(addressKey('')).toBeUndefined();
  });

  it('unwraps only a whole IPv4-mapped address, in either case, with any octet widths', () => {
    expect(addressKey('::FFFF:198.51.100.23')).toBe('198.51.100.23');
    // an IPv6 address that merely ends in a dotted quad is a /64 like any other
    expect(addressKey('2001:db8::ffff:203.0.113.7')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:203.0.113.7/24')).toBeUndefined();
    expect(addressKey('::ffff:999.1.1.1')).toBeUndefined();
  });

  it('expands a compressed IPv6 address in the right place before taking its /64', () => {
    expect(addressKey('2001::2:3:4:5:6:7')).toBe('2001:0:2:3::/64');
    expect(addressKey('2001:db8:a::1')).toBe('2001:db8:a:0::/64');
    expect(addressKey('2001:DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
  });
});
