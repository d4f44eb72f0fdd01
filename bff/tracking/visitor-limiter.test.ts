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

  it('holds at most maxKeys keys after 20,000 distinct visitors; the flood shares one bucket', async () => {
    const limiter = new MemoryVisitorLimiter({ calls: 5, seconds: 60 }, { maxKeys: 1000 });
    const decisions = [];
    for (let i = 0; i < 20_000; i++) decisions.push(await limiter.take(ipv4(i)));
    expect(limiter.size).toBeLessThanOrEqual(1001);
    // Beyond the cap, new visitors are limited together; known visitors keep their own bucket.
    expect(decisions.filter((d) => d.ok).length).toBe(1000 + 5);
    expect(await limiter.take(ipv4(3))).toEqual({ ok: true });
  });

  it('forgets a visitor when its window ends, so memory follows the traffic', async () => {
    const limiter = new MemoryVisitorLimiter({ calls: 1, seconds: 1 });
    for (let i = 0; i < 500; i++) await limiter.take(ipv4(i));
    expect(limiter.size).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(limiter.size).toBe(0);
  }, 20_000);
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
});
