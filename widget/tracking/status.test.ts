import { describe, expect, it } from 'vitest';
import type { TrackingEvent } from '../../shared/tracking.ts';
import { formatCarrierTimestamp, parcelState, statusOf } from './status.ts';

const event = (code: string, type: string | undefined, description = 'x'): TrackingEvent => ({
  code,
  ...(type === undefined ? {} : { type }),
  description,
});
const found = (events: TrackingEvent[], delivered = false) => ({ found: true, delivered, events });

describe('statusOf: every code and status number of the Correios table', () => {
  it.each([
    ['PO', '01', 'posted'],
    ['RO', '01', 'in-transit'],
    ['DO', '01', 'in-transit'],
    ['OEC', '01', 'out-for-delivery'],
    ['LDI', '01', 'awaiting-pickup'],
    ['BDE', '02', 'problem'],
    ['BDI', '02', 'problem'],
    ['BDR', '02', 'problem'],
    ['BDE', '04', 'problem'],
    ['BDE', '06', 'problem'],
    ['BDI', '07', 'problem'],
    ['BDR', '08', 'problem'],
    ['BDE', '23', 'returned'],
    ['BDI', '23', 'returned'],
    ['BLQ', undefined, 'problem'],
    ['XYZ', '99', 'in-transit'],
  ])('%s/%s is %s', (code, type, status) => {
    expect(statusOf(event(code, type))).toBe(status);
  });

  it('reads "devolvido" in the description as returned even under an unexpected status number', () => {
    expect(statusOf(event('BDE', '99', 'Objeto devolvido ao remetente'))).toBe('returned');
  });
});

describe('parcelState', () => {
  it('is not found and no events without looking at codes', () => {
    expect(parcelState({ found: false, delivered: false, events: [] }).status).toBe('not-found');
    expect(parcelState(found([])).status).toBe('no-events');
  });

  it('is delivered only when the platform says delivered: true (BDE/01 alone is not enough)', () => {
    expect(parcelState(found([event('BDE', '01')], true)).status).toBe('delivered');
    expect(parcelState(found([event('BDE', '01')], false)).status).toBe('problem');
    expect(parcelState(found([event('RO', '01')], false)).status).toBe('in-transit');
  });

  it('is returned for the returned fixture: BDE/23 after an absent recipient and a pickup notice', () => {
    const events = [
      event('BDE', '23', 'Objeto devolvido ao remetente'),
      event('LDI', '01'),
      event('BDE', '02'),
      event('OEC', '01'),
    ];
    expect(parcelState(found(events)).status).toBe('returned');
    expect(parcelState(found(events.slice(1))).status).toBe('awaiting-pickup');
    expect(parcelState(found(events.slice(2))).status).toBe('problem');
  });

  it('lets EST cancel the event before it', () => {
    const events = [event('EST', undefined), event('OEC', '01'), event('RO', '01')];
    expect(parcelState(found(events))).toEqual({ status: 'in-transit', event: event('RO', '01') });
    expect(parcelState(found([event('EST', undefined), event('PO', '01')])).status).toBe('no-events');
  });

  it('keeps the event of an awaiting pickup, for where and since when', () => {
    const ldi = {
      ...event('LDI', '01'),
      origin: 'Unidade de Distribuição - Curitiba/PR',
      timestamp: '2026-11-20T01:34:29',
    };
    expect(parcelState(found([ldi]))).toEqual({ status: 'awaiting-pickup', event: ldi });
  });
});

describe('formatCarrierTimestamp', () => {
  it('shows the carrier time as written, without converting any zone', () => {
    expect(formatCarrierTimestamp('2026-11-20T01:34:29', 'às')).toBe('20/11/2026 às 01:34');
    expect(formatCarrierTimestamp('2026-11-20 01:34:29', 'às')).toBe('20/11/2026 às 01:34');
    // an offset, if one ever comes, is not applied: the clock reading is what the carrier wrote
    expect(formatCarrierTimestamp('2026-12-31T23:59:00+09:00', 'às')).toBe('31/12/2026 às 23:59');
  });

  it('writes the year first in English, where 04/12 would read as April', () => {
    expect(formatCarrierTimestamp('2026-12-04T08:11:00', 'at', true)).toBe('2026-12-04 at 08:11');
    expect(formatCarrierTimestamp('2026-12-04T08:11:00', 'a las')).toBe('04/12/2026 a las 08:11');
  });

  it('gives the same text under any TZ of the machine', () => {
    const saved = process.env.TZ;
    try {
      const texts = ['Asia/Tokyo', 'America/Los_Angeles', 'UTC'].map((zone) => {
        process.env.TZ = zone;
        return formatCarrierTimestamp('2026-11-20T01:34:29', 'às');
      });
      expect(new Set(texts)).toEqual(new Set(['20/11/2026 às 01:34']));
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('shows anything else as given', () => {
    expect(formatCarrierTimestamp('ontem', 'às')).toBe('ontem');
    expect(formatCarrierTimestamp('', 'às')).toBe('');
  });
});
