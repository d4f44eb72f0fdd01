import { describe, expect, it } from 'vitest';
import { centavos } from '../../shared/money.ts';
import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import { QuoteItemSchema } from '../../shared/quote.ts';
import { brlOf, type CartLine, DEFAULT_UNIT_GRAMS, quoteItemsOf, subtotalCents } from './cart.ts';

const line = (over: Partial<CartLine> = {}): CartLine => ({
  name: 'Camiseta',
  quantity: 1,
  unitCents: 1990,
  unitGrams: 300,
  ...over,
});

/** Σ quantity × unitPriceBRL and Σ quantity × weightKg as the platform adds them, to the centavo and the gram. */
function totals(items: ReturnType<typeof quoteItemsOf>) {
  return {
    cents: Math.round(items.reduce((sum, i) => sum + i.quantity * i.unitPriceBRL, 0) * 100),
    grams: Math.round(items.reduce((sum, i) => sum + i.quantity * i.weightKg, 0) * 1000),
  };
}

describe('cart conversions: integers in, the platform’s units out', () => {
  it('counts 3 × R$ 19,90 as 5970 centavos, exactly', () => {
    expect(subtotalCents([line({ quantity: 3 })])).toBe(5970);
    expect(3 * 19.9).not.toBe(59.7); // the float drift the integers avoid
  });

  it('turns centavos and grams into BRL and kg, and back without drift', () => {
    expect(brlOf(1990)).toBe(19.9);
    expect(brlOf(1)).toBe(0.01);
    expect(centavos(19.99)).toBe(1999);
    expect(centavos(0.01)).toBe(1);
    expect(centavos(0.1 + 0.2)).toBe(30);
    for (let cents = 0; cents <= 100_000; cents += 7) expect(centavos(brlOf(cents))).toBe(cents);
    expect(quoteItemsOf([line({ unitGrams: 1234 })])[0]?.weightKg).toBe(1.234);
  });

  it('quotes R$ 0,01 as 0.01 and 999 units as 999', () => {
    const [item] = quoteItemsOf([line({ unitCents: 1, quantity: 999, unitGrams: 10 })]);
    expect(item).toMatchObject({ unitPriceBRL: 0.01, quantity: 999, weightKg: 0.01 });
    expect(totals(quoteItemsOf([line({ unitCents: 1, quantity: 999, unitGrams: 10 })]))).toEqual({
      cents: 999,
      grams: 9990,
    });
  });

  it('quotes a unit of 0 g at the platform’s default weight, never as weightless', () => {
    const [item] = quoteItemsOf([line({ unitGrams: 0, quantity: 2 })]);
    expect(DEFAULT_UNIT_GRAMS).toBe(300);
    expect(item?.weightKg).toBe(0.3);
    expect(QuoteItemSchema.safeParse(item).success).toBe(true);
  });

  it('keeps 50 lines as they are', () => {
    const lines = Array.from({ length: MAX_ITEMS }, (_, i) => line({ name: `p${i}`, unitCents: 100 + i }));
    const items = quoteItemsOf(lines);
    expect(items).toHaveLength(50);
    expect(items.map((i) => i.name)).toEqual(lines.map((l) => l.name));
  });

  it('folds a cart of 120 lines into 50, with the same subtotal and weight, 0 g lines weighed at the default', () => {
    const lines = Array.from({ length: 120 }, (_, i) =>
      line({
        name: `p${i}`,
        quantity: 1 + (i % 3),
        unitCents: 1990 + i,
        unitGrams: i % 10 === 0 ? 0 : 250 + i,
      }),
    );
    const items = quoteItemsOf(lines);
    expect(items).toHaveLength(50);
    expect(items.at(-1)).toMatchObject({ name: '+71 itens', quantity: 1 });
    const weighed = lines.map((l) => ({ ...l, unitGrams: l.unitGrams || 300 }));
    expect(totals(items)).toEqual({
      cents: subtotalCents(lines),
      grams: weighed.reduce((sum, l) => sum + l.quantity * l.unitGrams, 0),
    });
    for (const item of items) expect(QuoteItemSchema.safeParse(item).success).toBe(true);
  });

  it('names a nameless line and cuts a long name, so 50 lines stay inside the platform’s 32,000 bytes', () => {
    const items = quoteItemsOf(
      Array.from({ length: 50 }, () => line({ name: `${'Camiseta de algodão '.repeat(40)}` })),
    );
    expect(items[0]?.name.length).toBe(120);
    expect(JSON.stringify({ destinationCep: '20040020', items }).length).toBeLessThan(32_000);
    expect(quoteItemsOf([line({ name: '  ' })])[0]?.name).toBe('item');
  });
});
