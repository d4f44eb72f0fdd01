import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../shared/security/hash.ts';
import type { CounterPolicy, RateLimit } from '../../shared/windowed-counter.ts';

/** Failed order lookups one visitor may make in 15 minutes, and one order number may be tried with. */
export const LOOKUP_FAILURES = {
  perVisitor: { calls: 10, seconds: 900 },
  perOrder: { calls: 5, seconds: 900 },
} as const satisfies Record<string, RateLimit>;

/**
 * One attempt counted as a failure before it is tried: kept when it failed, `release`d when it turned out right; or
 * refused, the key's failures being spent.
 */
export type Reservation = { ok: true; release(): Promise<void> } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one failure under `key` now, in one atomic step, unless the key's failures are spent: so concurrent attempts
 * never get more than the limit through, whichever of them fail. The failure is a named hit of the windowed counter,
 * so `release` takes back this one only, once, and never from a later window.
 */
export async function reserveFailure(failures: CounterPolicy, key: string): Promise<Reservation> {
  const hit = randomUUID();
  const decision = await failures.take(key, hit);
  if (!decision.ok) return decision;
  return { ok: true, release: () => failures.release(key, hit) };
}

/**
 * Failed order lookups (an unknown order, or a wrong CEP: the same to the visitor) are counted per visitor and per
 * order number, so neither a visitor guessing many orders nor many visitors guessing one order's CEP get far. Order
 * numbers are counted by their hash: the counters never hold one in clear. Every order number tried counts, known or
 * not, so a 429 tells nothing about whether an order exists.
 *
 * An attempt is counted before the order is read, and taken back when it was not a failure, as the login guard does
 * (shared/oauth/login-guard.ts): concurrent guesses on any number of instances never get more than the limit read.
 */
export class LookupThrottle {
  private readonly visitors: CounterPolicy;
  private readonly orders: CounterPolicy;

  /** The two policies over the windowed counter (`LOOKUP_FAILURES` their limits). */
  constructor(counters: { visitors: CounterPolicy; orders: CounterPolicy }) {
    this.visitors = counters.visitors;
    this.orders = counters.orders;
  }

  /**
   * Before the order is read: counts this attempt as a failure of the visitor and of the order number, or refuses it
   * (the seconds to wait) when either has none left — the refused attempt then counts against neither.
   */
  async admit(visitor: string, orderId: string): Promise<Reservation> {
    const reservations = await Promise.all([
      reserveFailure(this.visitors, visitor),
      reserveFailure(this.orders, orderKey(orderId)),
    ]);
    const held = reservations.filter((reservation) => reservation.ok);
    const release = async () => void (await Promise.all(held.map((reservation) => reservation.release())));
    if (held.length === reservations.length) return { ok: true, release };
    await release();
    const waits = reservations.map((reservation) => (reservation.ok ? 0 : reservation.retryAfterSeconds));
    return { ok: false, retryAfterSeconds: Math.max(...waits) };
  }
}

function orderKey(orderId: string): string {
  return sha256Hex(orderId.trim().toLowerCase());
}
