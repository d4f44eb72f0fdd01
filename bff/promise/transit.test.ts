import { describe, expect, it } from 'vitest';
import { carrierDay } from '../../shared/carrier-time.ts';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';
import { transitOf } from './transit.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const ev = (
  code: string,
  type: string,
  timestamp: string | undefined,
  description = code,
): TrackingEvent => ({
  code,
  type,
  description,
  ...(timestamp === undefined ? {} : { timestamp }),
});
const result = (events: TrackingEvent[], delivered = false): TrackingResult => ({
  code: 'QB123456785BR',
  found: true,
  delivered,
  events,
});

describe('carrierDay', () => {
  it('reads a timestamp without an offset as the date it writes, assuming no zone', () => {
    expect(carrierDay('2026-11-23T23:59:59')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T00:00:00')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23 07:15')).toBe(day('2026-11-23'));
    expect(carrierDay('23/11/2026 14:32')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23')).toBe(day('2026-11-23'));
  });

  it('reads a timestamp with an offset as an instant, on São Paulo’s calendar', () => {
    expect(carrierDay('2026-11-24T01:30:00Z')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-24T01:30:00+00:00')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T22:30:00-03:00')).toBe(day('2026-11-23'));
  });

  it.each([
    undefined,
    '',
    'amanhã',
    '2026-02-31T10:00:00',
    '2026-13-01T10:00:00',
    '2026-11-23T25:00:00',
    '31/02/2026 10:00',
    '2026-11-23T10:00:00+99:99',
    '1e12',
  ])('is no date for %j', (text) => {
    expect(carrierDay(text)).toBeUndefined();
  });
});

describe('transitOf', () => {
  const seen = day('2026-11-27');
  const created = day('2026-11-20');
  const po = ev('PO', '01', '2026-11-23T10:00:00');
  const ro = ev('RO', '01', '2026-11-24T08:00:00');
  const bde = ev('BDE', '01', '2026-11-26T15:00:00');

  it('reads the posting and the delivery from the carrier’s own dates', () => {
    expect(transitOf(result([bde, ro, po], true), seen, created)).toEqual({
      postedDay: day('2026-11-23'),
      ended: { outcome: 'delivered', day: day('2026-11-26') },
    });
  });

  it('takes a returned parcel for an outcome, not a delivery', () => {
    const returned = ev('BDE', '23', '2026-11-26T15:00:00', 'Objeto devolvido ao remetente');
    expect(transitOf(result([returned, ro, po]), seen, created).ended).toEqual({
      outcome: 'returned',
      day: day('2026-11-26'),
    });
  });

  it('never reads a delivery from a code the platform does not flag as delivered', () => {
    expect(transitOf(result([bde, ro, po], false), seen, created).ended).toBeUndefined();
  });

  it('counts a duplicated posting once (the first one), and drops what an EST cancels', () => {
    const again = ev('PO', '01', '2026-11-25T10:00:00');
    const wrong = ev('PO', '01', '2026-11-21T10:00:00');
    const est = ev('EST', '01', '2026-11-23T11:00:00');
    // most recent first: [again, ro, po, est?]. EST cancels the event reported just before it (the older one after it).
    expect(transitOf(result([again, ro, po]), seen, created).postedDay).toBe(day('2026-11-23'));
    expect(transitOf(result([ro, po, est, wrong]), seen, created).postedDay).toBe(day('2026-11-23'));
  });

  it('does not believe a date from the future, from before the label, or one it cannot read: the look’s day stands in', () => {
    const future = ev('BDE', '01', '2031-01-01T10:00:00');
    expect(transitOf(result([future, po], true), seen, created).ended?.day).toBe(seen);
    const ancient = ev('PO', '01', '1999-01-01T10:00:00');
    expect(transitOf(result([ancient]), seen, created).postedDay).toBe(seen);
    const garbage = ev('PO', '01', '<script>alert(1)</script>');
    expect(transitOf(result([garbage]), seen, created).postedDay).toBe(seen);
    const none = ev('PO', '01', undefined);
    expect(transitOf(result([none]), seen, created).postedDay).toBe(seen);
  });

  it('knows nothing of a code the platform does not find, or of a label not posted yet', () => {
    expect(transitOf({ code: 'X', found: false, delivered: false, events: [] }, seen, created)).toEqual({});
    expect(transitOf(result([]), seen, created)).toEqual({});
  });
});
