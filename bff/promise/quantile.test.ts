import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coveringDays, effectiveCount, keptAtLeast, weightedQuantile } from './quantile.ts';

const equal = (...days: number[]) => days.map((d) => ({ days: d, weight: 1 }));

describe('weightedQuantile', () => {
  it('answers the one sample of a sample of one, at any share', () => {
    expect(weightedQuantile(equal(4), 0.95)).toBe(4);
    expect(weightedQuantile(equal(4), 0)).toBe(4);
    expect(weightedQuantile(equal(4), 1)).toBe(4);
  });

  it('counts ties whole: three 3s and a 4 cover 75 % with 3, and 76 % only with 4', () => {
    expect(weightedQuantile(equal(4, 3, 3, 3), 0.75)).toBe(3);
    expect(weightedQuantile(equal(4, 3, 3, 3), 0.76)).toBe(4);
    expect(weightedQuantile(equal(5, 5, 5, 5, 5), 0.95)).toBe(5);
  });

  it('reaches exactly 19 of 20 at 0.95 despite floating-point sums (no 20th sample needed)', () => {
    const samples = [...equal(...Array(19).fill(6)), ...equal(11)];
    expect(weightedQuantile(samples, 0.95)).toBe(6);
  });

  it('lets recent parcels count more', () => {
    const samples = [
      { days: 9, weight: 1 },
      { days: 4, weight: 0.1 },
      { days: 4, weight: 0.1 },
    ];
    expect(weightedQuantile(samples, 0.5)).toBe(9);
  });

  it('answers nothing for no samples, or samples that weigh nothing', () => {
    expect(weightedQuantile([], 0.95)).toBeUndefined();
    expect(weightedQuantile([{ days: 3, weight: 0 }], 0.95)).toBeUndefined();
  });

  it('is always one of the samples, and never more than the largest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (days, share) => {
          const value = weightedQuantile(equal(...days), share);
          expect(days).toContain(value);
          expect(value).toBeLessThanOrEqual(Math.max(...days));
        },
      ),
    );
  });
});

describe('coveringDays', () => {
  it('promises the slowest of 30 equal-weight parcels at 0.95 (the margin of a small sample)', () => {
    const samples = equal(...Array.from({ length: 30 }, (_, i) => 3 + (i % 4)), 9);
    expect(coveringDays(samples, 0.95)).toBe(9);
  });

  it('needs less margin as parcels add up: the 97th percentile of 300 rather than the slowest', () => {
    const samples = equal(...Array.from({ length: 300 }, (_, i) => (i < 291 ? 4 : 10 + i - 291)));
    expect(effectiveCount(samples)).toBeCloseTo(300);
    const days = coveringDays(samples, 0.95);
    expect(days).toBeGreaterThanOrEqual(4);
    expect(days).toBeLessThan(18);
  });
});

describe('keptAtLeast', () => {
  it('does not take a small sample all kept for 95 % kept: 30 of 30 is 0.917, 60 of 60 is 0.957 (95 % confidence)', () => {
    expect(keptAtLeast(30, 30)).toBeCloseTo(0.917, 3);
    expect(keptAtLeast(34, 35)).toBeCloseTo(0.882, 3);
    expect(keptAtLeast(60, 60)).toBeCloseTo(0.957, 3);
    expect(keptAtLeast(99, 100)).toBeGreaterThan(0.95);
    expect(keptAtLeast(95, 100)).toBeLessThan(0.95);
  });

  it('is 0 for no parcels, never above the share seen, and nearer it as parcels add up', () => {
    expect(keptAtLeast(0, 0)).toBe(0);
    expect(keptAtLeast(0, 10)).toBe(0);
    for (const n of [10, 100, 1000, 10_000]) expect(keptAtLeast(0.97 * n, n)).toBeLessThan(0.97);
    expect(keptAtLeast(9700, 10_000)).toBeGreaterThan(keptAtLeast(970, 1000));
  });
});
