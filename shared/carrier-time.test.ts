import { describe, expect, it } from 'vitest';
import { carrierDay } from './carrier-time.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/**
 * The carrier's dates are where a transit's days come from (what the promise learns and how a delivery is scored):
 * a date misread by one day moves a promise by one day. Stated here, beside the module (issue 50: its mutants had no
 * test of the `shared` module).
 */
describe('carrierDay', () => {
  it('reads an ISO date, with or without a time, as the civil date it writes', () => {
    expect(carrierDay('2026-11-23')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T14:32')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T14:32:11')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23 14:32:11')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T23:59:59.123456789')).toBe(day('2026-11-23'));
    expect(carrierDay('  2026-11-23T00:00:00 ')).toBe(day('2026-11-23'));
  });

  it('reads a timestamp with an offset as an instant, on São Paulo’s calendar', () => {
    expect(carrierDay('2026-11-23T01:00:00Z')).toBe(day('2026-11-22'));
    expect(carrierDay('2026-11-23T03:00:00Z')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23 01:00:00Z')).toBe(day('2026-11-22'));
    expect(carrierDay('2026-11-23T23:30:00-03:00')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T23:30:00-0300')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T00:30:00+02:00')).toBe(day('2026-11-22'));
    expect(carrierDay('2026-11-23T00:30Z')).toBe(day('2026-11-22'));
  });

  it('reads a Brazilian date, with or without a time', () => {
    expect(carrierDay('23/11/2026')).toBe(day('2026-11-23'));
    expect(carrierDay('23/11/2026 14:32')).toBe(day('2026-11-23'));
    expect(carrierDay('23/11/2026, 14:32:11')).toBe(day('2026-11-23'));
    expect(carrierDay('23/11/2026  14:32')).toBe(day('2026-11-23'));
    expect(carrierDay('01/02/2026 23:59:59')).toBe(day('2026-02-01'));
    expect(carrierDay('29/02/2024')).toBe(day('2024-02-29'));
  });

  it('takes the last minute and second of a day, and not one more', () => {
    expect(carrierDay('2026-11-23T23:59:59')).toBe(day('2026-11-23'));
    expect(carrierDay('2026-11-23T24:00:00')).toBeUndefined();
    expect(carrierDay('2026-11-23T23:60:00')).toBeUndefined();
    expect(carrierDay('2026-11-23T23:59:60')).toBeUndefined();
    expect(carrierDay('23/11/2026 24:00')).toBeUndefined();
    expect(carrierDay('23/11/2026 23:60')).toBeUndefined();
    expect(carrierDay('23/11/2026 23:59:60')).toBeUndefined();
  });

  it.each([
    undefined,
    '',
    'amanhã',
    '2026-02-31',
    '2026-13-01',
    '2026-00-10',
    '2025-02-29',
    // Date.UTC reads years 0–99 as 1900–1999: only the year tells it is not the date written
    '0050-01-01',
    // with an offset, Date.parse would roll these over to a real instant (3 March, the next midnight)
    '2026-02-31T10:00:00Z',
    '2026-11-23T24:00:00Z',
    '31/02/2026',
    '01/13/2026',
    'x2026-11-23',
    '2026-11-23x',
    '2026-11-23T14:32:11x',
    '2026-11-23X14:32',
    '2026-1-23',
    '2026-11-3',
    '26-11-23',
    '2026-11-23T4:32',
    '2026-11-23T14:3',
    '2026-11-23T14:32:1',
    '2026-11-23T14:32:11.',
    '2026-11-23T14:32:11.1234567890',
    '2026-11-23T14:32:11-3:00',
    '2026-11-23T14:32:11+99:99',
    'x23/11/2026',
    '23/11/2026x',
    '23/11/26',
    '3/11/2026',
    '23/1/2026',
    '23/11/2026 4:32',
    '23/11/2026 14:3',
    '23/11/2026 14:32:1',
    '23/11/202614:32',
  ])('is not a date: %j', (text) => {
    expect(carrierDay(text)).toBeUndefined();
  });
});
