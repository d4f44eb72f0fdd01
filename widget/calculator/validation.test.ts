import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHT_KG } from '../../shared/quote.ts';
import { isRatesResponse } from '../validators/generated.js';
import { errorCodeOf, parseItems } from './validation.ts';

const shirt = { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 };

describe("parseItems: the store's cart as the platform takes it (spec 2.1)", () => {
  it("keeps the four fields of each line and drops what the store's objects carry besides", () => {
    expect(parseItems([{ ...shirt, sku: 'TS-01', image: '/a.png' }])).toEqual([shirt]);
  });

  it('fills the default weight when a line has none', () => {
    expect(parseItems([{ name: 'Caneca', quantity: 1, unitPriceBRL: 35 }])).toEqual([
      { name: 'Caneca', quantity: 1, unitPriceBRL: 35, weightKg: DEFAULT_WEIGHT_KG },
    ]);
  });

  it('accepts 50 lines and refuses 51 (spec 8); [] is the empty cart', () => {
    expect(parseItems(Array.from({ length: 50 }, () => shirt))).toHaveLength(50);
    expect(parseItems(Array.from({ length: 51 }, () => shirt))).toBeUndefined();
    expect(parseItems([])).toEqual([]);
  });

  it('treats a weight left undefined by the store as no weight (the default)', () => {
    expect(parseItems([{ ...shirt, weightKg: undefined }])).toEqual([
      { ...shirt, weightKg: DEFAULT_WEIGHT_KG },
    ]);
  });

  it.each([
    ['not a list', { items: [shirt] }],
    ['a string', '[{"name":"x"}]'],
    ['null', null],
    ['a null line', [shirt, null]],
    ['a line without a name', [{ quantity: 1, unitPriceBRL: 10 }]],
    ['a fractional quantity', [{ ...shirt, quantity: 1.5 }]],
    ['a zero quantity', [{ ...shirt, quantity: 0 }]],
    ['a negative price', [{ ...shirt, unitPriceBRL: -1 }]],
    ['a price as text', [{ ...shirt, unitPriceBRL: '79.90' }]],
    ['a zero weight', [{ ...shirt, weightKg: 0 }]],
    ['an infinite price (JSON would send null)', [{ ...shirt, unitPriceBRL: Number.POSITIVE_INFINITY }]],
    ['a NaN quantity', [{ ...shirt, quantity: Number.NaN }]],
    ['a Date as the name (JSON would send another text)', [{ ...shirt, name: new Date(0) }]],
  ])('refuses %s as a whole (one bad line is a bad cart)', (_, value) => {
    expect(parseItems(value)).toBeUndefined();
  });
});

describe("the platform's answers", () => {
  it('takes a 200 body in the spec 4.1 shape, keeping fields it does not know', () => {
    const body = {
      rates: [
        { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 21.5, extra: 1 },
      ],
    };
    expect(isRatesResponse(body)).toBe(true);
    expect(isRatesResponse({ rates: [], reason: 'no_coverage' })).toBe(true);
  });

  it('refuses a body that breaks the contract', () => {
    expect(isRatesResponse({ rates: [{ code: 'PAC' }] })).toBe(false);
    expect(
      isRatesResponse({
        rates: [{ code: 'PAC', serviceId: 's', label: 'PAC', deliveryDays: 1.5, price: 1 }],
      }),
    ).toBe(false);
    expect(isRatesResponse(undefined)).toBe(false);
  });

  it('reads the spec 7.1 error code, or nothing from a body that is not an error envelope', () => {
    expect(errorCodeOf({ error: { code: 'rate_limited', message: 'Too many requests' } })).toBe(
      'rate_limited',
    );
    expect(errorCodeOf({ error: 'rate_limited' })).toBeUndefined();
    expect(errorCodeOf('<html>')).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });
});
