import { CONTRACT_SERVICES, FORMAT_LIMITS } from '../labels/carrier-limits.ts';

const { box } = FORMAT_LIMITS;

/**
 * The carrier's limits for one package (PAC and SEDEX, object format "2" box), from the carrier's figures
 * (shared/labels/carrier-limits.ts, the one home the label plausibility rules also read).
 */
export const PACKAGE_LIMITS = {
  /** Up to 30 kg, the box's tare included (SEDEX 10/12/Hoje take less and are not offered for planning). */
  maxWeightGrams: Math.min(
    CONTRACT_SERVICES['03298'].maxWeightGrams,
    CONTRACT_SERVICES['03220'].maxWeightGrams,
  ),
  /** Each side at most 100 cm. */
  maxSideCm: box.comprimento.max,
  /** Length + width + height at most 200 cm. */
  maxSumOfSidesCm: box.maxSum,
  /** The smallest box the carrier takes, longest side first: 15 × 10 × 1 cm (the sandbox refuses less). */
  minSidesCm: [box.comprimento.min, box.largura.min, box.altura.min],
} as const;

/** The sides of a box from the longest to the shortest: how the label states comprimento, largura, altura. */
export function sortedSides(sides: readonly [number, number, number]): [number, number, number] {
  return [...sides].sort((x, y) => y - x) as [number, number, number];
}

/**
 * What keeps a box of these outer sides (cm) from being one package for the carrier, as the rest of a sentence
 * ("the sides add up to 210 cm; …"), or `undefined` when it is within every limit.
 */
export function packageSizeProblem(sides: readonly [number, number, number]): string | undefined {
  const [longest, middle, shortest] = sortedSides(sides);
  const { maxSideCm, maxSumOfSidesCm, minSidesCm } = PACKAGE_LIMITS;
  if (longest > maxSideCm)
    return `has a side of ${longest} cm; the carrier takes at most ${maxSideCm} cm a side`;
  const sum = longest + middle + shortest;
  if (sum > maxSumOfSidesCm)
    return `has sides that add up to ${round(sum)} cm; the carrier takes at most ${maxSumOfSidesCm} cm`;
  if (longest < minSidesCm[0] || middle < minSidesCm[1] || shortest < minSidesCm[2])
    return `is smaller than the carrier's minimum box of ${minSidesCm.join(' × ')} cm`;
  return undefined;
}

const round = (cm: number) => Math.round(cm * 100) / 100;
