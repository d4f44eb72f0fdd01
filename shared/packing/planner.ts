import { MAX_VOLUME } from '../platform-limits.ts';
import type { Box } from './box.ts';
import { PACKAGE_LIMITS, sortedSides } from './package-limits.ts';
import {
  BoxLoad,
  type BoxType,
  boxLength,
  fitsEmpty,
  itemLength,
  type UnitType,
  volumeOf,
} from './placement.ts';
import type {
  PackingItem,
  PlannedVolume,
  PlanShipmentInput,
  PlanShipmentRefusal,
  PlanShipmentResult,
} from './plan.ts';

/**
 * Packs an order into the merchant's boxes (cubagem): every unit in exactly one volume, each volume within its box's
 * inner sides (units turned in any of the six axis-aligned orientations), its box's maximum weight and the carrier's
 * limits for a package; fewest boxes first, then the smallest total box volume. Pure: no I/O, and the same input
 * gives the same plan.
 *
 * Each volume is chosen by filling every box with what is left (largest units first, in blocks) and keeping the
 * box that takes everything (the smallest such), else the one that takes the most (used again while what is left
 * holds all it took); each volume is then moved to the smallest box that holds its contents. A heuristic (bin packing is NP-hard): docs/agents/packing.md has its
 * figures against a first-fit-decreasing baseline and a library.
 *
 * `boxes` are `BoxesSchema` output (within the carrier's size limits, unique ids).
 *
 * @example
 * const plan = planShipment({ items: [{ id: 'caneca', comprimento: 12, largura: 9, altura: 10, weightGrams: 350,
 *   quantity: 4 }] }, config.boxes);
 * if (!isPlanRefusal(plan)) for (const volume of plan.volumes) volume.weightGrams; // one label each
 */
export function planShipment(input: PlanShipmentInput, boxes: readonly Box[]): PlanShipmentResult {
  const refusal = refusalFor(input.items, boxes);
  if (refusal) return refusal;
  const loads = packOrder(input.items, boxes);
  if (loads.length > MAX_VOLUME) return tooManyVolumes(loads.length, 'packs into');
  return { volumes: loads.map((load) => volumeOfLoad(load, input.items, boxes)) };
}

/**
 * No plan can use fewer volumes: the order's volume over the largest box's inner volume, its weight over the most
 * contents a box carries (the carrier's 30 kg included), and each unit too large to share the largest box with
 * another one in a box of its own. Cheap (one pass over the lines), so a plan that could never be labelled is
 * refused before any packing.
 */
export function volumesAtLeast(items: readonly PackingItem[], boxes: readonly Box[]): number {
  if (boxes.length === 0) return 0;
  const types = boxTypes(boxes);
  const largest = Math.max(...types.map((type) => volumeOf(type.inner)));
  const carries = Math.max(...types.map((type) => type.contentGrams));
  let volume = 0;
  let grams = 0;
  // Two units over half the largest box's room never share a box, nor two over half its load; but one of each may.
  let overHalfRoom = 0;
  let overHalfLoad = 0;
  for (const [index, item] of items.entries()) {
    const unit = volumeOf(unitType(item, index).sides);
    volume += unit * item.quantity;
    grams += item.weightGrams * item.quantity;
    if (2 * unit > largest) overHalfRoom += item.quantity;
    if (2 * item.weightGrams > carries) overHalfLoad += item.quantity;
  }
  return Math.max(
    1,
    overHalfRoom,
    overHalfLoad,
    Math.ceil(volume / largest - 1e-9),
    Math.ceil(grams / carries),
  );
}

function tooManyVolumes(volumes: number, verb: 'needs at least' | 'packs into'): PlanShipmentRefusal {
  return {
    reason: 'too_many_volumes',
    message:
      `This order ${verb} ${volumes} volumes; a label names volumes 1 to ${MAX_VOLUME}, so such a plan could never ` +
      'be labelled. Split the order into shipments of fewer units and plan each.',
  };
}

/**
 * The filled boxes of `planShipment`, with every block's place inside its box (what the tests check for overlap).
 * Every unit must fit some box alone (`planShipment` refuses otherwise).
 */
export function packOrder(items: readonly PackingItem[], boxes: readonly Box[]): BoxLoad[] {
  return packAll(
    items.map(unitType),
    items.map((item) => item.quantity),
    boxTypes(boxes),
  );
}

function refusalFor(items: readonly PackingItem[], boxes: readonly Box[]): PlanShipmentRefusal | undefined {
  if (boxes.length === 0) {
    return {
      reason: 'no_boxes_configured',
      message:
        'No boxes are configured: the merchant lists them in BFF_BOXES (inner sides in cm, tare and maximum weight in grams).',
    };
  }
  const types = boxTypes(boxes);
  const item = items.find((item, index) => !types.some((type) => carries(type, unitType(item, index))));
  if (item) return doesNotFit(item, boxes, types);
  const least = volumesAtLeast(items, boxes);
  return least > MAX_VOLUME ? tooManyVolumes(least, 'needs at least') : undefined;
}

/** The boxes from the smallest inner volume to the largest (the configured order among equals). */
function boxTypes(boxes: readonly Box[]): BoxType[] {
  return boxes
    .map((box, index) => ({
      box: index,
      inner: [boxLength(box.comprimento), boxLength(box.largura), boxLength(box.altura)] as const,
      contentGrams: Math.min(box.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - box.tareGrams,
    }))
    .sort((a, b) => volumeOf(a.inner) - volumeOf(b.inner) || a.box - b.box);
}

function unitType(item: PackingItem, index: number): UnitType {
  return {
    item: index,
    sides: [itemLength(item.comprimento), itemLength(item.largura), itemLength(item.altura)],
    grams: item.weightGrams,
  };
}

/** Whether one unit alone fits this box, by size and by weight. */
const carries = (type: BoxType, unit: UnitType): boolean =>
  unit.grams <= type.contentGrams && fitsEmpty(unit.sides, type.inner);

/** Largest units first (then the longest side, the heaviest, the request's order): first-fit-decreasing order. */
function packingOrder(units: readonly UnitType[]): UnitType[] {
  const longest = (unit: UnitType) => Math.max(...unit.sides);
  return [...units].sort(
    (a, b) =>
      volumeOf(b.sides) - volumeOf(a.sides) ||
      longest(b) - longest(a) ||
      b.grams - a.grams ||
      a.item - b.item,
  );
}

/** One box of `type` filled with as much of `wanted` (units per line) as fits, in `order`. */
export function fill(type: BoxType, order: readonly UnitType[], wanted: readonly number[]): BoxLoad {
  let shortest = Number.POSITIVE_INFINITY;
  for (const unit of order)
    if ((wanted[unit.item] ?? 0) > 0)
      shortest = Math.min(shortest, unit.sides[0], unit.sides[1], unit.sides[2]);
  const load = new BoxLoad(type, Number.isFinite(shortest) ? shortest : 1);
  for (const unit of order) {
    const n = wanted[unit.item] ?? 0;
    if (n > 0) load.add(unit, n);
  }
  return load;
}

/** Units per line in a load. */
export function contents(load: BoxLoad, lines: number): number[] {
  const counts = new Array<number>(lines).fill(0);
  for (const block of load.blocks) counts[block.item] = (counts[block.item] ?? 0) + volumeOf(block.grid);
  return counts;
}

const packedVolume = (load: BoxLoad): number =>
  load.blocks.reduce((sum, block) => sum + volumeOf(block.unit) * volumeOf(block.grid), 0);

const holdsAll = (load: BoxLoad, wanted: readonly number[]): boolean =>
  contents(load, wanted.length).every((n, i) => n === wanted[i]);

/**
 * The volumes for `quantities` units of each line. Every step places at least one unit: each unit fits some box
 * alone (checked before), and a box that is tried empty takes the first unit of the order it can hold.
 *
 * A volume chosen for taking the most is used again while what is left still holds all its contents: the same
 * box would most likely be chosen again, and an order of 49,950 heavy units (3,568 boxes) is planned in one pass
 * of trials instead of 3,568 (measured: 1.3 s before, with 8 box sizes).
 */
function packAll(
  units: readonly UnitType[],
  quantities: readonly number[],
  types: readonly BoxType[],
): BoxLoad[] {
  const order = packingOrder(units);
  const left = [...quantities];
  const loads: BoxLoad[] = [];
  while (left.some((n) => n > 0)) {
    const trials = types.map((type) => fill(type, order, left));
    const chosen = trials.find((trial) => holdsAll(trial, left)) ?? mostPacked(trials);
    // Only when the caller skipped the refusal check: no box takes any unit left, and the loop would never end.
    if (chosen.blocks.length === 0)
      throw new Error('packOrder: a unit fits no box (planShipment refuses this)');
    const taken = contents(chosen, left.length);
    do {
      for (const [i, n] of taken.entries()) left[i] = (left[i] ?? 0) - n;
      loads.push(chosen);
    } while (taken.every((n, i) => n <= (left[i] ?? 0)));
  }
  const smallest = new Map<BoxLoad, BoxLoad>();
  return loads.map((load) => {
    const moved = smallest.get(load) ?? smallestBoxFor(load, order, types);
    smallest.set(load, moved);
    return moved;
  });
}

/** The trial that packed the most volume (the smaller box among equals: trials come smallest first). */
function mostPacked(trials: readonly BoxLoad[]): BoxLoad {
  let best = trials[0] as BoxLoad;
  for (const trial of trials) if (packedVolume(trial) > packedVolume(best)) best = trial;
  return best;
}

/** The same contents in the smallest box that holds them all (the load itself when none smaller does). */
function smallestBoxFor(load: BoxLoad, order: readonly UnitType[], types: readonly BoxType[]): BoxLoad {
  const wanted = contents(load, Math.max(...order.map((unit) => unit.item)) + 1);
  for (const type of types) {
    if (volumeOf(type.inner) >= volumeOf(load.type.inner)) break;
    const trial = fill(type, order, wanted);
    if (holdsAll(trial, wanted)) return trial;
  }
  return load;
}

function volumeOfLoad(load: BoxLoad, items: readonly PackingItem[], boxes: readonly Box[]): PlannedVolume {
  const box = boxes[load.type.box] as Box;
  const counts = contents(load, items.length);
  const [comprimento, largura, altura] = sortedSides([box.comprimento, box.largura, box.altura]);
  return {
    box: box.id,
    items: items.flatMap((item, i) =>
      (counts[i] ?? 0) > 0 ? [{ id: item.id, quantity: counts[i] ?? 0 }] : [],
    ),
    weightGrams: box.tareGrams + load.contentGrams,
    dimensions: { comprimento, largura, altura },
  };
}

function doesNotFit(
  item: PackingItem,
  boxes: readonly Box[],
  types: readonly BoxType[],
): PlanShipmentRefusal {
  const sides = `${item.comprimento} × ${item.largura} × ${item.altura} cm`;
  const bySize = types.filter((type) => fitsEmpty(unitType(item, 0).sides, type.inner));
  if (bySize.length === 0) {
    const largest = boxes[types[types.length - 1]?.box ?? 0] as Box;
    return {
      reason: 'item_does_not_fit',
      itemId: item.id,
      message:
        `Item "${item.id}" (${sides}) fits no configured box in any orientation; the largest box is ` +
        `"${largest.id}", ${largest.comprimento} × ${largest.largura} × ${largest.altura} cm inside.`,
    };
  }
  const most = Math.max(...bySize.map((type) => type.contentGrams));
  return {
    reason: 'item_does_not_fit',
    itemId: item.id,
    message:
      `Item "${item.id}" weighs ${item.weightGrams} g; the boxes it fits carry at most ${most} g of contents ` +
      `(the box's maximum or the carrier's ${PACKAGE_LIMITS.maxWeightGrams} g, less its tare).`,
  };
}
