import { describe, expect, it } from 'vitest';
import { TrackingRequestSchema, TrackingResultSchema, TrackShipmentInputSchema } from './tracking.ts';

const found = {
  code: 'DG049186226BR',
  found: true,
  delivered: false,
  lastStatus: { code: 'RO', description: 'Objeto em trânsito' },
  events: [{ code: 'RO', description: 'Objeto em trânsito', timestamp: '2026-11-10T14:32:00' }],
};

describe('TrackingResultSchema (spec 2.3)', () => {
  it('accepts a result with only the required fields of lastStatus and events', () => {
    expect(TrackingResultSchema.safeParse(found).success).toBe(true);
  });

  it('accepts a found object with no events and no lastStatus', () => {
    expect(
      TrackingResultSchema.safeParse({ code: 'X', found: true, delivered: false, events: [] }).success,
    ).toBe(true);
  });

  it('keeps a timestamp exactly as given', () => {
    expect(TrackingResultSchema.parse(found).events[0]?.timestamp).toBe('2026-11-10T14:32:00');
  });

  it.each([
    ['events missing', { events: undefined }],
    ['delivered missing', { delivered: undefined }],
    ['an event without description', { events: [{ code: 'RO' }] }],
    ['lastStatus without code', { lastStatus: { description: 'x' } }],
  ])('rejects %s', (_, change) => {
    expect(TrackingResultSchema.safeParse({ ...found, ...change }).success).toBe(false);
  });
});

describe('TrackingRequestSchema (spec 4.2)', () => {
  const codes = (n: number) => Array.from({ length: n }, () => 'DG049186226BR');

  it('accepts 1 and 50 codes', () => {
    expect(TrackingRequestSchema.safeParse({ codes: codes(1) }).success).toBe(true);
    expect(TrackingRequestSchema.safeParse({ codes: codes(50) }).success).toBe(true);
  });

  it('rejects 0 and 51 codes and an unknown property', () => {
    expect(TrackingRequestSchema.safeParse({ codes: [] }).success).toBe(false);
    expect(TrackingRequestSchema.safeParse({ codes: codes(51) }).success).toBe(false);
    expect(TrackShipmentInputSchema.safeParse({ codes: codes(1), extra: 1 }).success).toBe(false);
  });
});

describe('response schemas are open to additions', () => {
  it('keeps a field the platform adds instead of failing', () => {
    const parsed = TrackingResultSchema.parse({
      code: 'X',
      found: false,
      delivered: false,
      events: [],
      addedLater: 1,
    });
    expect(parsed).toMatchObject({ addedLater: 1 });
  });
});
