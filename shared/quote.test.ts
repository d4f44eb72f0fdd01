import { describe, expect, it } from 'vitest';
import {
  GetShippingRatesInputSchema,
  GetShippingRatesOutputSchema,
  QuoteItemSchema,
  RateSchema,
  RatesRequestSchema,
  RatesResponseSchema,
} from './quote.ts';

const item = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9 };
const items = (n: number) => Array.from({ length: n }, () => item);

describe('QuoteItemSchema (spec 2.1)', () => {
  it('defaults weightKg to 0.3 when omitted', () => {
    expect(QuoteItemSchema.parse(item).weightKg).toBe(0.3);
  });

  it('accepts quantity 1, price 0 and a positive weight', () => {
    expect(QuoteItemSchema.safeParse({ ...item, quantity: 1, unitPriceBRL: 0, weightKg: 0.01 }).success).toBe(
      true,
    );
  });

  it.each([
    ['quantity 0', { quantity: 0 }],
    ['a fractional quantity', { quantity: 1.5 }],
    ['a negative price', { unitPriceBRL: -0.01 }],
    ['weight 0', { weightKg: 0 }],
    ['a string price', { unitPriceBRL: '79.90' }],
    ['an extra property', { sku: 'X' }],
  ])('rejects %s', (_, change) => {
    expect(QuoteItemSchema.safeParse({ ...item, ...change }).success).toBe(false);
  });

  it('rejects an item without a name', () => {
    expect(QuoteItemSchema.safeParse({ quantity: 1, unitPriceBRL: 1 }).success).toBe(false);
  });
});

describe('RatesRequestSchema (spec 4.1)', () => {
  it('accepts 1 and 50 items and normalizes the CEP', () => {
    expect(RatesRequestSchema.parse({ destinationCep: '20040-020', items: items(1) }).destinationCep).toBe(
      '20040020',
    );
    expect(RatesRequestSchema.safeParse({ destinationCep: '20040020', items: items(50) }).success).toBe(true);
  });

  it('rejects 0 and 51 items', () => {
    expect(RatesRequestSchema.safeParse({ destinationCep: '20040020', items: [] }).success).toBe(false);
    expect(RatesRequestSchema.safeParse({ destinationCep: '20040020', items: items(51) }).success).toBe(
      false,
    );
  });

  it('accepts and keeps an optional requestId and ignores-by-accepting instanceId', () => {
    const parsed = RatesRequestSchema.parse({
      destinationCep: '20040020',
      items: items(1),
      requestId: 'r1',
      instanceId: 'x',
    });
    expect(parsed.requestId).toBe('r1');
  });

  it('rejects an unknown property and a bad CEP', () => {
    expect(
      RatesRequestSchema.safeParse({ destinationCep: '20040020', items: items(1), cep: 'x' }).success,
    ).toBe(false);
    expect(RatesRequestSchema.safeParse({ destinationCep: '2004002', items: items(1) }).success).toBe(false);
  });
});

describe('RateSchema (spec 2.2)', () => {
  const rate = { code: '03298', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 24.9 };

  it('takes deliveryDays as an integer in REST and a number in MCP', () => {
    expect(RateSchema.safeParse(rate).success).toBe(true);
    expect(RateSchema.safeParse({ ...rate, deliveryDays: 6.5 }).success).toBe(false);
    expect(GetShippingRatesOutputSchema.safeParse({ rates: [{ ...rate, deliveryDays: 6.5 }] }).success).toBe(
      true,
    );
  });

  it('keeps free optional and boolean', () => {
    expect(RateSchema.parse({ ...rate, price: 0, free: true }).free).toBe(true);
    expect(RateSchema.safeParse({ ...rate, free: 'yes' }).success).toBe(false);
  });
});

describe('RatesResponseSchema', () => {
  it('parses an unknown reason: the reason set is open', () => {
    const parsed = RatesResponseSchema.parse({ rates: [], reason: 'a_reason_added_later' });
    expect(parsed.reason).toBe('a_reason_added_later');
  });

  it('rejects a response without rates', () => {
    expect(RatesResponseSchema.safeParse({ reason: 'no_coverage' }).success).toBe(false);
  });
});

describe('GetShippingRatesInputSchema (spec 4.4.1)', () => {
  it('accepts the listed properties and rejects any other', () => {
    expect(
      GetShippingRatesInputSchema.safeParse({ destinationCep: '20040020', items: items(1), instanceId: 'i' })
        .success,
    ).toBe(true);
    expect(
      GetShippingRatesInputSchema.safeParse({ destinationCep: '20040020', items: items(1), store: 'x' })
        .success,
    ).toBe(false);
  });
});
