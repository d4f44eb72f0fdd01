import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centavos } from '../money.ts';
import { declaredValueCents, isWholeCentavos } from './declared-value.ts';

describe('isWholeCentavos: a unit value in BRL has at most two decimal places', () => {
  it.each([0, 0.01, 0.07, 0.1, 0.3, 19.99, 79.9, 1234.56, 2999.99, 3000, 9999.99, 10_000, 1e12])(
    'takes %s',
    (brl) => {
      expect(isWholeCentavos(brl)).toBe(true);
    },
  );

  it('takes every two-decimal figure up to R$ 10.000,00 as JSON states it, and as n / 100 computes it', () => {
    // 19.99 × 100 is 1998.9999999999998: a check on `brl * 100 % 1` would refuse it.
    for (let n = 0; n <= 1_000_000; n++) {
      const text = `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
      if (!isWholeCentavos(JSON.parse(text) as number) || !isWholeCentavos(n / 100)) {
        throw new Error(`refused ${text}`);
      }
    }
    // A million figures is CPU work, not waiting: on a busy machine (and under Stryker's instrumentation) it takes
    // seconds, which says nothing of the rule, so it has a minute rather than the 4 s a hanging call gets.
  }, 60_000);

  it('takes two-decimal figures a client computed in floating point (0.1 + 0.2, 19.99 × 3, 1500 + 0.01)', () => {
    for (const brl of [0.1 + 0.2, 19.99 * 3, 1500 + 0.01, 10_000 + 0.01, 0.07 * 3, 1234.56 - 0.01]) {
      expect(isWholeCentavos(brl), String(brl)).toBe(true);
    }
  });

  it.each([
    0.005, 0.001, 0.009, 0.015, 0.0001, 1e-7, 19.999, 19.991, 19.995, 1234.565, 999.999, 3000.001, 0.304,
    2999.995, 9999.999,
  ])('refuses %s, a third decimal', (brl) => {
    expect(isWholeCentavos(brl)).toBe(false);
  });

  it('refuses a third decimal on any two-decimal figure up to R$ 10.000,00', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 1, max: 9 }),
        (cents, thousandth) => {
          const withThird = (cents * 10 + thousandth) / 1000;
          expect(isWholeCentavos(withThird), String(withThird)).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses %s', (brl) => {
    expect(isWholeCentavos(brl)).toBe(false);
  });
});

describe('centavos', () => {
  it('turns BRL into whole centavos without binary noise', () => {
    expect([19.99, 0.07, 0.1, 0.1 + 0.2, 1234.56, 3000].map(centavos)).toEqual([
      1999, 7, 10, 30, 123456, 300000,
    ]);
  });
});

describe('declaredValueCents: Σ quantidade × valor in centavos', () => {
  it('multiplies each unit value by its quantity: 3 × 19.99 + 0.07 + 0.1 is 6014 centavos', () => {
    expect(
      declaredValueCents([
        { quantidade: 3, valor: 19.99 },
        { quantidade: 1, valor: 0.07 },
        { quantidade: 1, valor: 0.1 },
      ]),
    ).toBe(6014);
    expect(declaredValueCents([{ quantidade: 9_999, valor: 10_000 }])).toBe(9_999_000_000);
  });

  it('is the exact sum of the lines’ centavos, for any declaration of two-decimal unit values', () => {
    const line = fc.record({
      quantidade: fc.integer({ min: 1, max: 9_999 }),
      cents: fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 1_000_000 })),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 50 }), (lines) => {
        const exact = lines.reduce((sum, { quantidade, cents }) => sum + quantidade * cents, 0);
        const items = lines.map(({ quantidade, cents }) => ({ quantidade, valor: cents / 100 }));
        expect(declaredValueCents(items)).toBe(exact);
        // Once unit values are whole centavos, rounding the float total agrees with it too (what the issuer used to
        // count): the disagreement needs a third decimal, which the plausibility rules refuse.
        expect(Math.round(items.reduce((sum, i) => sum + i.quantidade * i.valor, 0) * 100)).toBe(exact);
      }),
      { numRuns: 1_000 },
    );
  });

  it('is where the two roundings part on a third decimal, which is why the rules refuse one', () => {
    const items = [{ quantidade: 9_999, valor: 0.005 }];
    // Rounded per unit: R$ 99,99. Rounded on the float total, as the issuer counted before: R$ 50,00.
    expect(declaredValueCents(items)).toBe(9_999);
    expect(Math.round(9_999 * 0.005 * 100)).toBe(5_000);
    expect(isWholeCentavos(0.005)).toBe(false);
  });
});
