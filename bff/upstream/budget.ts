import type { RateLimit, WindowedCounter } from '../../shared/windowed-counter.ts';

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
 * calls that visitors' first lookups need. `RouteBudget`, over the windowed counter: one instance's memory, or Redis for
 * all of them together.
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

/**
 * The allowance of each route, a policy over the one windowed counter (shared/windowed-counter.ts): in this process's
 * memory, or in Redis for every instance together (`Backends.budget`), this instance's memory while Redis is away.
 */
export class RouteBudget implements UpstreamBudget {
  private readonly counter: WindowedCounter;
  private readonly limit: RateLimit;
  private readonly reserve: number | undefined;
  private readonly shares: LaneShares;

  /** `watchShare` and `browserShare`: the parts of the limit kept out of their lanes (see `routeLimit`). */
  constructor(counter: WindowedCounter, limit: RateLimit, options: { reserve?: number } & LaneShares = {}) {
    this.counter = counter;
    this.limit = limit;
    this.reserve = options.reserve;
    this.shares = options;
  }

  private lane(route: BudgetRoute): RateLimit {
    return routeLimit(this.limit, route, this.shares.watchShare, this.shares.browserShare);
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    const lane = this.lane(route);
    const decision = await this.counter.take(`budget:${route}`, lane);
    if (decision.ok) return decision;
    // To the millisecond: the client waits until the call frees, not until the next whole second.
    return { ok: false, retryAfterMs: Math.max(1, await this.counter.wait(`budget:${route}`, lane)) };
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    const lane = this.lane(route);
    return lane.calls - (await this.counter.count(`budget:${route}`, lane)) > reserveOf(lane, this.reserve);
  }
}
