import { describe, expect, it } from 'vitest';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';
import type { TransitRow } from './history-store.ts';
import { dayOfIso, lateDays, learnFrom, promiseAtRisk } from './learn.ts';

const day = dayOfIso;
const ev = (code: string, type: string, timestamp: string, description = code): TrackingEvent => ({
  code,
  type,
  timestamp,
  description,
});
const result = (events: TrackingEvent[], delivered = false): TrackingResult => ({
  code: 'QB123456785BR',
  found: true,
  delivered,
  events,
});
const row = (over: Partial<TransitRow> = {}): TransitRow => ({
  attemptId: 'a',
  trackingCode: 'QB123456785BR',
  origin: '01310',
  serviceId: 'correios-pac',
  destPrefix: '200',
  destUf: 'RJ',
  destArea: 'capital',
  destRegion: 'SE',
  createdAt: Date.parse('2026-11-20T12:00:00-03:00'),
  createdDay: day('2026-11-20'),
  promisedFrom: '2026-11-26',
  promisedTo: '2026-11-27',
  promisedBasis: 'history',
  promisedParcels: 40,
  promisedLevel: 'area',
  platformDays: 6,
  outcome: 'open',
  postedDay: null,
  endedDay: null,
  transitDays: null,
  lateDays: null,
  atRiskAt: null,
  ...over,
});
const at = (iso: string) => Date.parse(iso);
const po = ev('PO', '01', '2026-11-23T10:00:00');
const bde = (date: string) => ev('BDE', '01', `${date}T15:00:00`);

describe('lateDays', () => {
  it('counts business days after the promised day (a delivery on it is 0, before it negative)', () => {
    expect(lateDays(day('2026-11-27'), day('2026-11-27'))).toBe(0);
    expect(lateDays(day('2026-11-27'), day('2026-11-30'))).toBe(1); // Fri → Mon
    expect(lateDays(day('2026-11-27'), day('2026-11-25'))).toBe(-2);
  });
});

describe('learnFrom', () => {
  it('learns the posting once, then the delivery, its transit and its score', () => {
    expect(learnFrom(row(), result([po]), at('2026-11-23T18:00:00-03:00'))).toEqual({
      postedDay: day('2026-11-23'),
    });
    const posted = row({ postedDay: day('2026-11-23') });
    expect(learnFrom(posted, result([bde('2026-11-30'), po], true), at('2026-11-30T18:00:00-03:00'))).toEqual(
      {
        outcome: 'delivered',
        endedDay: day('2026-11-30'),
        transitDays: 5,
        lateDays: 1,
      },
    );
  });

  it('learns nothing more once a parcel’s history has ended: a replayed delivery changes nothing', () => {
    const ended = row({ outcome: 'delivered', postedDay: day('2026-11-23'), endedDay: day('2026-11-25') });
    expect(learnFrom(ended, result([bde('2026-11-30'), po], true), at('2026-11-30T18:00:00-03:00'))).toEqual(
      {},
    );
  });

  it('does not learn a transit from a delivery dated before its posting (hostile dates), yet scores the delivery', () => {
    const posted = row({ postedDay: day('2026-11-26') });
    const change = learnFrom(posted, result([bde('2026-11-24'), po], true), at('2026-11-27T18:00:00-03:00'));
    expect(change).toEqual({ outcome: 'delivered', endedDay: day('2026-11-24'), lateDays: -3 });
  });

  it('scores nothing of a parcel sold without a promise (a label older than this release)', () => {
    const old = row({ promisedTo: null, promisedFrom: null, postedDay: day('2026-11-23') });
    expect(learnFrom(old, result([bde('2026-11-25'), po], true), at('2026-11-25T18:00:00-03:00'))).toEqual({
      outcome: 'delivered',
      endedDay: day('2026-11-25'),
      transitDays: 2,
    });
  });
});

describe('promiseAtRisk', () => {
  it('is at risk from 10 h (São Paulo) of the promised day while the parcel is still on the way, once', () => {
    expect(promiseAtRisk(row(), 'in-transit', at('2026-11-27T09:59:00-03:00'))).toBe(false);
    expect(promiseAtRisk(row(), 'in-transit', at('2026-11-27T10:00:00-03:00'))).toBe(true);
    expect(promiseAtRisk(row(), 'posted', at('2026-11-28T10:00:00-03:00'))).toBe(true);
    expect(promiseAtRisk(row({ atRiskAt: 1 }), 'in-transit', at('2026-11-28T10:00:00-03:00'))).toBe(false);
  });

  it('is not at risk out for delivery, waiting at a unit, delivered, or without a promise', () => {
    const late = at('2026-11-27T15:00:00-03:00');
    expect(promiseAtRisk(row(), 'out-for-delivery', late)).toBe(false);
    expect(promiseAtRisk(row(), 'awaiting-pickup', late)).toBe(false);
    expect(promiseAtRisk(row({ outcome: 'delivered' }), 'delivered', late)).toBe(false);
    expect(promiseAtRisk(row({ promisedTo: null }), 'in-transit', late)).toBe(false);
  });
});
