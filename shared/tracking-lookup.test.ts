import { describe, expect, it } from 'vitest';
import {
  TrackingLookupRequestSchema,
  TrackingLookupResponseSchema,
  TrackingLookupResultSchema,
} from './tracking-lookup.ts';

const result = { code: 'DG049186226BR', found: true, delivered: true, events: [] };

describe('the BFF tracking API schemas', () => {
  it('take 1 to 50 codes and nothing else', () => {
    const codes = (n: number) => Array.from({ length: n }, () => 'DG049186226BR');
    expect(TrackingLookupRequestSchema.safeParse({ codes: codes(1) }).success).toBe(true);
    expect(TrackingLookupRequestSchema.safeParse({ codes: codes(50) }).success).toBe(true);
    expect(TrackingLookupRequestSchema.safeParse({ codes: [] }).success).toBe(false);
    expect(TrackingLookupRequestSchema.safeParse({ codes: codes(51) }).success).toBe(false);
    expect(TrackingLookupRequestSchema.safeParse({ codes: codes(1), store: 'other' }).success).toBe(false);
    expect(TrackingLookupRequestSchema.safeParse({ codes: [42] }).success).toBe(false);
  });

  it('mark a last known result stale with true only, and keep the spec 2.3 fields', () => {
    expect(TrackingLookupResultSchema.parse({ ...result, stale: true })).toEqual({ ...result, stale: true });
    expect(TrackingLookupResultSchema.parse(result)).toEqual(result);
    expect(TrackingLookupResultSchema.safeParse({ ...result, stale: false }).success).toBe(false);
    expect(TrackingLookupResultSchema.safeParse({ ...result, found: 'yes' }).success).toBe(false);
  });

  it('answer results and nothing else', () => {
    expect(TrackingLookupResponseSchema.parse({ results: [result] })).toEqual({ results: [result] });
    expect(TrackingLookupResponseSchema.safeParse({ results: [result], debug: 1 }).success).toBe(false);
    expect(TrackingLookupResponseSchema.safeParse({ results: [{ ...result, stale: 'yes' }] }).success).toBe(
      false,
    );
  });
});
