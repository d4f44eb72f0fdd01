/** `calls` per `seconds`, e.g. the spec's 60/60. */
export interface RateLimit {
  calls: number;
  seconds: number;
}

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** How many `take`s between sweeps of keys whose every call has left the window (bounds memory). */
const SWEEP_EVERY = 1024;

/** The admitted calls of one key, oldest first from `head` (a queue over an array: O(1) amortized per call). */
interface CallLog {
  times: number[];
  head: number;
}

/**
 * A sliding-window log per key, in memory (spec 8: per store and route; the BFF: per visitor).
 * It never admits more than `calls` within any `seconds`-long interval, wherever the interval starts: a call is
 * admitted only when fewer than `calls` were admitted in the `seconds` before it. (A fixed window let twice the
 * limit through across a window edge.) Memory: at most `calls` timestamps per active key.
 */
export class RateLimiter {
  private readonly logs = new Map<string, CallLog>();
  private readonly limit: RateLimit;
  private readonly now: () => number;
  private takes = 0;

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.limit = limit;
    this.now = now;
  }

  take(key: string): LimitDecision {
    const now = this.now();
    const windowMs = this.limit.seconds * 1000;
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(now - windowMs);
    let log = this.logs.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.logs.set(key, log);
    }
    // Calls at or before now - window no longer count: the window is (now - window, now].
    while (log.head < log.times.length && (log.times[log.head] as number) <= now - windowMs) log.head++;
    if (log.head >= 1024 && log.head * 2 >= log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    if (log.times.length - log.head >= this.limit.calls) {
      const oldest = log.times[log.head] as number;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    log.times.push(now);
    return { ok: true };
  }

  reset(): void {
    this.logs.clear();
  }

  private sweep(before: number): void {
    for (const [key, log] of this.logs) {
      const last = log.times[log.times.length - 1];
      if (last === undefined || last <= before) this.logs.delete(key);
    }
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
