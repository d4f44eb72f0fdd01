import { describe, expect, it } from 'vitest';
import { FINAL_STATUSES, ON_ITS_WAY, parcelState, statusOf } from './parcel-status.ts';
import type { TrackingEvent } from './tracking.ts';

const event = (code: string, description = 'Objeto em trânsito', type?: string): TrackingEvent => ({
  code,
  description,
  ...(type === undefined ? {} : { type }),
});

/**
 * Where a parcel is decides what the shopper is told and whether its promise is still running (a delivered or
 * returned parcel is scored, one waiting at a unit counts down to its pickup): one status read wrong is a wrong
 * e-mail or a promise scored as broken.
 */
describe('statusOf', () => {
  it.each([
    ['PO', 'posted'],
    ['RO', 'in-transit'],
    ['DO', 'in-transit'],
    ['OEC', 'out-for-delivery'],
    ['LDI', 'awaiting-pickup'],
    ['BLQ', 'problem'],
  ] as const)('reads %s as %s', (code, status) => {
    expect(statusOf(event(code))).toBe(status);
  });

  it('reads a delivery attempt as returned when its status number or its words say so, else as a problem', () => {
    for (const code of ['BDE', 'BDI', 'BDR']) {
      expect(statusOf(event(code, 'Objeto entregue ao remetente', '23'))).toBe('returned');
      expect(statusOf(event(code, 'Objeto devolvido ao remetente', '01'))).toBe('returned');
      expect(statusOf(event(code, 'Em devolução ao remetente'))).toBe('returned');
      expect(statusOf(event(code, 'OBJETO DEVOLVIDO'))).toBe('returned');
      expect(statusOf(event(code, 'Objeto entregue ao destinatário', '01'))).toBe('problem');
      expect(statusOf(event(code, 'Destinatário ausente', '02'))).toBe('problem');
      expect(statusOf(event(code, 'Destinatário ausente'))).toBe('problem');
    }
  });

  it('reads any other movement whose words say the parcel goes back as returned', () => {
    expect(statusOf(event('RO', 'Objeto devolvido ao remetente'))).toBe('returned');
    expect(statusOf(event('RO', 'DEVOLVIDO'))).toBe('returned');
    // a return without "devolvido" on a movement is still a movement
    expect(statusOf(event('RO', 'Em devolução ao remetente'))).toBe('in-transit');
    expect(statusOf(event('RO', 'Em trânsito', '23'))).toBe('in-transit');
  });
});

describe('parcelState', () => {
  it('is not found, no events, or the most recent event’s status', () => {
    expect(parcelState({ found: false, delivered: false, events: [] })).toEqual({ status: 'not-found' });
    expect(parcelState({ found: true, delivered: false, events: [] })).toEqual({ status: 'no-events' });
    const [ldi, ro] = [event('LDI'), event('RO')];
    expect(parcelState({ found: true, delivered: false, events: [ldi, ro] })).toEqual({
      status: 'awaiting-pickup',
      event: ldi,
    });
  });

  it('is delivered only on the platform’s flag, with or without an event', () => {
    const bde = event('BDE', 'Objeto entregue ao destinatário', '01');
    expect(parcelState({ found: true, delivered: true, events: [bde] })).toEqual({
      status: 'delivered',
      event: bde,
    });
    expect(parcelState({ found: true, delivered: true, events: [] })).toEqual({ status: 'delivered' });
    expect(parcelState({ found: true, delivered: false, events: [bde] })).toEqual({
      status: 'problem',
      event: bde,
    });
  });

  it('drops an EST and the event it cancels, and reads the one before', () => {
    const [est, oec, ro, po] = [event('EST'), event('OEC'), event('RO'), event('PO')];
    expect(parcelState({ found: true, delivered: false, events: [est, oec, ro, po] })).toEqual({
      status: 'in-transit',
      event: ro,
    });
    expect(parcelState({ found: true, delivered: false, events: [est, oec, est, ro, po] })).toEqual({
      status: 'posted',
      event: po,
    });
    expect(parcelState({ found: true, delivered: false, events: [est, oec] })).toEqual({
      status: 'no-events',
    });
    expect(parcelState({ found: true, delivered: false, events: [est] })).toEqual({ status: 'no-events' });
  });
});

describe('the statuses a promise and a history read', () => {
  it('names the parcels still travelling to their shopper, and those nothing more happens to', () => {
    expect([...ON_ITS_WAY].sort()).toEqual([
      'in-transit',
      'no-events',
      'out-for-delivery',
      'posted',
      'problem',
    ]);
    expect([...FINAL_STATUSES].sort()).toEqual(['delivered', 'returned']);
  });
});
