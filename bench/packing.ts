import { pack3D } from 'binpackingjs/3d';
import type { Box } from '../shared/packing/box.ts';
import { PACKAGE_LIMITS } from '../shared/packing/package-limits.ts';
import {
  BoxLoad,
  type BoxType,
  boxLength,
  fitsEmpty,
  itemLength,
  type UnitType,
  type Vec,
  volumeOf,
} from '../shared/packing/placement.ts';
import { isPlanRefusal, type PackingItem } from '../shared/packing/plan.ts';
import { contents, fill, packOrder, planShipment, volumesAtLeast } from '../shared/packing/planner.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import type { Figure } from './stats.ts';
import { median, round } from './stats.ts';

/**
 * A shop's boxes: eight common sizes from a jewellery box to a large carton, inner cm, tare and maximum in grams.
 * Representative, not any carrier's official list.
 */
export const BENCH_BOXES: Box[] = [
  { id: 'A', comprimento: 16, largura: 11, altura: 6, tareGrams: 40, maxWeightGrams: 10_000 },
  { id: 'B', comprimento: 20, largura: 15, altura: 10, tareGrams: 90, maxWeightGrams: 10_000 },
  { id: 'C', comprimento: 27, largura: 18, altura: 9, tareGrams: 130, maxWeightGrams: 20_000 },
  { id: 'D', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 30_000 },
  { id: 'E', comprimento: 36, largura: 27, altura: 18, tareGrams: 280, maxWeightGrams: 30_000 },
  { id: 'F', comprimento: 40, largura: 30, altura: 30, tareGrams: 400, maxWeightGrams: 30_000 },
  { id: 'G', comprimento: 54, largura: 36, altura: 27, tareGrams: 600, maxWeightGrams: 30_000 },
  { id: 'H', comprimento: 60, largura: 50, altura: 40, tareGrams: 900, maxWeightGrams: 30_000 },
];

const carriedBySome = (item: PackingItem) =>
  BENCH_BOXES.some(
    (b) =>
      fitsEmpty(toUnit(item, 0).sides, [
        boxLength(b.comprimento),
        boxLength(b.largura),
        boxLength(b.altura),
      ]) && item.weightGrams <= Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams,
  );

/**
 * One shop order: 1 to 6 lines (most orders have one or two), sides 2–45 cm (mostly 4–25), a density of
 * 0.05–0.8 g/cm³, 1 to 4 units a line (one line in ten 5–20). `bulk` orders: 3–10 lines of 30–300 small units.
 */
function drawOrder(random: () => number, n: number, bulk: boolean): PackingItem[] {
  const pick = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const side = (min: number, max: number) => Math.round((min + random() * (max - min)) * 10) / 10;
  const lines = bulk ? pick(3, 10) : ([1, 1, 1, 2, 2, 3, 4, 5, 6][pick(0, 8)] ?? 1);
  const items: PackingItem[] = [];
  while (items.length < lines) {
    const big = random() < 0.15;
    const sides: Vec = bulk
      ? [side(2, 12), side(2, 10), side(1, 6)]
      : [side(4, big ? 45 : 25), side(3, big ? 35 : 20), side(1, big ? 30 : 12)];
    const density = 0.05 + random() * 0.75;
    const item: PackingItem = {
      id: `o${n}-l${items.length}`,
      comprimento: sides[0],
      largura: sides[1],
      altura: sides[2],
      weightGrams: Math.max(10, Math.round(volumeOf(sides) * density)),
      quantity: bulk ? pick(30, 300) : random() < 0.1 ? pick(5, 20) : pick(1, 4),
    };
    if (carriedBySome(item)) items.push(item);
  }
  return items;
}

function toUnit(item: PackingItem, index: number): UnitType {
  return {
    item: index,
    sides: [itemLength(item.comprimento), itemLength(item.largura), itemLength(item.altura)],
    grams: item.weightGrams,
  };
}

function toTypes(boxes: readonly Box[]): BoxType[] {
  return boxes
    .map((b, index) => ({
      box: index,
      inner: [boxLength(b.comprimento), boxLength(b.largura), boxLength(b.altura)] as const,
      contentGrams: Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams,
    }))
    .sort((a, b) => volumeOf(a.inner) - volumeOf(b.inner));
}

const decreasing = (units: UnitType[]) => [...units].sort((a, b) => volumeOf(b.sides) - volumeOf(a.sides));

/**
 * What we give and read of binpackingjs's `pack3D`: its .d.ts files import without extensions, which TypeScript's
 * nodenext resolution cannot follow, so its own types arrive as `any`.
 */
interface LibraryBin {
  name: string;
  width: number;
  height: number;
  depth: number;
  maxWeight: number;
}
interface LibraryItem {
  name: string;
  width: number;
  height: number;
  depth: number;
  weight: number;
}
interface LibraryResult {
  packedBins: { name: string; items: { name: string; position: Vec; dimension: Vec }[] }[];
  unfitItems: unknown[];
}

/** What an algorithm answers for one order: each volume's box (index into BENCH_BOXES) and units per line. */
interface Outcome {
  volumes: { box: number; counts: number[] }[];
  /** Blocks or items with their place, when the algorithm gives them (checked for overlap and bounds). */
  placements: { box: number; at: Vec; size: Vec }[][];
}

/** Ours: `planShipment`. */
function ours(items: PackingItem[]): Outcome {
  const plan = planShipment({ items }, BENCH_BOXES);
  if (isPlanRefusal(plan)) throw new Error(plan.message);
  return {
    volumes: plan.volumes.map((v) => ({
      box: BENCH_BOXES.findIndex((b) => b.id === v.box),
      counts: items.map((it) => v.items.find((e) => e.id === it.id)?.quantity ?? 0),
    })),
    placements: [],
  };
}

/** Our blocks in centimetres (`packOrder` is what `planShipment` packs), for the checks, outside the timing. */
function ourPlacements(items: PackingItem[]): Outcome['placements'] {
  return packOrder(items, BENCH_BOXES).map(blocksOf);
}

function blocksOf(load: BoxLoad): Outcome['placements'][number] {
  return load.blocks.map((block) => ({
    box: load.type.box,
    at: [block.at[0] / 100, block.at[1] / 100, block.at[2] / 100],
    size: [
      (block.unit[0] * block.grid[0]) / 100,
      (block.unit[1] * block.grid[1]) / 100,
      (block.unit[2] * block.grid[2]) / 100,
    ],
  }));
}

/**
 * The baseline: first-fit decreasing, unit by unit. Units from the largest; each goes in the first open box where
 * it fits (same placement code as ours), else opens the largest box that carries it; at the end each box is moved
 * to the smallest box that holds its contents (the same last step as ours).
 */
function firstFitDecreasing(items: PackingItem[]): Outcome {
  const types = toTypes(BENCH_BOXES);
  const units = decreasing(items.map(toUnit));
  const open: BoxLoad[] = [];
  for (const unit of units) {
    for (let n = 0; n < (items[unit.item]?.quantity ?? 0); n++) {
      if (open.some((load) => load.add(unit, 1) === 1)) continue;
      const largest = [...types]
        .reverse()
        .find((t) => unit.grams <= t.contentGrams && fitsEmpty(unit.sides, t.inner));
      if (!largest) throw new Error('unreachable: orders are drawn to fit');
      const load = new BoxLoad(largest);
      load.add(unit, 1);
      open.push(load);
    }
  }
  const final = open.map((load) => {
    const counts = contents(load, items.length);
    for (const t of types) {
      if (volumeOf(t.inner) >= volumeOf(load.type.inner)) break;
      const trial = fill(t, units, counts);
      if (contents(trial, items.length).every((n, i) => n === counts[i])) return trial;
    }
    return load;
  });
  return {
    volumes: final.map((load) => ({ box: load.type.box, counts: contents(load, items.length) })),
    placements: final.map(blocksOf),
  };
}

/**
 * binpackingjs 4.1.0 (`pack3D`, Dube's bp3d heuristic): bins are single boxes, so each box size is offered once per
 * unit of the order (enough for any plan); its weight limit is what the box's contents may weigh.
 */
function library(items: PackingItem[]): Outcome {
  const units = items.reduce((n, it) => n + it.quantity, 0);
  const bins: LibraryBin[] = BENCH_BOXES.flatMap((b, index) =>
    Array.from({ length: units }, (_, copy) => ({
      name: `${index}:${copy}`,
      width: b.comprimento,
      height: b.largura,
      depth: b.altura,
      maxWeight: Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams,
    })),
  );
  const list: LibraryItem[] = items.flatMap((it, line) =>
    Array.from({ length: it.quantity }, (_, n) => ({
      name: `${line}:${n}`,
      width: it.comprimento,
      height: it.largura,
      depth: it.altura,
      weight: it.weightGrams,
    })),
  );
  const result: LibraryResult = pack3D({ bins, items: list });
  if (result.unfitItems.length > 0)
    throw new Error(`binpackingjs left ${result.unfitItems.length} units out`);
  const used = result.packedBins.filter((bin) => bin.items.length > 0);
  return {
    volumes: used.map((bin) => {
      const counts = items.map(() => 0);
      for (const placed of bin.items) {
        const line = Number(placed.name.split(':')[0]);
        counts[line] = (counts[line] ?? 0) + 1;
      }
      return { box: Number(bin.name.split(':')[0]), counts };
    }),
    placements: used.map((bin) =>
      bin.items.map((placed) => ({
        box: Number(bin.name.split(':')[0]),
        at: placed.position,
        size: placed.dimension,
      })),
    ),
  };
}

/** One box of `BENCH_BOXES[index]` filled by `pack3D` with as much of `wanted` (units per line) as it places. */
function libraryFill(items: PackingItem[], index: number, wanted: readonly number[]) {
  const b = BENCH_BOXES[index] as Box;
  const bin: LibraryBin = {
    name: String(index),
    width: b.comprimento,
    height: b.largura,
    depth: b.altura,
    maxWeight: Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams) - b.tareGrams,
  };
  const list: LibraryItem[] = items.flatMap((it, line) =>
    Array.from({ length: wanted[line] ?? 0 }, (_, n) => ({
      name: `${line}:${n}`,
      width: it.comprimento,
      height: it.largura,
      depth: it.altura,
      weight: it.weightGrams,
    })),
  );
  const result: LibraryResult = pack3D({ bins: [bin], items: list });
  const placed = result.packedBins[0]?.items ?? [];
  const counts = items.map(() => 0);
  for (const unit of placed) {
    const line = Number(unit.name.split(':')[0]);
    counts[line] = (counts[line] ?? 0) + 1;
  }
  const volume = counts.reduce((v, n, line) => {
    const it = items[line] as PackingItem;
    return v + n * it.comprimento * it.largura * it.altura;
  }, 0);
  return {
    box: index,
    counts,
    volume,
    placements: placed.map((unit) => ({ box: index, at: unit.position, size: unit.dimension })),
  };
}

/**
 * binpackingjs's placement under our choice of boxes: each volume is the box that takes all that is left (the
 * smallest such) or else the most, then moved to the smallest box that holds it; only the geometry is the library's.
 */
function libraryWithOurChoice(items: PackingItem[]): Outcome {
  const bySize = BENCH_BOXES.map((_, index) => index).sort((a, b) => {
    const v = (i: number) => {
      const box = BENCH_BOXES[i] as Box;
      return box.comprimento * box.largura * box.altura;
    };
    return v(a) - v(b);
  });
  const same = (a: readonly number[], b: readonly number[]) => a.every((n, i) => n === b[i]);
  const left = items.map((it) => it.quantity);
  const chosen: ReturnType<typeof libraryFill>[] = [];
  while (left.some((n) => n > 0)) {
    const trials = bySize.map((index) => libraryFill(items, index, left));
    const pick =
      trials.find((trial) => same(trial.counts, left)) ??
      trials.reduce((best, trial) => (trial.volume > best.volume ? trial : best));
    if (pick.volume === 0) throw new Error('binpackingjs placed nothing');
    for (const [i, n] of pick.counts.entries()) left[i] = (left[i] ?? 0) - n;
    chosen.push(pick);
  }
  const final = chosen.map((volume) => {
    for (const index of bySize) {
      if (index === volume.box) break;
      const trial = libraryFill(items, index, volume.counts);
      if (same(trial.counts, volume.counts)) return trial;
    }
    return volume;
  });
  return {
    volumes: final.map(({ box, counts }) => ({ box, counts })),
    placements: final.map((volume) => volume.placements),
  };
}

/** What is wrong with an outcome (units lost or doubled, weight over, outside the box, overlapping), or nothing. */
function validate(items: PackingItem[], outcome: Outcome): string | undefined {
  for (const [line, it] of items.entries()) {
    const placed = outcome.volumes.reduce((n, v) => n + (v.counts[line] ?? 0), 0);
    if (placed !== it.quantity) return `line ${line}: ${placed} of ${it.quantity} units placed`;
  }
  for (const v of outcome.volumes) {
    const b = BENCH_BOXES[v.box] as Box;
    const grams = b.tareGrams + v.counts.reduce((g, n, line) => g + n * (items[line]?.weightGrams ?? 0), 0);
    if (grams > Math.min(b.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams)) return `box ${b.id}: ${grams} g`;
  }
  for (const blocks of outcome.placements) {
    for (const [i, a] of blocks.entries()) {
      const b = BENCH_BOXES[a.box] as Box;
      const inner = [b.comprimento, b.largura, b.altura];
      if (a.at.some((p, k) => p < 0 || p + (a.size[k] ?? 0) > (inner[k] ?? 0) + 1e-9))
        return `outside box ${b.id}`;
      for (const c of blocks.slice(i + 1)) {
        if (
          a.at.every(
            (p, k) =>
              p < (c.at[k] ?? 0) + (c.size[k] ?? 0) - 1e-9 && (c.at[k] ?? 0) < p + (a.size[k] ?? 0) - 1e-9,
          )
        )
          return `overlap in box ${b.id}`;
      }
    }
  }
  return undefined;
}

/** No plan can use fewer boxes (the planner's own bound, `volumesAtLeast`). */
function lowerBound(items: PackingItem[]): number {
  return volumesAtLeast(items, BENCH_BOXES);
}

interface Tally {
  boxes: number;
  litres: number;
  invalid: number;
  failed: number;
  msPerOrder: number[];
  perOrder: number[];
}

/**
 * Runs `algorithm` over `orders`: boxes, litres and validity from the first pass (plans are deterministic), the
 * time per order as the median of `repetitions` passes (the first one warms the JIT like the others).
 */
function run(
  algorithm: (items: PackingItem[]) => Outcome,
  orders: PackingItem[][],
  {
    placements,
    repetitions = 5,
  }: { placements?: (items: PackingItem[]) => Outcome['placements']; repetitions?: number } = {},
): Tally {
  const tally: Tally = { boxes: 0, litres: 0, invalid: 0, failed: 0, msPerOrder: [], perOrder: [] };
  const times = orders.map(() => [] as number[]);
  for (let pass = 0; pass < repetitions; pass++) {
    for (const [n, items] of orders.entries()) {
      const started = performance.now();
      let outcome: Outcome;
      try {
        outcome = algorithm(items);
      } catch {
        if (pass === 0) {
          tally.failed++;
          tally.perOrder.push(Number.NaN);
        }
        continue;
      }
      times[n]?.push(performance.now() - started);
      if (pass > 0) continue;
      if (placements) outcome.placements = placements(items);
      if (validate(items, outcome)) tally.invalid++;
      tally.boxes += outcome.volumes.length;
      tally.perOrder.push(outcome.volumes.length);
      for (const v of outcome.volumes) {
        const b = BENCH_BOXES[v.box] as Box;
        tally.litres += (b.comprimento * b.largura * b.altura) / 1000;
      }
    }
  }
  tally.msPerOrder = times.filter((t) => t.length > 0).map(median);
  return tally;
}

const unitsOf = (items: PackingItem[]) => items.reduce((n, it) => n + it.quantity, 0);

const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

const summary = (t: Tally) =>
  `${t.boxes} boxes, ${Math.round(t.litres)} L, p50 ${round(median(t.msPerOrder), 3)} ms / p95 ${round(p(t.msPerOrder, 0.95), 2)} ms per order` +
  (t.invalid || t.failed ? `, ${t.invalid} invalid, ${t.failed} failed` : '');

/**
 * Figure 8: 300 seeded shop orders packed into the eight boxes above by `planShipment`, by a first-fit-decreasing
 * baseline of our own (same placement code), and by binpackingjs 4.1.0; every plan checked (units once, weight,
 * and every block's or item's coordinates for bounds and overlap). Then 20 bulk orders (3–10 lines of 30–300
 * units), ours and the baseline only, and the library once on the smallest of them: it places unit by unit. Last,
 * the largest order the schema allows (50 lines × 999 units) of small units, and of 2 kg units (thousands of volumes:
 * refused, as no label names more than 999).
 */
export async function measurePacking(orderCount = 300, bulkCount = 20): Promise<Figure> {
  const random = seededRandom(20_251_122);
  const orders = Array.from({ length: orderCount }, (_, n) => drawOrder(random, n, false));
  const bulk = Array.from({ length: bulkCount }, (_, n) => drawOrder(random, orderCount + n, true));
  const largest = Array.from({ length: 50 }, (_, i) => ({
    id: `max-${i}`,
    comprimento: 2 + (i % 7),
    largura: 1 + (i % 5),
    altura: 1 + (i % 3),
    weightGrams: 5 + i,
    quantity: 999,
  }));

  const ourTally = run(ours, orders, { placements: ourPlacements });
  const ffdTally = run(firstFitDecreasing, orders);
  const libTally = run(library, orders);
  const libChoiceTally = run(libraryWithOurChoice, orders);
  const bound = orders.reduce((n, items) => n + lowerBound(items), 0);
  const atBound = orders.filter((items, i) => ourTally.perOrder[i] === lowerBound(items)).length;
  const compare = (other: Tally) => ({
    oursFewer: orders.filter((_, i) => (ourTally.perOrder[i] ?? 0) < (other.perOrder[i] ?? 0)).length,
    oursMore: orders.filter((_, i) => (ourTally.perOrder[i] ?? 0) > (other.perOrder[i] ?? 0)).length,
  });
  const bulkOurs = run(ours, bulk, { placements: ourPlacements });
  const bulkFfd = run(firstFitDecreasing, bulk, { repetitions: 1 });
  // The library's unit-by-unit placement on one bulk order (the smallest of them), once: it does not scale.
  const smallBulk = [...bulk].sort((a, b) => unitsOf(a) - unitsOf(b))[0] ?? [];
  const libBulkStarted = performance.now();
  const libBulk = libraryWithOurChoice(smallBulk);
  const libBulkMs = performance.now() - libBulkStarted;
  const oursOnIt = run(ours, [smallBulk]);
  // The largest order the schema allows, of small units (50 boxes) and of 2 kg units (below).
  const largestRun = run(ours, [largest], { placements: ourPlacements, repetitions: 3 });
  const heaviest = largest.map((it) => ({
    ...it,
    comprimento: 10,
    largura: 10,
    altura: 10,
    weightGrams: 2_000 + it.weightGrams,
  }));
  // Of 2 kg units the same order needs thousands of volumes, more than a label can name (1 to 999): since db180fd the
  // planner refuses it before packing (`too_many_volumes`), and what is measured is how soon that answer comes.
  const heavyStarted = performance.now();
  const heavyPlan = planShipment({ items: heaviest }, BENCH_BOXES);
  const heaviestMs = performance.now() - heavyStarted;
  const heavyRefusal =
    isPlanRefusal(heavyPlan) && heavyPlan.reason === 'too_many_volumes' ? heavyPlan : undefined;
  const heavyVolumes = Number(/(\d+) volumes/.exec(heavyRefusal?.message ?? '')?.[1] ?? Number.NaN);
  const largestMs = median(largestRun.msPerOrder);

  const vsFfd = compare(ffdTally);
  const vsLib = compare(libTally);
  const vsLibChoice = compare(libChoiceTally);
  const met =
    ourTally.invalid + ourTally.failed + bulkOurs.invalid + bulkOurs.failed === 0 &&
    largestRun.invalid + largestRun.failed === 0 &&
    heavyVolumes > 999 &&
    ourTally.boxes <= ffdTally.boxes &&
    ourTally.boxes <= libTally.boxes &&
    ourTally.boxes <= libChoiceTally.boxes &&
    p(ourTally.msPerOrder, 0.95) <= 10 &&
    largestMs <= 1_000 &&
    heaviestMs <= 1_000;
  return {
    id: 8,
    figure: `packing (cubagem): ${orderCount} seeded shop orders into 8 box sizes; ${bulkCount} bulk orders; the largest allowed order (50 lines × 999 units), light, and heavy (over 999 volumes: refused)`,
    value:
      `planShipment: ${summary(ourTally)} (lower bound ${bound} boxes; ${atBound} orders at it); ` +
      `bulk: ${summary(bulkOurs)}; largest: ${largestRun.boxes} boxes in ${Math.round(largestMs)} ms, ` +
      `heavy: ${heavyRefusal ? `refused, too_many_volumes (needs at least ${heavyVolumes})` : 'not refused'} in ${round(heaviestMs, 1)} ms`,
    comparedWith:
      `FFD baseline: ${summary(ffdTally)} (ours fewer boxes on ${vsFfd.oursFewer} orders, more on ${vsFfd.oursMore}); ` +
      `bulk: ${summary(bulkFfd)}; binpackingjs 4.1.0: ${summary(libTally)} (ours fewer on ${vsLib.oursFewer}, more on ${vsLib.oursMore}); ` +
      `binpackingjs placing, our box choice: ${summary(libChoiceTally)} (ours fewer on ${vsLibChoice.oursFewer}, more on ${vsLibChoice.oursMore}); ` +
      `on a bulk order of ${unitsOf(smallBulk)} units: ${libBulk.volumes.length} boxes in ${Math.round(libBulkMs)} ms ` +
      `(ours: ${oursOnIt.boxes} boxes in ${round(median(oursOnIt.msPerOrder), 2)} ms)`,
    goal: 'every plan valid; no more boxes than the baseline or the library; p95 ≤ 10 ms per shop order; each largest order ≤ 1 s (the heavy one refused as over 999 volumes)',
    met,
    data: {
      orders: orderCount,
      boxes: BENCH_BOXES,
      lowerBound: bound,
      ordersAtLowerBound: atBound,
      ours: { ...ourTally, perOrder: undefined },
      ffd: { ...ffdTally, perOrder: undefined },
      binpackingjs: { ...libTally, perOrder: undefined },
      versusFfd: vsFfd,
      versusLibrary: vsLib,
      binpackingjsWithOurChoice: { ...libChoiceTally, perOrder: undefined },
      versusLibraryWithOurChoice: vsLibChoice,
      bulk: { ours: { ...bulkOurs, perOrder: undefined }, ffd: { ...bulkFfd, perOrder: undefined } },
      libraryOnBulkOrder: {
        units: unitsOf(smallBulk),
        boxes: libBulk.volumes.length,
        ms: libBulkMs,
        oursBoxes: oursOnIt.boxes,
        oursMs: oursOnIt.msPerOrder,
      },
      largest: { ...largestRun, perOrder: undefined },
      heaviest: { refused: heavyRefusal !== undefined, volumesAtLeast: heavyVolumes, ms: heaviestMs },
    },
  };
}
