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
});
