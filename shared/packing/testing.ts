import { expect } from 'vitest';
import type { Box } from './box.ts';
import { PACKAGE_LIMITS } from './package-limits.ts';
import { boxLength, itemLength, type Vec } from './placement.ts';
import { type PackingItem, PlanShipmentOutputSchema, type PlanShipmentResult } from './plan.ts';
import { packOrder } from './planner.ts';

/** A box for the packer's tests: 100 g of tare, 30 kg at most, unless told otherwise. */
export const box = (id: string, sides: Vec, more: Partial<Box> = {}): Box => ({
  id,
  comprimento: sides[0],
  largura: sides[1],
  altura: sides[2],
  tareGrams: 100,
  maxWeightGrams: 30_000,
  ...more,
});

/** A product line for the packer's tests: one unit of 100 g unless told otherwise. */
export const item = (id: string, sides: Vec, quantity = 1, weightGrams = 100): PackingItem => ({
  id,
  comprimento: sides[0],
  largura: sides[1],
  altura: sides[2],
  weightGrams,
  quantity,
});

/** Three boxes, small to large. */
export const CATALOGUE = [
  box('P', [20, 15, 10]),
  box('M', [30, 20, 20], { tareGrams: 200 }),
  box('G', [50, 40, 30], { tareGrams: 400 }),
];

export const ascending = (v: readonly number[]) => [...v].sort((a, b) => a - b);

/** The test's own rule, in centimetres: sorted sides within sorted sides, and the weight within what the box carries. */
export function carries(b: Box, it: PackingItem): boolean {
  const [s, m, l] = ascending([it.comprimento, it.largura, it.altura]);
  const [bs, bm, bl] = ascending([b.comprimento, b.largura, b.altura]);
  const fitsBySize = (s ?? 0) <= (bs ?? 0) && (m ?? 0) <= (bm ?? 0) && (l ?? 0) <= (bl ?? 0);
  return (
    fitsBySize && it.weightGrams <= Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams
  );
}

export const innerVolume = (b: Box) => b.comprimento * b.largura * b.altura;

/** Whether two blocks (position and extent per axis) share any volume. */
export function overlap(a: { at: Vec; size: Vec }, b: { at: Vec; size: Vec }): boolean {
  return [0, 1, 2].every((k) => {
    const axis = k as 0 | 1 | 2;
    return a.at[axis] < b.at[axis] + b.size[axis] && b.at[axis] < a.at[axis] + a.size[axis];
  });
}

/** Every promise of the plan, checked against the boxes' coordinates as well as against the answer. */
export function checkPlan(items: PackingItem[], boxes: Box[], result: PlanShipmentResult) {
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
