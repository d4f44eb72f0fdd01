import type { Area } from '../../shared/lanes.ts';
import type { Uf } from '../../shared/uf.ts';
import type { TransitRow } from './history-store.ts';

/** How well a lane and service kept the promises its parcels were sold with. */
export interface LaneKept {
  serviceId: string;
  uf: Uf;
  area: Area;
  /** Delivered parcels scored against their promise. */
  parcels: number;
  /** Delivered by the promised day (the last day of a range). */
  onTime: number;
  /** The median of business days after (+) or before (−) the promised day. */
  medianLateDays: number;
  /** Business days late that 95 % of the lane's deliveries stay within: what a rule would add to keep the promise. */
  lateAtGoal: number;
  /** The same scores apart for the promises learnt from history and the platform's counts. */
  byBasis: Record<'history' | 'platform', { parcels: number; onTime: number }>;
  /** The most recent scored parcel of the lane: a destination and the platform's count to ask today's promise for. */
  latest: { destPrefix: string; platformDays: number | null };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function kept(rows: readonly TransitRow[]): Omit<LaneKept, 'serviceId' | 'uf' | 'area' | 'latest'> {
  const late = rows.map((row) => row.lateDays ?? 0);
  const of = (basis: 'history' | 'platform') => {
    const scored = rows.filter((row) => (row.promisedBasis ?? 'platform') === basis);
    return { parcels: scored.length, onTime: scored.filter((row) => (row.lateDays ?? 0) <= 0).length };
  };
  return {
    parcels: rows.length,
    onTime: late.filter((days) => days <= 0).length,
    medianLateDays: median(late),
    lateAtGoal: [...late].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.95 * late.length) - 1)] ?? 0,
    byBasis: { history: of('history'), platform: of('platform') },
  };
}

/**
 * The promise kept, per lane (destination state, capital or interior) and service, the lanes with most parcels
 * first, and over all of them: what the desk shows (docs/promise.md, "Promise kept").
 */
export function promiseKept(rows: readonly TransitRow[]): {
  all: ReturnType<typeof kept>;
  lanes: LaneKept[];
} {
  const lanes = new Map<string, TransitRow[]>();
  for (const row of rows) {
    if (row.lateDays === null) continue;
    const key = `${row.serviceId}|${row.destUf}|${row.destArea}`;
    lanes.set(key, [...(lanes.get(key) ?? []), row]);
  }
  const scored = rows.filter((row) => row.lateDays !== null);
  return {
    all: kept(scored),
    lanes: [...lanes.values()]
      .map((group) => {
        const first = group[0] as TransitRow;
        const last = group.reduce((a, b) => (b.createdAt > a.createdAt ? b : a), first);
        return {
          serviceId: first.serviceId,
          uf: first.destUf,
          area: first.destArea,
          ...kept(group),
          latest: { destPrefix: last.destPrefix, platformDays: last.platformDays ?? null },
        };
      })
      .sort(
        (a, b) => b.parcels - a.parcels || a.serviceId.localeCompare(b.serviceId) || a.uf.localeCompare(b.uf),
      ),
  };
}
