import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Block,
  BoxLoad,
  boxLength,
  itemLength,
  orientations,
  split,
  type Vec,
  volumeOf,
} from './placement.ts';

const vec = (max: number) =>
  fc.tuple(fc.integer({ min: 1, max }), fc.integer({ min: 1, max }), fc.integer({ min: 1, max }));

const inside = (outer: { at: Vec; size: Vec }, inner: { at: Vec; size: Vec }) =>
  ([0, 1, 2] as const).every(
    (k) => inner.at[k] >= outer.at[k] && inner.at[k] + inner.size[k] <= outer.at[k] + outer.size[k],
  );
const overlap = (a: { at: Vec; size: Vec }, b: { at: Vec; size: Vec }) =>
  ([0, 1, 2] as const).every((k) => a.at[k] < b.at[k] + b.size[k] && b.at[k] < a.at[k] + a.size[k]);

describe('lengths', () => {
  it('rounds an item up and a box down to tenths of a millimetre, and never to zero', () => {
    expect(itemLength(10.1)).toBe(1010);
    expect(itemLength(12.3)).toBe(1230); // 12.3 * 100 is 1230.0000000000002
    expect(itemLength(10.001)).toBe(1001);
    expect(itemLength(1e-9)).toBe(1);
    expect(boxLength(30.3)).toBe(3030);
    expect(boxLength(0.29 * 3)).toBe(87); // 0.8699999999999999 cm
    expect(boxLength(30.309)).toBe(3030);
  });

  it('keeps an item at least as long, and a box at most as long, as given', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1000, noNaN: true }), (cm) => {
        expect(itemLength(cm) / 100).toBeGreaterThanOrEqual(cm - 1e-8);
        expect(boxLength(cm) / 100).toBeLessThanOrEqual(cm + 1e-8);
      }),
    );
  });
});

describe('orientations', () => {
  it('lists the six rotations of three different sides, and one of a cube', () => {
    expect(orientations([1, 2, 3])).toHaveLength(6);
    expect(orientations([2, 2, 3])).toHaveLength(3);
    expect(orientations([2, 2, 2])).toEqual([[2, 2, 2]]);
  });
});

describe('split', () => {
  it('leaves disjoint spaces inside the old one, beside the block, with the volume the block did not take', () => {
    fc.assert(
      fc.property(vec(50), vec(50), vec(50), (at, size, taken) => {
        const space = { at, size };
        const unit: Vec = [
          Math.min(taken[0], size[0]),
          Math.min(taken[1], size[1]),
          Math.min(taken[2], size[2]),
        ];
        const block: Block = { item: 0, at, unit, grid: [1, 1, 1] };
        const pieces = split(space, block);
        for (const piece of pieces) {
          expect(inside(space, piece)).toBe(true);
          expect(overlap(piece, { at, size: unit })).toBe(false);
          expect(volumeOf(piece.size)).toBeGreaterThan(0);
        }
        for (let i = 0; i < pieces.length; i++)
          for (let j = i + 1; j < pieces.length; j++)
            expect(overlap(pieces[i] as (typeof pieces)[0], pieces[j] as (typeof pieces)[0])).toBe(false);
        const free = pieces.reduce((sum, piece) => sum + volumeOf(piece.size), 0);
        expect(free).toBe(volumeOf(size) - volumeOf(unit));
      }),
    );
  });
});

describe('BoxLoad', () => {
  it('places identical units as one block and stops at the weight it may carry', () => {
    const load = new BoxLoad({ box: 0, inner: [100, 100, 100], contentGrams: 1_000 });
    expect(load.add({ item: 0, sides: [10, 10, 10], grams: 10 }, 1_000)).toBe(100);
    expect(load.blocks).toHaveLength(1);
    expect(load.contentGrams).toBe(1_000);
    expect(load.add({ item: 1, sides: [1, 1, 1], grams: 1 }, 1)).toBe(0);
  });

  it('places 3 units where a row of 2 fits as a row of 2 and one more, every block inside the box', () => {
    const load = new BoxLoad({ box: 0, inner: [20, 20, 10], contentGrams: 1e9 });
    expect(load.add({ item: 0, sides: [10, 10, 10], grams: 1 }, 3)).toBe(3);
    expect(load.blocks.map((block) => block.grid)).toEqual([
      [2, 1, 1],
      [1, 1, 1],
    ]);
    for (const block of load.blocks)
      for (const axis of [0, 1, 2] as const)
        expect(block.at[axis] + block.unit[axis] * block.grid[axis]).toBeLessThanOrEqual(
          load.type.inner[axis],
        );
  });

  it('fills a box exactly with as many units as fit it, in any orientation', () => {
    const load = new BoxLoad({ box: 0, inner: [60, 40, 20], contentGrams: 1e9 });
    expect(load.add({ item: 0, sides: [20, 10, 20], grams: 1 }, 13)).toBe(12);
    expect(load.add({ item: 0, sides: [1, 1, 1], grams: 1 }, 1)).toBe(0);
  });
});
