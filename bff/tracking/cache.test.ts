import { describe, expect, it } from 'vitest';
import type { TrackingResult } from '../../shared/tracking.ts';
import { TrackingCache } from './cache.ts';

const delivered: TrackingResult = { code: 'A', found: true, delivered: true, events: [] };
const moving: TrackingResult = { code: 'B', found: true, delivered: false, events: [] };
const missing: TrackingResult = { code: 'C', found: false, delivered: false, events: [] };
const ttls = { delivered: 1000, moving: 100, notFound: 10 };

describe('TrackingCache', () => {
  it('keeps each state fresh for its own TTL', () => {
    let now = 0;
    const cache = new TrackingCache({ now: () => now, ttls });
    cache.set('A', delivered);
    cache.set('B', moving);
    cache.set('C', missing);
    now = 50;
    expect([cache.get('A')?.freshness, cache.get('B')?.freshness, cache.get('C')?.freshness]).toEqual([
      'fresh',
      'fresh',
      'expired',
    ]);
    now = 150;
    expect([cache.get('A')?.freshness, cache.get('B')?.freshness]).toEqual(['fresh', 'revalidate']);
    now = 250;
    expect(cache.get('B')).toEqual({ result: moving, freshness: 'expired' });
  });

  it('revalidates within one more TTL, then expires but keeps the last known result', () => {
    let now = 0;
    const cache = new TrackingCache({ now: () => now, ttls });
    cache.set('A', delivered);
    now = 1500;
    expect(cache.get('A')?.freshness).toBe('revalidate');
    now = 5000;
    expect(cache.get('A')?.result).toEqual(delivered);
  });

  it('keeps the same freshness with a real clock far from 0 (ages are differences, not sums)', () => {
    const T0 = 1_763_800_000_123;
    let now = T0;
    const cache = new TrackingCache({ now: () => now, ttls });
    cache.set('B', moving);
    expect(cache.get('B')?.freshness).toBe('fresh');
    now = T0 + 99;
    expect(cache.get('B')?.freshness).toBe('fresh');
    now = T0 + 100;
    expect(cache.get('B')?.freshness).toBe('revalidate');
    now = T0 + 199;
    expect(cache.get('B')?.freshness).toBe('revalidate');
    now = T0 + 200;
    expect(cache.get('B')?.freshness).toBe('expired');
  });

  it('restarts the age of a code stored again, with the TTL of its new state', () => {
    let now = 1_763_800_000_000;
    const cache = new TrackingCache({ now: () => now, ttls });
    cache.set('B', moving);
    now += 150;
    cache.set('B', { ...moving, delivered: true });
    now += 500;
    expect(cache.get('B')?.freshness).toBe('fresh');
    expect(cache.size).toBe(1);
  });

  it('uses the 24 h / 5 min / 2 min defaults and the wall clock when given nothing', () => {
    const cache = new TrackingCache();
    expect([delivered, moving, missing].map((result) => cache.entryOf(result).ttl)).toEqual([
      24 * 60 * 60_000,
      5 * 60_000,
      2 * 60_000,
    ]);
    cache.set('B', moving);
    expect(cache.get('B')?.freshness).toBe('fresh');
  });

  it('evicts the least recently used beyond its size', () => {
    const cache = new TrackingCache({ ttls, maxEntries: 2 });
    cache.set('A', delivered);
    cache.set('B', moving);
    cache.get('A');
    cache.set('C', missing);
    expect(cache.get('B')).toBeUndefined();
    expect(cache.get('A')).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('counts a code stored again as recently used, so the untouched one goes first', () => {
    const cache = new TrackingCache({ ttls, maxEntries: 2 });
    cache.set('A', delivered);
    cache.set('B', moving);
    cache.set('A', delivered);
    cache.set('C', missing);
    expect(cache.get('B')).toBeUndefined();
    expect(cache.get('A')?.result).toEqual(delivered);
    expect(cache.get('C')?.result).toEqual(missing);
  });
});
