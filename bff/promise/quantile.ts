/** One past parcel of a lane: its business days from posting to delivery, and how much it counts (recency). */
export interface WeightedDays {
  days: number;
  weight: number;
}

/**
 * The smallest value that at least `share` of the samples' weight does not exceed (the weighted nearest-rank
 * quantile, type 1 of Hyndman and Fan: always one of the samples, never an interpolation — a promise is a whole number
 * of days). Ties count whole: [3, 3, 3, 4] covers 75 % with 3. Undefined without samples.
 */
export function weightedQuantile(samples: readonly WeightedDays[], share: number): number | undefined {
  const sorted = samples.filter((s) => s.weight > 0).sort((a, b) => a.days - b.days);
  const total = sorted.reduce((sum, s) => sum + s.weight, 0);
  if (sorted.length === 0 || !(total > 0)) return undefined;
  // A hair under the target, so that 19 of 20 equal weights reach 0.95 despite floating-point sums.
  const target = Math.min(1, Math.max(0, share)) * total * (1 - 1e-12);
  let covered = 0;
  for (const sample of sorted) {
    covered += sample.weight;
    if (covered >= target) return sample.days;
  }
  return sorted.at(-1)?.days;
}

/**
 * Kish's effective number of samples: n for equal weights, fewer when a few recent parcels weigh most. What the
 * confidence margin below is measured in.
 */
export function effectiveCount(samples: readonly WeightedDays[]): number {
  let sum = 0;
  let squares = 0;
  for (const { weight } of samples) {
    sum += weight;
    squares += weight * weight;
  }
  return squares > 0 ? (sum * sum) / squares : 0;
}

/**
 * The business days a promise gives: the lane's `share` quantile raised by one standard error of a proportion
 * (`share + z·√(share(1−share)/n)`, z = 1), so that a sample that happened to run early does not promise a date the
 * next parcels miss. With 30 parcels and share 0.95 that is the slowest of them; with 300, about the 97th percentile.
 * A quantile estimated from n parcels covers the next ones less often than its nominal share (by about that margin):
 * the margin is what makes "95 % kept" hold on parcels the promise has not seen (bench: `--only promise`).
 */
export function coveringDays(samples: readonly WeightedDays[], share: number, z = 1): number | undefined {
  const n = effectiveCount(samples);
  if (n === 0) return undefined;
  const margin = z * Math.sqrt((share * (1 - share)) / n);
  return weightedQuantile(samples, Math.min(1, share + margin));
}

/**
 * The least share of a lane's parcels that `kept` of the `n` seen can stand for, at one-sided confidence `z` (the
 * lower end of Wilson's score interval; 1.645: 95 %). What a promise's yes-or-no decisions are judged on — "the
 * platform's count is kept by 95 %", "95 % arrive on one date": a window of 35 parcels 34 or more of which kept is
 * what a lane keeping 93 % shows more than one time in four, so 34 of 35 (0.88) is not 95 %; nor is 30 of 30 (0.92);
 * 60 of 60 is (0.957). 0 for no parcels.
 */
export function keptAtLeast(kept: number, n: number, z = 1.645): number {
  if (!(n > 0)) return 0;
  const p = Math.min(1, Math.max(0, kept / n));
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - spread) / (1 + z2 / n));
}
