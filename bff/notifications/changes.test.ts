import { describe, expect, it } from 'vitest';
import { saoPauloDay } from '../../shared/business-days.ts';
import type { TrackingEvent } from '../../shared/tracking.ts';
import { lookAt, pickupLastDayOf } from './changes.ts';
import type { WatchState } from './look.ts';
import { DAY, ev, MONDAY, moving, out, posted, trackingResult, watch } from './testing/looks.ts';

describe('lookAt', () => {
  it('makes one event per change of status: the status own event, or status_changed', () => {
    const first = lookAt(watch(), trackingResult([posted]), MONDAY + 1000, 3);
    expect(first.event).toEqual({ type: 'shipment.status_changed', status: 'posted', lastEvent: posted });
    const second = lookAt(first.next, trackingResult([out, moving, posted]), MONDAY + DAY, 3);
    expect(second.event).toMatchObject({ type: 'shipment.out_for_delivery', status: 'out-for-delivery' });
    const delivered = ev('BDE', '01', '2026-11-24T15:00:00');
    const third = lookAt(
      second.next,
      trackingResult([delivered, out, moving, posted], true),
      MONDAY + 2 * DAY,
      3,
    );
    expect(third).toMatchObject({ done: true, event: { type: 'shipment.delivered', status: 'delivered' } });
  });

  it('says nothing when nothing changed, or only a new event of the same status came (and restarts the stall clock)', () => {
    const seen = lookAt(watch(), trackingResult([moving, posted]), MONDAY, 3).next;
    expect(lookAt(seen, trackingResult([moving, posted]), MONDAY + 1000, 3).event).toBeUndefined();
    const another = ev('RO', '01', '2026-11-24T20:00:00', 'another unit');
    const look = lookAt(seen, trackingResult([another, moving, posted]), MONDAY + DAY, 3);
    expect(look.event).toBeUndefined();
    expect(look.next.changedAt).toBe(MONDAY + DAY);
  });

  it('records the first status of a label issued before the watcher without an event', () => {
    const look = lookAt(watch({ status: null }), trackingResult([out, moving, posted]), MONDAY, 3);
    expect(look.event).toBeUndefined();
    expect(look.next.status).toBe('out-for-delivery');
  });

  it('never reports a delivered or returned parcel as stalled, and a code not found changes nothing', () => {
    const bde = ev('BDE', '01', '2026-11-24T15:00:00');
    const delivered = lookAt(watch({ status: 'out-for-delivery' }), trackingResult([bde], true), MONDAY, 3);
    expect(lookAt(delivered.next, trackingResult([bde], true), MONDAY + 30 * DAY, 3).event).toBeUndefined();
    const returned = lookAt(
      watch({ status: 'in-transit' }),
      trackingResult([ev('BDE', '23', 't', 'devolvido')]),
      MONDAY,
      3,
    );
    expect(returned).toMatchObject({ done: true, event: { type: 'shipment.returned' } });
    expect(
      lookAt(returned.next, trackingResult([ev('BDE', '23', 't', 'devolvido')]), MONDAY + 30 * DAY, 3).event,
    ).toBeUndefined();
    const lost = { code: 'QB123456785BR', found: false, delivered: false, events: [] };
    const look = lookAt(watch({ status: 'posted', eventKey: 'k' }), lost, MONDAY + DAY, 3);
    expect(look).toEqual({ next: watch({ status: 'posted', eventKey: 'k' }), done: false });
    // …but the stall clock runs: a label that is never posted is reported.
    expect(lookAt(watch(), lost, MONDAY + 7 * DAY, 3).event?.type).toBe('shipment.stalled');
  });

  it('lets an EST event take the status back, which is a change', () => {
    const seen = lookAt(watch(), trackingResult([out, moving, posted]), MONDAY, 3);
    const cancelled = lookAt(
      seen.next,
      trackingResult([ev('EST', '', 'x'), out, moving, posted]),
      MONDAY + 1000,
      3,
    );
    expect(cancelled.event).toMatchObject({ type: 'shipment.status_changed', status: 'in-transit' });
  });

  it('reminds the shopper to pick up a waiting parcel two days before its 7-day hold ends, once per wait', () => {
    const ldi = ev('LDI', '01', '2026-11-24T10:00:00'); // the hold ends on 01/12: the reminder from 29/11
    const waiting = lookAt(
      watch({ status: 'in-transit', eventKey: 'x' }),
      trackingResult([ldi, moving, posted]),
      MONDAY + DAY,
      3,
    );
    expect(waiting.event?.type).toBe('shipment.awaiting_pickup');
    const saturday = Date.parse('2026-11-28T23:00:00-03:00');
    expect(lookAt(waiting.next, trackingResult([ldi, moving, posted]), saturday, 3).event).toBeUndefined();
    const sunday = Date.parse('2026-11-29T08:00:00-03:00');
    const reminded = lookAt(waiting.next, trackingResult([ldi, moving, posted]), sunday, 30);
    expect(reminded.event).toMatchObject({
      type: 'shipment.pickup_reminder',
      status: 'awaiting-pickup',
      lastEvent: ldi,
    });
    expect(
      lookAt(reminded.next, trackingResult([ldi, moving, posted]), sunday + DAY, 30).event,
    ).toBeUndefined();
  });
});

describe('lookAt, the event key and the first look', () => {
  const seen = (events: TrackingEvent[]) => lookAt(watch(), trackingResult(events), MONDAY, 3).next;

  it('takes an event that differs only in its time, or its type number, as news (the stall clock restarts)', () => {
    const first = seen([moving, posted]);
    const later = ev('RO', '01', '2026-11-24T20:00:00', moving.description);
    expect(lookAt(first, trackingResult([later, posted]), MONDAY + DAY, 3).next.changedAt).toBe(MONDAY + DAY);
    const retyped = ev('RO', '02', moving.timestamp ?? '', moving.description);
    expect(lookAt(first, trackingResult([retyped, posted]), MONDAY + DAY, 3).next.changedAt).toBe(
      MONDAY + DAY,
    );
  });

  it('tells the fields of an event apart: a type and a time that run together alike are two events', () => {
    const first = seen([ev('RO', '01', '2026-11-24T20:00:00', 'x')]);
    const lookalike = ev('RO', '0', '12026-11-24T20:00:00', 'x');
    expect(lookAt(first, trackingResult([lookalike]), MONDAY + DAY, 3).next.changedAt).toBe(MONDAY + DAY);
  });

  it('takes an event without a type or a time as the same event whether the field is absent or empty', () => {
    const bare: TrackingEvent = { code: 'RO', description: 'Objeto em trânsito' };
    const first = seen([bare, posted]);
    const empty = { ...bare, type: '', timestamp: '' };
    const look = lookAt(first, trackingResult([empty, posted]), MONDAY + DAY, 3);
    expect(look.next.changedAt).toBe(MONDAY);
  });

  it('records the first status of a parcel already waiting for pickup, without a reminder or a stall', () => {
    const ldi = ev('LDI', '01', '2026-11-16T10:00:00'); // the hold ended on 23/11
    // the watcher knows the newest event (its key) but not yet the status it means
    const key = lookAt(watch({ status: null }), trackingResult([ldi]), MONDAY, 3).next.eventKey;
    const known = watch({ status: null, eventKey: key, changedAt: MONDAY - 30 * DAY });
    const first = lookAt(known, trackingResult([ldi]), MONDAY, 3);
    expect(first.event).toBeUndefined();
    expect(first.next).toMatchObject({ status: 'awaiting-pickup', changedAt: MONDAY - 30 * DAY });
    const unknown = watch({ status: null, changedAt: MONDAY - 30 * DAY });
    expect(lookAt(unknown, trackingResult([]), MONDAY, 3).event).toBeUndefined();
  });

  it('keeps the state of a parcel waiting for pickup when the platform does not find it for a while', () => {
    const waiting = watch({ status: 'awaiting-pickup', eventKey: 'k', changedAt: MONDAY - 30 * DAY });
    const lost = { code: 'QB123456785BR', found: false, delivered: false, events: [] };
    expect(lookAt(waiting, lost, MONDAY, 3)).toEqual({ next: waiting, done: false });
  });
});

describe('lookAt, the pickup reminder once per wait', () => {
  const ldi = ev('LDI', '01', '2026-11-24T10:00:00'); // the hold ends on 01/12: the reminder from 29/11
  const sunday = Date.parse('2026-11-29T08:00:00-03:00');

  it('reminds a parcel whose state predates reminders (no `reminded` field yet)', () => {
    const old: WatchState = { status: 'awaiting-pickup', eventKey: null, changedAt: MONDAY, stalled: false };
    const seen = lookAt(old, trackingResult([ldi, moving, posted]), MONDAY + DAY, 30).next;
    const { reminded: _, ...predates } = seen;
    expect(lookAt(predates, trackingResult([ldi, moving, posted]), sunday, 30).event?.type).toBe(
      'shipment.pickup_reminder',
    );
  });

  it('reminds again when the parcel waits at a unit a second time', () => {
    const waiting = lookAt(
      watch({ status: 'in-transit', eventKey: 'x' }),
      trackingResult([ldi, moving]),
      MONDAY + DAY,
      30,
    );
    const reminded = lookAt(waiting.next, trackingResult([ldi, moving]), sunday, 30);
    expect(reminded.event?.type).toBe('shipment.pickup_reminder');
    const again = ev('RO', '01', '2026-11-29T12:00:00', 'back on its way');
    const moved = lookAt(reminded.next, trackingResult([again, ldi]), sunday + 3_600_000, 30);
    expect(moved.next.reminded).toBe(false);
    const ldi2 = ev('LDI', '01', '2026-12-01T10:00:00'); // a new hold, ending on 08/12
    const second = lookAt(
      moved.next,
      trackingResult([ldi2, again, ldi]),
      Date.parse('2026-12-01T12:00:00-03:00'),
      30,
    );
    expect(second.event?.type).toBe('shipment.awaiting_pickup');
    const reminder = lookAt(
      second.next,
      trackingResult([ldi2, again, ldi]),
      Date.parse('2026-12-06T08:00:00-03:00'),
      30,
    );
    expect(reminder.event?.type).toBe('shipment.pickup_reminder');
  });
});

describe('pickupLastDayOf', () => {
  const day = (iso: string) => saoPauloDay(Date.parse(`${iso}T12:00:00-03:00`)).day;

  it("counts the hold from the carrier's date of the event, not from when the watcher saw it", () => {
    const ldi = ev('LDI', '01', '2026-11-24T10:00:00');
    expect(pickupLastDayOf(ldi, Date.parse('2026-11-27T10:00:00-03:00'))).toBe(day('2026-12-01'));
  });

  it('counts from the day the watcher saw it when the event has no date, or there is no event', () => {
    const seenAt = Date.parse('2026-11-27T10:00:00-03:00');
    expect(pickupLastDayOf({ code: 'LDI', description: 'Aguardando retirada' }, seenAt)).toBe(
      day('2026-12-04'),
    );
    expect(pickupLastDayOf(undefined, seenAt)).toBe(day('2026-12-04'));
  });
});
