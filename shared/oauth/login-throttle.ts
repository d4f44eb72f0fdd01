/**
 * Slows down repeated wrong logins per client address: after each failure the next attempt is refused until a delay
 * that doubles (1 s, 2 s, 4 s … at most 5 min) has passed; a success clears it. Time is injectable (tests).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; until: number }>();
  private readonly now: () => number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; baseMs?: number; maxMs?: number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.baseMs = options.baseMs ?? 1000;
    this.maxMs = options.maxMs ?? 300_000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** Milliseconds the address must still wait before its next attempt (0: it may try now). */
  waitMs(address: string): number {
    const entry = this.failures.get(address);
    return entry ? Math.max(0, entry.until - this.now()) : 0;
  }

  fail(address: string): void {
    const count = (this.failures.get(address)?.count ?? 0) + 1;
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(count - 1, 30));
    this.failures.delete(address);
    if (this.failures.size >= this.maxEntries) {
      // Bounded memory under a flood of addresses: forget the oldest.
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(address, { count, until: this.now() + delay });
  }

  succeed(address: string): void {
    this.failures.delete(address);
  }

  clear(): void {
    this.failures.clear();
  }
}
