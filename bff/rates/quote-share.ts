import type { LimitDecision, RateLimit } from '../../shared/rate-limiter.ts';
import { sha256Hex } from '../../shared/security/hash.ts';

/**
 * Who asks the quote core for a quote (docs/checkout/quote-core.md, "Fair shares of the store's quotes"). Every caller
 * spends its own share of the BFF's quotes; cached answers and answers shared with an identical quote in flight are
 * free. Measured before the shares (issue 38): one agent with the `labels` scope sent 70 `preview_label` calls in
 * 0.9 s, took the store's 60 quotes of the minute, and the next 5 of 5 shopper quotes got 429.
 */
export const QUOTE_CALLER_KINDS = ['agent', 'checkout', 'platform', 'desk', 'bff'] as const;
export type QuoteCallerKind = (typeof QUOTE_CALLER_KINDS)[number];

export interface QuoteCaller {
  kind: QuoteCallerKind;
  /** Which one of its kind: an agent's name, a checkout token's hash, `shopify`/`nuvemshop`, `desk`. */
  id: string;
}

/**
 * Each caller's share of the BFF's quote lane (`SHIPPING_RATE_LIMIT` less the browsers' reserve,
 * `BFF_BROWSER_QUOTE_SHARE`), by kind: where shoppers pay — a hosted checkout, a checkout token (the store's checkout
 * server verifying, an agentic checkout) — and the merchant's desk, half of it each; an agent, and a caller nobody
 * named, a quarter. With the defaults (60 a minute, half kept for browsers) that is 15 uncached quotes a minute for
 * each checkout and the desk, 7 for each agent.
 */
export const QUOTE_SHARES: Record<QuoteCallerKind, number> = {
  agent: 0.25,
  checkout: 0.5,
  platform: 0.5,
  desk: 0.5,
  bff: 0.25,
};

/** One caller's allowance of uncached quotes: its kind's share of the lane (at least 1) per window. */
export function quoteShareOf(lane: RateLimit, kind: QuoteCallerKind): RateLimit {
  return { calls: Math.max(1, Math.floor(lane.calls * QUOTE_SHARES[kind] + 1e-9)), seconds: lane.seconds };
}

/** A caller the code did not name: they all share one share. */
export const UNNAMED_CALLER: QuoteCaller = { kind: 'bff', id: 'unnamed' };

/** The desk's quotes: the merchant's own. */
export const DESK_CALLER: QuoteCaller = { kind: 'desk', id: 'desk' };

/** The quote caller of a label's issuer: the desk, or the agent it names (`issuedBy`). */
export function quoteCallerOf(issuer: { issuedBy: string }): QuoteCaller {
  return issuer.issuedBy === 'desk' ? DESK_CALLER : { kind: 'agent', id: issuer.issuedBy };
}

/** A checkout token's caller: by a hash of the token, so the token itself is never a key in Redis or a log. */
export function checkoutCaller(token: string): QuoteCaller {
  return { kind: 'checkout', id: sha256Hex(token).slice(0, 16) };
}

/** The key one caller's share is counted under. */
export function callerKey(caller: QuoteCaller): string {
  return `${caller.kind}:${caller.id}`;
}

/** A per-key window (the visitor limiters of bff/tracking/ fit: memory, or Redis shared by every instance). */
export interface ShareWindow {
  take(key: string): Promise<LimitDecision>;
}

/** The shares of every caller: a window per kind, from `windowOf` (bff/backends/backends.ts: memory or Redis). */
export class QuoteShares {
  private readonly windows: Map<QuoteCallerKind, ShareWindow>;

  constructor(windowOf: (kind: QuoteCallerKind) => ShareWindow) {
    this.windows = new Map(QUOTE_CALLER_KINDS.map((kind) => [kind, windowOf(kind)]));
  }

  /** Spends one uncached quote of this caller's share, or says when the share frees one. */
  take(caller: QuoteCaller): Promise<LimitDecision> {
    const window = this.windows.get(caller.kind);
    if (!window) throw new Error(`no quote share for callers of kind ${caller.kind}`);
    return window.take(callerKey(caller));
  }
}

/** A caller's share of uncached quotes is spent: refuse it (429 or the tool's reason) while others are served. */
export class QuoteShareSpent extends Error {
  override readonly name = 'QuoteShareSpent';
  readonly retryAfterSeconds: number;
  /** Whose share it was (`callerKey`): a caller that joined this quote in flight asks again on its own. */
  readonly callerKey: string;

  constructor(retryAfterSeconds: number, caller: QuoteCaller) {
    super(`this caller's share of the store's quotes is spent; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
    this.callerKey = callerKey(caller);
  }
}

export function isQuoteShareSpent(error: unknown): error is QuoteShareSpent {
  return error instanceof Error && error.name === 'QuoteShareSpent';
}
