import { describe, expect, it } from 'vitest';
import { lookAt } from './changes.ts';
import { stallOf } from './stall.ts';
import { DAY, ev, MONDAY, moving, posted, trackingResult, watch } from './testing/looks.ts';

describe('where a parcel is declared stalled', () => {
  it('reports a stall once, after BFF_STALL_DAYS business days without a new event, and again after news and a new stall', () => {
    const seen = lookAt(watch(), trackingResult([moving, posted]), MONDAY, 3);
    // Tuesday, Wednesday and Thursday must end: Thursday 23:59 is too early, Friday 00:00 is a stall.
    const thursdayNight = Date.parse('2026-11-26T23:59:00-03:00');
    expect(lookAt(seen.next, trackingResult([moving, posted]), thursdayNight, 3).event).toBeUndefined();
    const friday = Date.parse('2026-11-27T00:00:00-03:00');
    const stalled = lookAt(seen.next, trackingResult([moving, posted]), friday, 3);
    expect(stalled.event).toEqual({ type: 'shipment.stalled', status: 'in-transit', lastEvent: moving });
    expect(lookAt(stalled.next, trackingResult([moving, posted]), friday + 5 * DAY, 3).event).toBeUndefined();
    const news = ev('RO', '01', '2026-11-30T10:00:00', 'moving again');
    const moved = lookAt(stalled.next, trackingResult([news, moving, posted]), friday + 3 * DAY, 3);
    expect(moved.event).toBeUndefined();
    expect(moved.next.stalled).toBe(false);
    const again = lookAt(moved.next, trackingResult([news, moving, posted]), friday + 10 * DAY, 3);
    expect(again.event?.type).toBe('shipment.stalled');
  });

  it('counts business days only: a weekend and a holiday do not make a stall', () => {
    // The business days waited from `changedAt` to `now`: how many of BFF_STALL_DAYS = 1…10 already make a stall.
    const waited = (changedAt: number, now: number) =>
      Array.from({ length: 10 }, (_, i) => i + 1).filter(
        (stallDays) =>
          stallOf(
            watch({ status: 'in-transit', changedAt }),
            trackingResult([moving, posted]),
            now,
            stallDays,
            false,
          ).event,
      ).length;
    // Thursday 2026-11-19; Friday 20 is a holiday (Consciência Negra), then the weekend.
    const thursday = Date.parse('2026-11-19T12:00:00-03:00');
    expect(waited(thursday, Date.parse('2026-11-24T00:00:00-03:00'))).toBe(1);
    expect(waited(thursday, Date.parse('2026-11-26T00:00:00-03:00'))).toBe(3);
    expect(waited(MONDAY, MONDAY + 3600_000)).toBe(0);
  });

  it('never reports as stalled a label it never saw, however long the platform does not find it', () => {
    const never = watch({ status: null, changedAt: MONDAY - 30 * DAY });
    const lost = { code: 'QB123456785BR', found: false, delivered: false, events: [] };
    expect(lookAt(never, lost, MONDAY, 3)).toEqual({ next: never, done: false });
  });

  it('declares nothing for a parcel delivered, returned or waiting at a unit, a finished look, nor twice a stall', () => {
    const late = MONDAY + 30 * DAY;
    for (const status of ['delivered', 'returned', 'awaiting-pickup'] as const) {
      expect(stallOf(watch({ status }), trackingResult([moving]), late, 3, false).event).toBeUndefined();
    }
    const transit = watch({ status: 'in-transit' });
    expect(
      stallOf({ ...transit, stalled: true }, trackingResult([moving]), late, 3, false).event,
    ).toBeUndefined();
    expect(stallOf(transit, trackingResult([moving]), late, 3, true)).toEqual({ next: transit, done: true });
    expect(stallOf(transit, trackingResult([moving]), late, 3, false)).toEqual({
      next: { ...transit, stalled: true },
      done: false,
      event: { type: 'shipment.stalled', status: 'in-transit', lastEvent: moving },
    });
  });
});
