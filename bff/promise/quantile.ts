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
