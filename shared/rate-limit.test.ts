import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('allows `calls` per window per key, then says when to retry', () => {
    let now = 0;
    const limiter = new RateLimiter({ calls: 2, seconds: 60 }, () => now);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    now = 15_000;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 45 });
    now = 60_000;
    expect(limiter.take('a')).toEqual({ ok: true });
  });
});

describe('parseRateLimit', () => {
  it('reads calls/seconds and refuses anything else', () => {
    expect(parseRateLimit('60/60')).toEqual({ calls: 60, seconds: 60 });
    expect(parseRateLimit('120/60')).toEqual({ calls: 120, seconds: 60 });
    for (const bad of ['60', '0/60', '60/0', 'a/b', '']) expect(parseRateLimit(bad)).toBeUndefined();
  });
});
