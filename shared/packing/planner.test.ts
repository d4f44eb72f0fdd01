import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Box, BoxesSchema } from './box.ts';
import { PACKAGE_LIMITS } from './package-limits.ts';
import { boxLength, itemLength, type Vec } from './placement.ts';
import {
  isPlanRefusal,
  type PackingItem,
  PlanShipmentOutputSchema,
  PlanShipmentRefusalSchema,
  type PlanShipmentResult,
} from './plan.ts';
import { packOrder, planShipment, volumesAtLeast } from './planner.ts';

const box = (id: string, sides: Vec, more: Partial<Box> = {}): Box => ({
  id,
  comprimento: sides[0],
  largura: sides[1],
  altura: sides[2],
  tareGrams: 100,
  maxWeightGrams: 30_000,
  ...more,
});

const item = (id: string, sides: Vec, quantity = 1, weightGrams = 100): PackingItem => ({
  id,
  comprimento: sides[0],
  largura: sides[1],
  altura: sides[2],
  weightGrams,
  quantity,
});

const CATALOGUE = [
  box('P', [20, 15, 10]),
  box('M', [30, 20, 20], { tareGrams: 200 }),
  box('G', [50, 40, 30], { tareGrams: 400 }),
];

function plan(items: PackingItem[], boxes: Box[] = CATALOGUE) {
  const result = planShipment({ items }, boxes);
  if (isPlanRefusal(result)) throw new Error(`refused: ${result.message}`);
  return PlanShipmentOutputSchema.parse(result).volumes;
}

describe('plans a label could never number (over 999 volumes)', () => {
  it('refuses 50 lines × 999 units of a box each before packing, naming the limit', () => {
    const attack = Array.from({ length: 50 }, (_, i) => item(`sku-${i}`, [30, 20, 18 + (i % 3)], 999, 1500));
    expect(volumesAtLeast(attack, CATALOGUE)).toBeGreaterThan(999);
    const refusal = PlanShipmentRefusalSchema.parse(planShipment({ items: attack }, CATALOGUE));
    expect(refusal.reason).toBe('too_many_volumes');
    expect(refusal.message).toMatch(/needs at least \d+ volumes; a label names volumes 1 to 999/);
  });

  it('counts units that cannot share the largest box, by size or by weight, one volume each', () => {
    expect(volumesAtLeast([item('big', [45, 35, 25], 7)], CATALOGUE)).toBe(7);
    expect(volumesAtLeast([item('heavy', [5, 5, 5], 3, 16_000)], CATALOGUE)).toBe(3);
  });
});

describe('planShipment, examples', () => {
  it('puts a single small item in the smallest box', () => {
    expect(plan([item('anel', [5, 5, 3], 1, 40)])).toEqual([
      {
        box: 'P',
        items: [{ id: 'anel', quantity: 1 }],
        weightGrams: 140,
        dimensions: { comprimento: 20, largura: 15, altura: 10 },
      },
    ]);
  });

  it("ships two identical boxes' worth of items as two volumes of that box", () => {
    const volumes = plan([item('tijolo', [50, 40, 15], 4, 1000)]);
    expect(volumes).toHaveLength(2);
    for (const volume of volumes) {
      expect(volume).toMatchObject({ box: 'G', items: [{ id: 'tijolo', quantity: 2 }], weightGrams: 2400 });
    }
  });

  it('prefers one larger box to two smaller ones (fewest boxes first)', () => {
    // Two 20 × 15 × 10 units: one per P, or both in one M (30 × 20 × 20).
    expect(plan([item('caixa', [20, 15, 10], 2)]).map((v) => v.box)).toEqual(['M']);
  });

  it('moves the last, partly filled volume to the smallest box that holds it', () => {
    // G holds two 50 × 40 × 15 units; the third goes alone in the smallest box it fits (G again), but a small extra
    // unit that does not fit beside them goes in P.
    const volumes = plan([item('tijolo', [50, 40, 15], 2, 1000), item('anel', [5, 5, 3], 1, 40)]);
    expect(volumes.map((v) => v.box)).toEqual(['G', 'P']);
  });

  it('turns a unit to make it fit (any of the six orientations)', () => {
    // 10 × 30 × 14 fits M (30 × 20 × 20) only lying on another side.
    expect(plan([item('vaso', [10, 14, 30], 1)]).map((v) => v.box)).toEqual(['M']);
  });

  it('splits a line across volumes when the weight, not the size, runs out', () => {
    // 40 units of 1 kg fit G by size (4,000 cm³ of 60,000), but at most 29.6 kg of contents go in one box.
    const volumes = plan([item('halter', [10, 10, 10], 40, 1000)]);
    expect(volumes.map((v) => v.items[0]?.quantity).reduce((a = 0, b = 0) => a + b, 0)).toBe(40);
    expect(volumes).toHaveLength(2);
    for (const volume of volumes)
      expect(volume.weightGrams).toBeLessThanOrEqual(PACKAGE_LIMITS.maxWeightGrams);
  });

  it("keeps each volume within its own box's maximum weight, below the carrier's", () => {
    const light = [box('fraca', [50, 40, 30], { tareGrams: 300, maxWeightGrams: 5_000 })];
    // 4,700 g of contents a box: 5 books of 800 g, though 12 would fit by size.
    const volumes = plan([item('livro', [20, 14, 3], 12, 800)], light);
    expect(volumes.map((v) => v.weightGrams)).toEqual([300 + 5 * 800, 300 + 5 * 800, 300 + 2 * 800]);
  });

  it('counts in tenths of a millimetre: three 10.1 cm units fill 30.3 cm, three of 10.11 cm do not', () => {
    const exact = [box('justa', [30.3, 10, 10])];
    expect(plan([item('a', [10.1, 10, 10], 3)], exact)).toHaveLength(1);
    expect(plan([item('a', [10.11, 10, 10], 3)], exact)).toHaveLength(2);
  });

  it('places 999 units of 50 lines (49,950 units) exactly once each', () => {
    const items = Array.from({ length: 50 }, (_, i) =>
      item(`sku-${i}`, [2 + (i % 7), 1 + (i % 5), 1 + (i % 3)], 999, 5 + i),
    );
    const volumes = plan(items);
    for (const line of items) {
      const placed = volumes.flatMap((v) => v.items).filter((entry) => entry.id === line.id);
      expect(placed.reduce((sum, entry) => sum + entry.quantity, 0)).toBe(999);
    }
  });

  it('ships a large heavy line in as few boxes as the weight allows, the rest in the smallest box that holds it', () => {
    // 999 cubes of 10 cm and 2 kg: at most 14 a box by weight (29.6–29.9 kg of contents); G is the smallest box
    // that takes 14 of them (M holds 12), and M takes the last 5.
    const volumes = plan([item('peso', [10, 10, 10], 999, 2_000)]);
    expect(volumes).toHaveLength(Math.ceil(999 / 14));
    expect(volumes.slice(0, -1).every((v) => v.box === 'G' && v.items[0]?.quantity === 14)).toBe(true);
    expect(volumes.at(-1)).toMatchObject({
      box: 'M',
      items: [{ id: 'peso', quantity: 5 }],
      weightGrams: 10_200,
    });
  });

  it('refuses an item that fits no box, naming it', () => {
    const result = planShipment(
      { items: [item('anel', [5, 5, 3]), item('esqui', [170, 12, 4]), item('prancha', [180, 50, 8])] },
      CATALOGUE,
    );
    expect(PlanShipmentRefusalSchema.parse(result)).toEqual({
      reason: 'item_does_not_fit',
      itemId: 'esqui',
      message: expect.stringMatching(
        /"esqui" \(170 × 12 × 4 cm\) fits no configured box.*"G", 50 × 40 × 30 cm/,
      ),
    });
  });

  it('refuses an item heavier than any box that fits it can carry, naming the weight', () => {
    // Fits every box by size; P carries the most contents (30,000 g less its 100 g tare), 50 g too little.
    const result = planShipment({ items: [item('bigorna', [10, 10, 10], 1, 29_950)] }, CATALOGUE);
    expect(result).toEqual({
      reason: 'item_does_not_fit',
      itemId: 'bigorna',
      message: expect.stringMatching(/weighs 29950 g; the boxes it fits carry at most 29900 g/),
    });
  });

  it('throws instead of looping when packOrder is called for a unit that fits no box', () => {
    expect(() => packOrder([item('esqui', [170, 12, 4])], CATALOGUE)).toThrow(/fits no box/);
  });

  it('refuses when no boxes are configured', () => {
    expect(planShipment({ items: [item('anel', [5, 5, 3])] }, [])).toMatchObject({
      reason: 'no_boxes_configured',
      message: expect.stringContaining('BFF_BOXES'),
    });
  });
});

/** Lengths in tenths of a centimetre, as merchants write them (22.5 cm). */
const tenths = (min: number, max: number) =>
  fc.integer({ min: Math.round(min * 10), max: max * 10 }).map((n) => n / 10);

/** A box as `BFF_BOXES` accepts it (sides in any order, maximum weight sometimes above the carrier's). */
const boxArbitrary = fc
  .record({
    comprimento: tenths(1, 100),
    largura: tenths(1, 100),
    altura: tenths(1, 100),
    tareGrams: fc.integer({ min: 0, max: 2_000 }),
    load: fc.integer({ min: 1, max: 40_000 }),
  })
  .map(({ load, ...rest }) => ({ id: '', ...rest, maxWeightGrams: rest.tareGrams + load }));

const boxesArbitrary = fc
  .array(boxArbitrary, { minLength: 1, maxLength: 5 })
  .map((boxes) => boxes.map((b, i) => ({ ...b, id: `caixa-${i}` })))
  .filter((boxes) => BoxesSchema.safeParse(boxes).success);

const itemArbitrary = fc.record({
  comprimento: fc.oneof(
    { arbitrary: tenths(0.1, 40), weight: 4 },
    { arbitrary: tenths(0.1, 120), weight: 1 },
  ),
  largura: tenths(0.1, 20),
  altura: fc.oneof({ arbitrary: tenths(0.1, 15), weight: 20 }, { arbitrary: tenths(0.1, 110), weight: 1 }),
  weightGrams: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 3_000 }), weight: 4 },
    fc.integer({ min: 1, max: 35_000 }),
  ),
  quantity: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 3 },
    fc.integer({ min: 1, max: 300 }),
  ),
});

const itemsArbitrary = fc
  .array(itemArbitrary, { minLength: 1, maxLength: 8 })
  .map((items) => items.map((it, i) => ({ id: `sku-${i}`, ...it })));

const ascending = (v: readonly number[]) => [...v].sort((a, b) => a - b);

/** The test's own rule, in centimetres: sorted sides within sorted sides, and the weight within what the box carries. */
function carries(b: Box, it: PackingItem): boolean {
  const [s, m, l] = ascending([it.comprimento, it.largura, it.altura]);
  const [bs, bm, bl] = ascending([b.comprimento, b.largura, b.altura]);
  const fitsBySize = (s ?? 0) <= (bs ?? 0) && (m ?? 0) <= (bm ?? 0) && (l ?? 0) <= (bl ?? 0);
  return (
    fitsBySize && it.weightGrams <= Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams
  );
}

const innerVolume = (b: Box) => b.comprimento * b.largura * b.altura;

/** Whether two blocks (position and extent per axis) share any volume. */
function overlap(a: { at: Vec; size: Vec }, b: { at: Vec; size: Vec }): boolean {
  return [0, 1, 2].every((k) => {
    const axis = k as 0 | 1 | 2;
    return a.at[axis] < b.at[axis] + b.size[axis] && b.at[axis] < a.at[axis] + a.size[axis];
  });
}

/** Every promise of the plan, checked against the boxes' coordinates as well as against the answer. */
function checkPlan(items: PackingItem[], boxes: Box[], result: PlanShipmentResult) {
  const volumes = PlanShipmentOutputSchema.parse(result).volumes;
  // Every unit placed exactly once.
  for (const it of items) {
    const entries = volumes.flatMap((v) => v.items.filter((e) => e.id === it.id));
    expect(entries.every((e) => e.quantity >= 1)).toBe(true);
    expect(entries.reduce((sum, e) => sum + e.quantity, 0)).toBe(it.quantity);
  }
  for (const volume of volumes) {
    const b = boxes.find((candidate) => candidate.id === volume.box) as Box;
    expect(new Set(volume.items.map((e) => e.id)).size).toBe(volume.items.length);
    expect(volume.items.every((e) => items.some((it) => it.id === e.id))).toBe(true);
    // Weight: the tare plus the contents, within the box and the carrier.
    const content = volume.items.reduce(
      (sum, e) => sum + e.quantity * (items.find((it) => it.id === e.id) as PackingItem).weightGrams,
      0,
    );
    expect(volume.weightGrams).toBe(b.tareGrams + content);
    expect(volume.weightGrams).toBeLessThanOrEqual(Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams));
    const [c, l, a] = ascending([b.comprimento, b.largura, b.altura]).reverse();
    expect(volume.dimensions).toEqual({ comprimento: c, largura: l, altura: a });
  }
  // Geometry: each block of units inside its box, turned from its item's sides, and no two blocks overlapping.
  // Units inside one block are a grid of equal cells, so disjoint blocks mean disjoint units.
  const loads = packOrder(items, boxes);
  expect(loads.map((load) => boxes[load.type.box]?.id)).toEqual(volumes.map((v) => v.box));
  for (const [index, load] of loads.entries()) {
    const b = boxes[load.type.box] as Box;
    const inner = [boxLength(b.comprimento), boxLength(b.largura), boxLength(b.altura)];
    const placed = load.blocks.map((block) => {
      const it = items[block.item] as PackingItem;
      const sides = [itemLength(it.comprimento), itemLength(it.largura), itemLength(it.altura)];
      expect(ascending(block.unit)).toEqual(ascending(sides));
      expect(block.grid.every((n) => Number.isInteger(n) && n >= 1)).toBe(true);
      const size: Vec = [
        block.unit[0] * block.grid[0],
        block.unit[1] * block.grid[1],
        block.unit[2] * block.grid[2],
      ];
      for (const axis of [0, 1, 2] as const) {
        expect(block.at[axis]).toBeGreaterThanOrEqual(0);
        expect(block.at[axis] + size[axis]).toBeLessThanOrEqual(inner[axis] ?? 0);
      }
      return { at: block.at, size };
    });
    for (let i = 0; i < placed.length; i++)
      for (let j = i + 1; j < placed.length; j++)
        expect(overlap(placed[i] as (typeof placed)[0], placed[j] as (typeof placed)[0])).toBe(false);
    const units = items.map((_, i) =>
      load.blocks
        .filter((block) => block.item === i)
        .reduce((sum, block) => sum + block.grid[0] * block.grid[1] * block.grid[2], 0),
    );
    const told = items.map((it) => volumes[index]?.items.find((e) => e.id === it.id)?.quantity ?? 0);
    expect(units).toEqual(told);
  }
}

describe('the checks of the properties below', () => {
  it('find a lost unit, a wrong weight and an overlap, so the properties can fail', () => {
    const items = [item('a', [10, 10, 10], 2)];
    const good = planShipment({ items }, CATALOGUE);
    expect(() => checkPlan(items, CATALOGUE, good)).not.toThrow();
    const volumes = PlanShipmentOutputSchema.parse(good).volumes;
    const lost = { volumes: volumes.map((v) => ({ ...v, items: [{ id: 'a', quantity: 1 }] })) };
    expect(() => checkPlan(items, CATALOGUE, lost)).toThrow();
    const heavier = { volumes: volumes.map((v) => ({ ...v, weightGrams: v.weightGrams + 1 })) };
    expect(() => checkPlan(items, CATALOGUE, heavier)).toThrow();
    expect(overlap({ at: [0, 0, 0], size: [10, 10, 10] }, { at: [9, 9, 9], size: [5, 5, 5] })).toBe(true);
    expect(overlap({ at: [0, 0, 0], size: [10, 10, 10] }, { at: [10, 0, 0], size: [5, 5, 5] })).toBe(false);
  });
});

describe('planShipment, properties (random items and boxes)', () => {
  it('places every unit exactly once, within its box, its weights and the carrier, with no overlap; or refuses exactly when some item fits no box', () => {
    const seen = { refused: 0, planned: 0, severalVolumes: 0 };
    fc.assert(
      fc.property(itemsArbitrary, boxesArbitrary, (items, boxes) => {
        const result = planShipment({ items }, boxes);
        const misfit = items.find((it) => !boxes.some((b) => carries(b, it)));
        if (misfit) {
          seen.refused++;
          expect(result).toMatchObject({ reason: 'item_does_not_fit', itemId: misfit.id });
          expect(PlanShipmentRefusalSchema.safeParse(result).success).toBe(true);
          return;
        }
        seen.planned++;
        checkPlan(items, boxes, result);
        if (!isPlanRefusal(result) && result.volumes.length > 1) seen.severalVolumes++;
      }),
      { numRuns: 300 },
    );
    // The generator reaches both answers, and plans of several volumes, so each check above ran.
    expect(seen.refused).toBeGreaterThan(30);
    expect(seen.planned).toBeGreaterThan(100);
    expect(seen.severalVolumes).toBeGreaterThan(50);
  });

  it('never plans fewer volumes than volumesAtLeast says (it is a lower bound)', () => {
    fc.assert(
      fc.property(itemsArbitrary, boxesArbitrary, (items, boxes) => {
        const result = planShipment({ items }, boxes);
        fc.pre(!isPlanRefusal(result));
        expect(volumesAtLeast(items, boxes)).toBeLessThanOrEqual(result.volumes.length);
      }),
      { numRuns: 200 },
    );
  });

  it('answers the same plan for the same input', () => {
    fc.assert(
      fc.property(itemsArbitrary, boxesArbitrary, (items, boxes) => {
        expect(planShipment(structuredClone({ items }), structuredClone(boxes))).toEqual(
          planShipment({ items }, boxes),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('puts a single unit in the smallest box that carries it', () => {
    fc.assert(
      fc.property(itemArbitrary, boxesArbitrary, (drawn, boxes) => {
        const single = { id: 'sku', ...drawn, quantity: 1 };
        const smallest = boxes
          .filter((b) => carries(b, single))
          .sort((a, b) => innerVolume(a) - innerVolume(b))[0];
        fc.pre(smallest !== undefined);
        const volumes = PlanShipmentOutputSchema.parse(planShipment({ items: [single] }, boxes)).volumes;
        expect(volumes).toHaveLength(1);
        expect(innerVolume(boxes.find((b) => b.id === volumes[0]?.box) as Box)).toBe(
          innerVolume(smallest as Box),
        );
      }),
    );
  });

  it('uses one volume when the whole order fits one box as a grid of its units', () => {
    fc.assert(
      fc.property(itemArbitrary, boxesArbitrary, (drawn, boxes) => {
        const it = { id: 'sku', ...drawn };
        const holds = (b: Box) => {
          const unit = ascending([it.comprimento, it.largura, it.altura]);
          const inner = ascending([b.comprimento, b.largura, b.altura]);
          // The test's own count: the sorted sides against the sorted sides, one grid.
          const grid = unit.reduce((n, side, k) => n * Math.floor((inner[k] ?? 0) / side + 1e-9), 1);
          return grid >= it.quantity && carries(b, { ...it, weightGrams: it.weightGrams * it.quantity });
        };
        fc.pre(boxes.some(holds));
        expect(PlanShipmentOutputSchema.parse(planShipment({ items: [it] }, boxes)).volumes).toHaveLength(1);
      }),
    );
  });
});
