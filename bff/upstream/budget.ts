import type { RateLimit } from '../../shared/rate-limit.ts';

/** The routes the platform limits separately (spec 8: per store and route). */
export type BudgetRoute = 'rates' | 'tracking';

export type BudgetDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * The store's upstream allowance (spec 8, `SHIPPING_RATE_LIMIT`: 60 calls per 60 s per store and route), spent before
 * every upstream call, so the BFF — all of its instances together, with a shared store — never sends a call the
 * platform would answer with 429. A retry goes only while more than the reserve is left, so retries never eat the
 * calls that visitors' first lookups need.
 */
/** `MemoryBudget` for one instance, or `RedisBudget` (redis-budget.ts) for all of them together. */
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

/** A sliding log of the last window's calls per route, in process memory (one instance). */
export class MemoryBudget implements UpstreamBudget {
  private readonly sent = new Map<BudgetRoute, number[]>();
  private readonly limit: RateLimit;
  private readonly reserve: number;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { reserve?: number; now?: () => number } = {}) {
    this.limit = limit;
    this.reserve = reserveOf(limit, options.reserve);
    this.now = options.now ?? Date.now;
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
    const oldest = log[0];
    if (log.length >= this.limit.calls && oldest !== undefined) {
      return { ok: false, retryAfterMs: Math.max(1, oldest + this.limit.seconds * 1000 - now) };
    }
    log.push(now);
    return { ok: true };
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    return this.limit.calls - this.log(route, this.now()).length > this.reserve;
  }
}
