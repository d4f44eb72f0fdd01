import type { RateLimit } from '../../shared/windowed-counter.ts';

/**
 * The routes the platform limits separately (spec 8: per store and route), and `tracking-watch`: the share of the
 * tracking route reserved for the BFF's own watcher (`BFF_WATCH_SHARE`). The platform sees one tracking route; the
 * BFF splits its allowance in two lanes, visitors' `tracking` and the watcher's `tracking-watch`, each a window of
 * its own, so the watcher never spends the visitors' calls and the two together never pass the limit. The rates
 * route is shared with shoppers' browsers, which quote the platform directly with the public key where the BFF
 * cannot count them: the BFF's `rates` lane leaves them `BFF_BROWSER_QUOTE_SHARE` of the limit.
 */
export type BudgetRoute = 'rates' | 'tracking' | 'tracking-watch';

export type BudgetDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * The store's upstream allowance (spec 8, `SHIPPING_RATE_LIMIT`: 60 calls per 60 s per store and route), spent before
 * every upstream call, so the BFF — all of its instances together, with a shared store — never sends a call the
 * platform would answer with 429. A retry goes only while more than the reserve is left, so retries never eat the
 * calls that visitors' first lookups need. `MemoryBudget` for one instance, or `RedisBudget` (redis-budget.ts) for all
 * of them together.
 */
export interface UpstreamBudget {
  /** Spends one call of the route's allowance, or says how long until one frees. */
  take(route: BudgetRoute): Promise<BudgetDecision>;
  /** Whether a retry on this route leaves the reserve untouched. */
  canRetry(route: BudgetRoute): Promise<boolean>;
}

/** The calls kept for first attempts: a quarter of the limit, unless said. */
export function reserveOf(limit: RateLimit, reserve: number | undefined): number {
  return reserve ?? Math.ceil(limit.calls / 4);
}

/**
 * The calls of the tracking route kept for the watcher: `share` of the limit, rounded down (the watcher never gets
 * more than its share; a share too small for one call leaves it none).
 */
export function watchCalls(limit: RateLimit, share: number): number {
  return Math.floor(limit.calls * share + 1e-9);
}

/** The shares of the limit kept out of a lane: the watcher's of the tracking route, browsers' of the rates route. */
export interface LaneShares {
  watchShare?: number;
  browserShare?: number;
}

/**
 * One route's allowance: the store's limit, except that the tracking route is split between the visitors' lane
 * (`tracking`, the limit less the watcher's calls) and the watcher's (`tracking-watch`), and the rates route keeps
 * `browserShare` of the limit (rounded down) for shoppers' browsers.
 */
export function routeLimit(
  limit: RateLimit,
  route: BudgetRoute,
  watchShare = 0,
  browserShare = 0,
): RateLimit {
  const watch = watchCalls(limit, watchShare);
  if (route === 'tracking-watch') return { calls: watch, seconds: limit.seconds };
  if (route === 'tracking') return { calls: limit.calls - watch, seconds: limit.seconds };
  return { calls: limit.calls - watchCalls(limit, browserShare), seconds: limit.seconds };
}

/** A sliding log of the last window's calls per route, in process memory (one instance). */
export class MemoryBudget implements UpstreamBudget {
  private readonly sent = new Map<BudgetRoute, number[]>();
  private readonly limit: RateLimit;
  private readonly reserve: number | undefined;
  private readonly shares: LaneShares;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { reserve?: number; now?: () => number } & LaneShares = {}) {
    this.limit = limit;
    this.reserve = options.reserve;
    this.shares = options;
    this.now = options.now ?? Date.now;
  }

  private lane(route: BudgetRoute): RateLimit {
    return routeLimit(this.limit, route, this.shares.watchShare, this.shares.browserShare);
  }

  private log(route: BudgetRoute, now: number): number[] {
    const windowMs = this.limit.seconds * 1000;
    const log = (this.sent.get(route) ?? []).filter((at) => at > now - windowMs);
    this.sent.set(route, log);
    return log;
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    const now = this.now();
    const log = this.log(route, now);
    const { calls, seconds } = this.lane(route);
    if (log.length >= calls) {
      const oldest = log[log.length - calls];
      // A lane without calls (no watcher share) never frees one: the longest wait there is.
      if (oldest === undefined) return { ok: false, retryAfterMs: seconds * 1000 };
      return { ok: false, retryAfterMs: Math.max(1, oldest + seconds * 1000 - now) };
    }
    log.push(now);
    return { ok: true };
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    const limit = this.lane(route);
    return limit.calls - this.log(route, this.now()).length > reserveOf(limit, this.reserve);
  }
}
