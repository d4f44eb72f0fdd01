import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Box, BoxesSchema } from './box.ts';
import { isPlanRefusal, PlanShipmentOutputSchema, PlanShipmentRefusalSchema } from './plan.ts';
import { planShipment, volumesAtLeast } from './planner.ts';
import { ascending, CATALOGUE, carries, checkPlan, innerVolume, item, overlap } from './testing.ts';

/**
 * The packer's promises over random orders and boxes (hundreds of cases, seconds of CPU). They run in `npm test`; the
 * mutation run (scripts/mutation/modules.ts) judges the packer by planner.test.ts's examples instead, where a mutant
 * does not pay these seconds.
 */

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
