import { describe, expect, it } from 'vitest';
import { arrivalText, type CalculatorPrefs } from './Calculator.tsx';
import { messagesFor } from './messages.ts';

const { t } = messagesFor('pt-BR');
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

describe('arrivalText', () => {
  it('gives the latest arrival date of an option', () => {
    expect(arrivalText(rate(4), prefs, monday, t)).toBe('sex., 27/11');
  });

  it('gives no date, at once, for an absurd deliveryDays from the platform (the browser would count days for hours)', () => {
    // RateSchema only says "an integer": 1e9 business days would be a billion-step loop on the shopper's page.
    expect(arrivalText(rate(1_000_000_000), prefs, monday, t)).toBeUndefined();
    expect(arrivalText(rate(Number.MAX_SAFE_INTEGER), prefs, monday, t)).toBeUndefined();
  });
});
