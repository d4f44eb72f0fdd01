/** `calls` per `seconds`, e.g. the spec's 60/60. */
export interface RateLimit {
  calls: number;
  seconds: number;
}

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** A fixed window per key, in memory (spec 8: per store and route; the BFF: per visitor). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.limit = limit;
    this.now = now;
  }

  take(key: string): LimitDecision {
    const now = this.now();
    const windowMs = this.limit.seconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit.calls) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)) };
    }
    window.count += 1;
    return { ok: true };
  }

  reset(): void {
    this.windows.clear();
  }
}

/** Parses `60/60` (calls/seconds). */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return undefined;
  const calls = Number(match[1]);
  const seconds = Number(match[2]);
  return calls > 0 && seconds > 0 ? { calls, seconds } : undefined;
}
