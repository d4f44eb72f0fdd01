import { describe, expect, it } from 'vitest';
import { arrivalOf, type CalculatorPrefs } from './Calculator.tsx';

const prefs: CalculatorPrefs = {
  dated: true,
  handlingDays: 0,
  cutoffMinutes: undefined,
  freeFrom: undefined,
  now: Date.now,
};
const rate = (deliveryDays: number) => ({
  code: 'PAC',
  serviceId: 'PAC',
  label: 'PAC',
  price: 20,
  deliveryDays,
});
const monday = Date.parse('2026-11-23T12:00:00-03:00');

describe('arrivalOf', () => {
  it('gives the latest arrival date of an option', () => {
    expect(arrivalOf(rate(4), prefs, monday)).toBe('2026-11-27');
  });

  it('gives no date, at once, for an absurd deliveryDays from the platform (the browser would count days for hours)', () => {
    // RateSchema only says "an integer": 1e9 business days would be a billion-step loop on the shopper's page.
    expect(arrivalOf(rate(1_000_000_000), prefs, monday)).toBeUndefined();
    expect(arrivalOf(rate(Number.MAX_SAFE_INTEGER), prefs, monday)).toBeUndefined();
  });
});
