import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.ts';

describe('LoginThrottle', () => {
  it('doubles the wait after each failure up to the maximum, per address, and a success clears it', () => {
    let now = 0;
    const throttle = new LoginThrottle({ now: () => now, baseMs: 1000, maxMs: 8000 });
    expect(throttle.waitMs('a')).toBe(0);
    const waits = [];
    for (let i = 0; i < 6; i++) {
      throttle.fail('a');
      waits.push(throttle.waitMs('a'));
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(throttle.waitMs('b')).toBe(0);
    now += 8000;
    expect(throttle.waitMs('a')).toBe(0);
    throttle.succeed('a');
    throttle.fail('a');
    expect(throttle.waitMs('a')).toBe(1000);
  });

  it('stays bounded under a flood of addresses', () => {
    const throttle = new LoginThrottle({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) throttle.fail(`10.0.${i >> 8}.${i & 255}`);
    expect(throttle.waitMs('10.0.39.15')).toBeGreaterThan(0);
    expect(throttle.waitMs('10.0.0.0')).toBe(0);
  });
});
