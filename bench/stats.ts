/** The median of a few repetitions: robust to the noise of a shared machine. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** One row of the printed table and of latest.json. */
export interface Figure {
  id: number;
  figure: string;
  value: string;
  comparedWith: string;
  goal: string;
  met: boolean;
  data: Record<string, unknown>;
}
