import { sha256Hex } from '../../shared/security/hash.ts';
import type { KeyedLimit, RateLimit, WindowDecision } from '../../shared/windowed-counter.ts';

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

/**
 * The floor of the lane kept for the callers that hold the store's own credential — a checkout token (the store's
 * checkout server verifying before it charges, `/api/rates/verify`) and the desk: the other kinds together (Shopify's
 * and Nuvemshop's checkouts for anonymous shoppers, agents, unnamed callers) spend at most the rest, so two anonymous
 * checkout storms, each within its own share, can no longer take the whole lane (issue 48, finding 7).
 */
export const QUOTE_FLOOR = 0.25;

/** The kinds the floor is kept for. */
export const FLOOR_KINDS: readonly QuoteCallerKind[] = ['checkout', 'desk'];

/** What the kinds outside the floor may spend together: the lane less its floor (a lane of one call keeps none). */
export function openLaneOf(lane: RateLimit): RateLimit {
  const floor = lane.calls < 2 ? 0 : Math.max(1, Math.floor(lane.calls * QUOTE_FLOOR + 1e-9));
  return { calls: lane.calls - floor, seconds: lane.seconds };
}

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

/**
 * The shares of every caller: a policy per kind over the windowed counter, from `windowOf` (bff/backends/backends.ts: memory or Redis), and
 * `open`, the one window every kind outside `FLOOR_KINDS` also spends from (`openLaneOf`); none: no floor is kept.
 */
export class QuoteShares {
  private readonly windows: Map<QuoteCallerKind, KeyedLimit>;
  private readonly open: KeyedLimit | undefined;

  constructor(windowOf: (kind: QuoteCallerKind) => KeyedLimit, open?: KeyedLimit) {
    this.windows = new Map(QUOTE_CALLER_KINDS.map((kind) => [kind, windowOf(kind)]));
    this.open = open;
  }

  /**
   * Spends one uncached quote of this caller's share — and, outside the floor's kinds, one of the open part of the
   * lane — or says when one frees. The caller's own share is spent first, so a caller at its share never spends the
   * open part that others still have a share of.
   */
  async take(caller: QuoteCaller): Promise<WindowDecision> {
    const window = this.windows.get(caller.kind);
    if (!window) throw new Error(`no quote share for callers of kind ${caller.kind}`);
    const own = await window.take(callerKey(caller));
    if (!own.ok || !this.open || FLOOR_KINDS.includes(caller.kind)) return own;
    return this.open.take('open');
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
