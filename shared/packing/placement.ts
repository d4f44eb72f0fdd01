/**
 * Where units go inside one box: a guillotine cut of the free space into disjoint cuboids, filled with blocks of
 * identical units (a grid of `grid[0] × grid[1] × grid[2]` units in one orientation). Lengths are integers in tenths
 * of a millimetre, so "fits" is exact arithmetic, never a floating-point near miss.
 *
 * Why blocks: an order may hold 49,950 units; placing them one at a time costs a scan of every placed unit each
 * (bench figure 8: binpackingjs, unit by unit, took 6–31 s for one order of 558 units; this 0.2 ms). A block places
 * a whole layer or row at once, and free spaces are disjoint by construction, so no overlap check is needed.
 */

/** x, y, z: comprimento, largura, altura of the box as configured. */
export type Vec = readonly [number, number, number];

/** One product line, as the placement sees it. */
export interface UnitType {
  /** The line's index in the request. */
  readonly item: number;
  /** The unit's sides in tenths of a millimetre (rounded up). */
  readonly sides: Vec;
  readonly grams: number;
}

/** One box, as the placement sees it. */
export interface BoxType {
  /** The box's index in the configuration. */
  readonly box: number;
  /** Inner sides in tenths of a millimetre (rounded down). */
  readonly inner: Vec;
  /** What its contents may weigh: the smaller of its own maximum and the carrier's, less its tare. */
  readonly contentGrams: number;
}

/** Units of one line placed as a grid from `at`, each of size `unit` (the line's sides in some orientation). */
export interface Block {
  readonly item: number;
  readonly at: Vec;
  readonly unit: Vec;
  readonly grid: Vec;
}

interface Space {
  readonly at: Vec;
  readonly size: Vec;
}

/** Tenths of a millimetre per centimetre. */
const SCALE = 100;
// Absorbs the binary error of `cm * SCALE` (12.3 * 100 = 1230.0000000000002) without changing a real length.
const EPSILON = 1e-6;

/** An item's side in tenths of a millimetre, rounded up (at least 1), so a fit found here is a real fit. */
export const itemLength = (cm: number): number => Math.max(1, Math.ceil(cm * SCALE - EPSILON));

/** A box's side in tenths of a millimetre, rounded down. */
export const boxLength = (cm: number): number => Math.floor(cm * SCALE + EPSILON);

/** The product of the three: a cuboid's volume, or how many units a grid holds. */
export const volumeOf = (v: Vec): number => v[0] * v[1] * v[2];

/** The distinct orientations of a unit (all six axis-aligned rotations, fewer when sides are equal). */
export function orientations(sides: Vec): Vec[] {
  const [a, b, c] = sides;
  const all: Vec[] = [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ];
  return all.filter((v, i) => all.findIndex((w) => w[0] === v[0] && w[1] === v[1] && w[2] === v[2]) === i);
}

/** Whether a unit fits an empty box in some orientation, by size alone. */
export function fitsEmpty(sides: Vec, inner: Vec): boolean {
  return orientations(sides).some((o) => o[0] <= inner[0] && o[1] <= inner[1] && o[2] <= inner[2]);
}

/** A box being filled: its free spaces, the blocks placed in it, and the weight of its contents. */
export class BoxLoad {
  readonly type: BoxType;
  readonly blocks: Block[] = [];
  contentGrams = 0;
  #spaces: Space[];
  #shortest: number;

  /**
   * `shortest`: the shortest side of any unit that may come (1 when unknown). A free space thinner than it can take
   * nothing, so it is forgotten instead of being looked at for every block (measured: a third of the time of the
   * largest orders).
   */
  constructor(type: BoxType, shortest = 1) {
    this.type = type;
    this.#shortest = shortest;
    this.#spaces = [{ at: [0, 0, 0], size: type.inner }];
  }

  /** Places up to `wanted` units of a line (as many as size and weight allow); returns how many it placed. */
  add(unit: UnitType, wanted: number): number {
    let left = Math.min(wanted, Math.floor((this.type.contentGrams - this.contentGrams) / unit.grams));
    if (left <= 0) return 0;
    let placed = 0;
    const turns = orientations(unit.sides);
    while (left > 0) {
      const fit = this.#bestFit(turns, left);
      if (!fit) break;
      const block: Block = { item: unit.item, at: fit.space.at, unit: fit.unit, grid: fit.grid };
      const pieces = split(fit.space, block).filter((piece) => Math.min(...piece.size) >= this.#shortest);
      this.#spaces.splice(fit.index, 1, ...pieces);
      this.blocks.push(block);
      const n = volumeOf(fit.grid);
      placed += n;
      left -= n;
    }
    this.contentGrams += placed * unit.grams;
    return placed;
  }

  /**
   * The space and orientation that take the most of `left` units; among equals the smallest space (keeping large
   * spaces for large units), then the earliest. Deterministic: no ties left to chance.
   */
  #bestFit(turns: readonly Vec[], left: number) {
    let best: { index: number; unit: Vec; across: Vec; take: number; room: number } | undefined;
    for (let index = 0; index < this.#spaces.length; index++) {
      const [x, y, z] = (this.#spaces[index] as Space).size;
      const room = x * y * z;
      for (const unit of turns) {
        const nx = Math.floor(x / unit[0]);
        const ny = Math.floor(y / unit[1]);
        const nz = Math.floor(z / unit[2]);
        const take = Math.min(nx * ny * nz, left);
        if (take === 0) continue;
        if (best && (take < best.take || (take === best.take && room >= best.room))) continue;
        best = { index, unit, across: [nx, ny, nz], take, room };
      }
    }
    if (!best) return undefined;
    const space = this.#spaces[best.index] as Space;
    return { index: best.index, space, unit: best.unit, grid: gridFor(best.across, best.take) };
  }
}

/** The grid of `take` units (at most `across` fits): whole layers, else whole rows, else a row of `take`. */
function gridFor(across: Vec, take: number): Vec {
  const [nx, ny, nz] = across;
  if (take >= nx * ny * nz) return across;
  if (take >= nx * ny) return [nx, ny, Math.floor(take / (nx * ny))];
  if (take >= nx) return [nx, Math.floor(take / nx), 1];
  return [take, 1, 1];
}

const AXIS_ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/**
 * The free space left when `block` takes the corner of `space`: three disjoint cuboids (guillotine cuts), cut in
 * the axis order that leaves the largest single space. Empty ones are dropped.
 */
export function split(space: Space, block: Block): Space[] {
  const taken: Vec = [
    block.unit[0] * block.grid[0],
    block.unit[1] * block.grid[1],
    block.unit[2] * block.grid[2],
  ];
  let best: Space[] = [];
  let bestLargest = -1;
  for (const order of AXIS_ORDERS) {
    const pieces = cut(space, taken, order);
    const largest = Math.max(0, ...pieces.map((piece) => volumeOf(piece.size)));
    if (largest > bestLargest) {
      best = pieces;
      bestLargest = largest;
    }
  }
  return best;
}

/** Cuts along `order[0]` first (that piece spans the whole space on the other axes), then `order[1]`, `order[2]`. */
function cut(space: Space, taken: Vec, order: readonly [Axis, Axis, Axis]): Space[] {
  const pieces: Space[] = [];
  let extent = space.size;
  for (const axis of order) {
    const piece: Space = {
      at: withAxis(space.at, axis, space.at[axis] + taken[axis]),
      size: withAxis(extent, axis, space.size[axis] - taken[axis]),
    };
    if (volumeOf(piece.size) > 0) pieces.push(piece);
    extent = withAxis(extent, axis, taken[axis]);
  }
  return pieces;
}

type Axis = 0 | 1 | 2;

const withAxis = (v: Vec, axis: Axis, value: number): Vec => [
  axis === 0 ? value : v[0],
  axis === 1 ? value : v[1],
  axis === 2 ? value : v[2],
];
