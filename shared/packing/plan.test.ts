import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssues } from '../issues.ts';
import { MAX_ITEMS } from '../platform-limits.ts';
import { MAX_QUANTITY, PlanShipmentInputSchema } from './plan.ts';

const line = { id: 'caneca', comprimento: 12, largura: 9, altura: 10, weightGrams: 350, quantity: 2 };
const problem = (items: unknown, extra: object = {}) => {
  const parsed = PlanShipmentInputSchema.safeParse({ items, ...extra });
  return parsed.success ? undefined : describeIssues(parsed.error.issues, 1);
};

describe('PlanShipmentInputSchema', () => {
  it(`accepts 1 to ${MAX_ITEMS} lines with decimal sides, and refuses none or ${MAX_ITEMS + 1}`, () => {
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...line, id: `sku-${i}`, altura: 10.5 }));
    expect(problem(lines(1))).toBeUndefined();
    expect(problem(lines(MAX_ITEMS))).toBeUndefined();
    expect(problem([])).toBe('items: must have at least 1 entries');
    expect(problem(lines(MAX_ITEMS + 1))).toBe(`items: must have at most ${MAX_ITEMS} entries`);
  });

  it.each([
    [{ quantity: 0 }, 'items.0.quantity: must be ≥ 1'],
    [{ quantity: MAX_QUANTITY + 1 }, `items.0.quantity: must be ≤ ${MAX_QUANTITY}`],
    [{ quantity: 1.5 }, 'items.0.quantity: expected int'],
    [{ weightGrams: 0 }, 'items.0.weightGrams: must be ≥ 1'],
    [{ weightGrams: 350.5 }, 'items.0.weightGrams: expected int'],
    [{ comprimento: 0 }, 'items.0.comprimento: must be > 0'],
    [{ largura: -3 }, 'items.0.largura: must be > 0'],
    [{ altura: Number.POSITIVE_INFINITY }, 'items.0.altura: expected number'],
    [{ id: '' }, 'items.0.id: must have at least 1 characters'],
    [{ weightKg: 0.35 }, 'items.0: unknown property weightKg'],
  ])('refuses a line with %j', (change, message) => {
    expect(problem([{ ...line, ...change }])).toBe(message);
  });

  it('refuses a property beside items, and the same id on two lines', () => {
    expect(problem([line], { orderId: 'A-1' })).toBe('body: unknown property orderId');
    expect(problem([line, { ...line, quantity: 1 }])).toBe(
      'items.1.id: repeats the id "caneca": give each product line once, with its quantity',
    );
  });

  it('converts to a JSON Schema that describes every field and keeps the bounds', () => {
    const json = z.toJSONSchema(PlanShipmentInputSchema, { io: 'input' }) as unknown as {
      additionalProperties?: boolean;
      properties: {
        items: {
          description?: string;
          maxItems?: number;
          items: {
            additionalProperties?: boolean;
            properties: Record<string, { description?: string; maximum?: number }>;
          };
        };
      };
    };
    const items = json.properties.items;
    expect(json.additionalProperties).toBe(false);
    expect(items.maxItems).toBe(MAX_ITEMS);
    expect(items.description).toBeTruthy();
    expect(items.items.additionalProperties).toBe(false);
    for (const [name, property] of Object.entries(items.items.properties))
      expect(property.description, name).toBeTruthy();
    expect(items.items.properties.quantity?.maximum).toBe(MAX_QUANTITY);
  });
});
