import type { RateLimit } from '../../shared/windowed-counter.ts';

/**
 * The share of the store's upstream budget (`SHIPPING_RATE_LIMIT`, per its window: 60 calls a minute by default) one
 * visitor (an IPv4 address, an IPv6 /64) may cause with lookups of codes not in the cache: a tenth, so ten visitors at
 * their share would be needed to take it all, and one attacking visitor leaves 90 % to everyone else. Cache hits are
 * free. Measured before (the attack round): one visitor inside its own 120-a-minute limit, sending 50 fresh codes
 * each time, left legitimate shoppers 19 of 19 `502 track_failed` over 40 s.
 */
export const VISITOR_SHARE = 0.1;

/** One visitor's allowance of lookups that reach the platform: a tenth of the store's calls (at least 1) per window. */
export function visitorShareOf(store: RateLimit): RateLimit {
  return { calls: Math.max(1, Math.floor(store.calls * VISITOR_SHARE)), seconds: store.seconds };
}

/** A visitor's lookup needs the platform and its share is spent: the routes answer 429 (`lookupFailure`). */
export class ShareSpent extends Error {
  override readonly name = 'ShareSpent';
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(`this visitor's share of the store's tracking calls is spent; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
