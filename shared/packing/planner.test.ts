import { describe, expect, it } from 'vitest';
import type { Box } from './box.ts';
import { PACKAGE_LIMITS } from './package-limits.ts';
import {
  isPlanRefusal,
  type PackingItem,
  PlanShipmentOutputSchema,
  PlanShipmentRefusalSchema,
} from './plan.ts';
import { packOrder, planShipment, volumesAtLeast } from './planner.ts';
import { box, CATALOGUE, checkPlan, item } from './testing.ts';

// The random properties of the packer are in planner.properties.test.ts (seconds of CPU: `npm test` only, not the
// mutation run, where each mutant would pay them; these examples state each rule on its own).
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
    expect(refusal.message).toContain('Split the order into shipments of fewer units');
  });

  it('plans an order of exactly 999 volumes, one unit a box', () => {
    const big = [item('big', [45, 35, 25], 999)];
    expect(volumesAtLeast(big, CATALOGUE)).toBe(999);
    expect(plan(big)).toHaveLength(999);
  });

  it('refuses an order the bound lets through when its packing needs over 999 volumes', () => {
    // 11 × 11 × 9 cm fills a third of P (20 × 15 × 10), yet only one fits it, in any orientation.
    const awkward = [item('a', [11, 11, 9], 999), item('b', [11, 11, 9], 999)];
    const only = [box('P', [20, 15, 10])];
    expect(volumesAtLeast(awkward, only)).toBeLessThan(999);
    expect(planShipment({ items: awkward }, only)).toEqual({
      reason: 'too_many_volumes',
      message: expect.stringMatching(/^This order packs into 1998 volumes; a label names volumes 1 to 999/),
    });
  });

  it('counts units that cannot share the largest box, by size or by weight, one volume each', () => {
    expect(volumesAtLeast([item('big', [45, 35, 25], 7)], CATALOGUE)).toBe(7);
    expect(volumesAtLeast([item('heavy', [5, 5, 5], 3, 16_000)], CATALOGUE)).toBe(3);
  });

  it('lets a unit over half the room share a box with one over half the load (CI found it: 2 said, 1 planned)', () => {
    const caixa = [{ ...box('caixa', [1, 10, 15]), tareGrams: 0, maxWeightGrams: 6 }];
    const items = [item('largo', [1, 5.9, 12.8], 1, 1), item('pesado', [0.1, 0.1, 0.1], 1, 4)];
    expect(volumesAtLeast(items, caixa)).toBe(1);
    expect(planShipment({ items }, caixa)).toMatchObject({ volumes: [{ box: 'caixa' }] });
    // two of either kind still cannot share
    expect(volumesAtLeast([...items, item('pesado2', [0.1, 0.1, 0.1], 1, 4)], caixa)).toBe(2);
  });

  it('counts the volume of the order over the largest box, an exact multiple as itself', () => {
    const caixa = [box('caixa', [20, 10, 10])];
    // 20 units of 125 cm³ in a box of 2,000 cm³: 2,500 cm³, so 2 boxes at least
    expect(volumesAtLeast([item('cubo', [5, 5, 5], 20, 1)], caixa)).toBe(2);
    // two halves of the box fill exactly one
    expect(volumesAtLeast([item('metade', [10, 10, 10], 2, 1)], caixa)).toBe(1);
  });

  it('counts the weight of the order over the most contents a box carries, an exact multiple as itself', () => {
    const fraca = box('fraca', [20, 10, 10], { maxWeightGrams: 5_100 });
    const forte = box('forte', [20, 10, 10]);
    // 100 kg over the 29.9 kg the strong box carries (the weak one's 5 kg is not the bound): 4 boxes at least
    expect(volumesAtLeast([item('peso', [1, 1, 1], 10, 10_000)], [fraca, forte])).toBe(4);
    // two units of half what a box carries share one
    expect(volumesAtLeast([item('meio', [1, 1, 1], 2, 14_950)], [forte])).toBe(1);
  });

  it('is 0 without boxes: there is nothing to pack into', () => {
    expect(volumesAtLeast([item('anel', [5, 5, 3], 3)], [])).toBe(0);
  });
});

describe('planShipment, examples', () => {
  it('answers whether planShipment refused', () => {
    expect(isPlanRefusal(planShipment({ items: [item('anel', [5, 5, 3])] }, []))).toBe(true);
    expect(isPlanRefusal(planShipment({ items: [item('anel', [5, 5, 3])] }, CATALOGUE))).toBe(false);
  });

  it('puts a single small item in the smallest box, whatever the order of the boxes', () => {
    expect(plan([item('anel', [5, 5, 3], 1, 40)], [...CATALOGUE].reverse()).map((v) => v.box)).toEqual(['P']);
  });

  it('takes an item that weighs exactly what the box may carry', () => {
    // P carries 30,000 g less its 100 g tare
    expect(plan([item('bigorna', [10, 10, 10], 1, 29_900)]).map((v) => v.box)).toEqual(['P']);
  });

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
      message: expect.stringMatching(
        /weighs 29950 g; the boxes it fits carry at most 29900 g of contents \(the box's maximum or the carrier's 30000 g, less its tare\)/,
      ),
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

/** A plan in a line per volume: `box: item×units …`, to compare with what a case expects. */
const summary = (items: PackingItem[], boxes: Box[]) =>
  plan(items, boxes).map((v) => `${v.box}: ${v.items.map((e) => `${e.id}×${e.quantity}`).join(' ')}`);

describe('planShipment, how it packs (each order below takes more boxes, or other boxes, if a rule is dropped)', () => {
  it.each<[string, Box[], PackingItem[], string[]]>([
    [
      'packs the largest units first, so the small ones fill the gaps: 2 boxes, not 3',
      [box('cubo', [15, 25, 25])],
      [item('marcador', [15, 5, 20], 2), item('placa', [20, 5, 25], 4)],
      ['cubo: marcador×1 placa×3', 'cubo: marcador×1 placa×1'],
    ],
    [
      'of units of equal volume, packs the one with the longest side first: 1 box, not 2',
      [box('caixa', [30, 30, 15])],
      [item('cubo', [10, 15, 15], 4), item('vara', [15, 5, 30], 1)],
      ['caixa: cubo×4 vara×1'],
    ],
    [
      'numbers the volumes heaviest first among units alike in size, then in the order requested',
      [box('P', [20, 15, 10])],
      [
        item('leve', [15, 15, 10], 1, 100),
        item('pesado', [15, 15, 10], 1, 900),
        item('outro', [15, 15, 10], 1, 900),
      ],
      ['P: pesado×1', 'P: outro×1', 'P: leve×1'],
    ],
    [
      'moves what the box taking the most took into a smaller box that holds it (two cups lying down)',
      [box('envelope', [30, 15, 5]), box('alta', [20, 10, 20], { maxWeightGrams: 1_200 })],
      [
        item('livro', [10, 25, 5], 1, 1_000),
        item('marcador', [5, 5, 5], 1, 200),
        item('caneca', [5, 15, 15], 2, 500),
      ],
      ['envelope: caneca×2', 'envelope: livro×1 marcador×1'],
    ],
    [
      'uses the first configured of two boxes of the same size',
      [box('A', [35, 20, 10]), box('B', [35, 20, 10]), box('plana', [40, 35, 5])],
      [item('placa', [15, 30, 5], 2), item('tubo', [30, 5, 25], 1)],
      ['A: placa×2', 'plana: tubo×1'],
    ],
    [
      'places each block where it takes the most units: 1 box',
      [box('G', [40, 30, 35]), box('M', [25, 30, 25]), box('chata', [35, 30, 10])],
      [item('caneta', [20, 10, 5], 4), item('caixa', [25, 15, 30], 3)],
      ['G: caneta×4 caixa×3'],
    ],
    [
      'turns the next block to take the most units of what is left: 2 boxes',
      [box('G', [35, 40, 35])],
      [item('bloco', [30, 25, 20], 4), item('vara', [10, 5, 30], 3)],
      ['G: bloco×2 vara×3', 'G: bloco×2'],
    ],
    [
      'keeps the large free spaces for large units',
      [box('P', [25, 15, 20]), box('G', [40, 35, 30]), box('chata', [35, 40, 10])],
      [item('tampa', [30, 30, 10], 3), item('livro', [15, 25, 10], 4)],
      ['G: tampa×3 livro×2', 'P: livro×2'],
    ],
    [
      'puts a block in the smallest free space that takes as many units',
      [
        box('b0', [35, 33, 22], { tareGrams: 283, maxWeightGrams: 11_387 }),
        box('b1', [38, 26, 33], { tareGrams: 29, maxWeightGrams: 14_914 }),
        box('b2', [15, 59, 14], { tareGrams: 234, maxWeightGrams: 6_471 }),
      ],
      [item('i0', [6, 30, 11], 2, 4_650), item('i1', [1, 23, 28], 2, 79), item('i2', [15, 18, 12], 4, 4_979)],
      ['b1: i0×1 i1×2 i2×2', 'b1: i0×1 i2×2'],
    ],
    [
      'measures a free space by its volume to choose the smallest: 1 box',
      [box('M', [25, 20, 15]), box('G', [25, 40, 40])],
      [item('placa', [5, 30, 20], 2), item('painel', [5, 20, 30], 2), item('barra', [25, 10, 10], 6)],
      ['G: placa×2 painel×2 barra×6'],
    ],
    [
      'cuts the free space so that the largest piece is left whole',
      [box('P', [20, 10, 10]), box('M', [35, 30, 15]), box('G', [30, 35, 40])],
      [item('cubo', [20, 20, 20], 3), item('placa', [10, 30, 25], 4)],
      ['G: cubo×2 placa×1', 'G: cubo×1 placa×2', 'M: placa×1'],
    ],
    [
      'cuts along the axis that leaves the largest piece, not the last one tried',
      [box('M', [30, 30, 15]), box('G', [40, 30, 40])],
      [item('caixa', [20, 10, 15], 1), item('vara', [10, 10, 30], 2)],
      ['M: caixa×1 vara×2'],
    ],
    [
      'keeps a thin free space while a unit that fits it is still to pack',
      [box('P', [20, 15, 15]), box('M', [40, 15, 15]), box('chata', [20, 20, 10])],
      [item('regua', [20, 10, 5], 6), item('lapis', [5, 5, 15], 6), item('caixa', [15, 20, 15], 6)],
      ['M: caixa×2', 'M: caixa×2', 'M: caixa×2', 'M: regua×6 lapis×6'],
    ],
    [
      'fills whole layers, then whole rows, then a row',
      [
        box('M', [25, 25, 15], { maxWeightGrams: 9_000 }),
        box('P', [25, 20, 10], { maxWeightGrams: 8_000 }),
        box('G', [30, 40, 20], { maxWeightGrams: 3_000 }),
      ],
      [item('a', [20, 5, 25], 2, 2_000), item('b', [30, 10, 20], 5, 1_500), item('c', [20, 5, 20], 3, 1_000)],
      ['G: b×1 c×1', 'G: b×1 c×1', 'G: b×1 c×1', 'G: b×1', 'G: b×1', 'P: a×2'],
    ],
  ])('%s', (_why, boxes, items, expected) => {
    const result = planShipment({ items }, boxes);
    checkPlan(items, boxes, result);
    expect(summary(items, boxes)).toEqual(expected);
  });
});
