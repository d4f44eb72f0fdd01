import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssues } from '../issues.ts';
import { BoxesSchema, BoxSchema, MAX_BOXES } from './box.ts';

const box = { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 20_000 };
const problem = (value: unknown) => {
  const parsed = BoxesSchema.safeParse(value);
  if (parsed.success) return undefined;
  return describeIssues(parsed.error.issues, 1);
};

describe('BoxesSchema (BFF_BOXES)', () => {
  it('accepts boxes within the carrier limits, sides in any order, a maximum above 30 kg', () => {
    const boxes = [
      box,
      { ...box, id: 'G', comprimento: 40, largura: 100, altura: 60, maxWeightGrams: 45_000 },
    ];
    expect(BoxesSchema.parse(boxes)).toEqual(boxes);
    expect(BoxesSchema.parse([])).toEqual([]);
    // the carrier's minimum box itself, in any order of its sides
    const smallest = { ...box, id: 'PP', comprimento: 1, largura: 15, altura: 10 };
    expect(BoxesSchema.parse([smallest])).toEqual([smallest]);
  });

  it.each([
    [
      { ...box, comprimento: 101 },
      /^0: box "M" has a side of 101 cm; the carrier takes at most 100 cm a side$/,
    ],
    [{ ...box, comprimento: 100, largura: 60, altura: 41 }, /^0: box "M" has sides that add up to 201 cm/],
    [
      { ...box, comprimento: 14, largura: 10, altura: 5 },
      /^0: box "M" is smaller than the carrier's minimum box of 15 × 10 × 1 cm$/,
    ],
    [{ ...box, comprimento: 15, largura: 9.9, altura: 5 }, /minimum box/],
    [{ ...box, comprimento: 15, largura: 10, altura: 0.9 }, /minimum box/],
    [{ ...box, tareGrams: 20_000 }, /^0: box "M" weighs 20000 g empty, so it can carry nothing/],
    [{ ...box, tareGrams: 30_000, maxWeightGrams: 40_000 }, /can carry nothing \(at most 30000 g packed\)/],
    [{ ...box, tareGrams: 12.5 }, /^0.tareGrams: expected int/],
    [{ ...box, maxWeightGrams: 0 }, /^0.maxWeightGrams: must be > 0/],
    [{ ...box, altura: 0 }, /^0.altura: must be > 0/],
    [{ ...box, id: '' }, /^0.id: must have at least 1 characters/],
    [{ ...box, inner: true }, /^0: unknown property inner/],
  ])('refuses %j, naming the box and what is wrong', (bad, message) => {
    expect(problem([bad])).toMatch(message);
  });

  it('refuses an id given twice and more than the maximum number of boxes', () => {
    expect(problem([box, { ...box, comprimento: 40 }])).toBe('1: box id "M" is given twice');
    const many = Array.from({ length: MAX_BOXES + 1 }, (_, i) => ({ ...box, id: `b${i}` }));
    expect(BoxesSchema.safeParse(many).error?.issues[0]?.message).toBe(
      `must list at most ${MAX_BOXES} boxes`,
    );
    expect(BoxesSchema.safeParse(many.slice(1)).success).toBe(true);
  });

  it('describes every field for the people and agents who read the schema', () => {
    const json = z.toJSONSchema(BoxSchema) as { properties?: Record<string, { description?: string }> };
    for (const field of ['id', 'comprimento', 'largura', 'altura', 'tareGrams', 'maxWeightGrams'])
      expect(json?.properties?.[field]?.description, field).toBeTruthy();
  });
});
