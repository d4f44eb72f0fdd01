import { LRUCache } from 'lru-cache';
import type { RateLimit } from '../../shared/rate-limiter.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import type { RedisConnection } from '../backends/redis.ts';

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

/** Failures counted per key in a fixed window: `MemoryFailures` here, `RedisFailures` for every instance. */
export interface FailureCounter {
  /**
   * Counts one failure now, in one atomic step, unless the key's failures are spent: so concurrent attempts never get
   * more than the limit through, whichever of them fail.
   */
  reserve(key: string): Promise<Reservation>;
}

/** A fixed window per key in a bounded LRU map: at most `maxKeys` keys, the least recently failed forgotten first. */
export class MemoryFailures implements FailureCounter {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>;
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, options: { maxKeys?: number; now?: () => number } = {}) {
    this.limit = limit;
    this.now = options.now ?? Date.now;
    this.windows = new LRUCache({ max: options.maxKeys ?? 50_000 });
  }

  async reserve(key: string): Promise<Reservation> {
    const now = this.now();
    let window = this.windows.get(key);
    if (window && window.endsAt > now && window.count >= this.limit.calls) {
      return { ok: false, retryAfterSeconds: toSeconds(window.endsAt - now) };
    }
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.limit.seconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const held = window;
    return {
      ok: true,
      release: async () => {
        // Only the window it was counted in: after that window ended, there is nothing to take back.
        if (this.windows.peek(key) === held && held.endsAt > this.now() && held.count > 0) held.count -= 1;
      },
    };
  }
}

/**
 * Counts one failure unless the key's are spent, in Redis's own time: a key holds the count and expires when its
 * window ends (the format rate-limiter-flexible wrote, so counts survive a rolling deploy). Answers `{1, ms, ends}`
 * when counted (`ends`: when its window ends, by Redis's clock — the window's identity for RELEASE), `{0, ms until
 * the window ends}` when spent.
 */
const RESERVE = `
local ttl = redis.call('PTTL', KEYS[1])
local count = 0
if ttl > 0 then count = tonumber(redis.call('GET', KEYS[1])) or 0 else ttl = tonumber(ARGV[2]) end
if count >= tonumber(ARGV[1]) then return {0, ttl} end
redis.call('SET', KEYS[1], count + 1, 'PX', ttl)
local t = redis.call('TIME')
return {1, ttl, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ttl}
`;

/**
 * Takes one failure back, in the window it was counted in (the one ending at ARGV[1], give or take the clock's
 * rounding): never below zero, never from a window that began after.
 */
const RELEASE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
local t = redis.call('TIME')
local ends = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + ttl
if math.abs(ends - tonumber(ARGV[1])) > 50 then return 0 end
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then redis.call('DECR', KEYS[1]) end
return 1
`;

/**
 * The same count in Redis, shared by every instance; this instance's own while Redis is away. Two small scripts
 * rather than rate-limiter-flexible (which the visitor limit uses): its `consume` counts a refused attempt too, and
 * its `reward` after a window ended starts the next one below zero, a free guess.
 */
export class RedisFailures implements FailureCounter {
  private readonly connection: RedisConnection;
  private readonly local: FailureCounter;
  private readonly limit: RateLimit;
  private readonly prefix: string;

  constructor(connection: RedisConnection, name: string, limit: RateLimit, local: FailureCounter) {
    this.connection = connection;
    this.local = local;
    this.limit = limit;
    this.prefix = `${connection.prefix}:lookup-failures:${name}`;
  }

  reserve(key: string): Promise<Reservation> {
    const redisKey = `${this.prefix}:${key}`;
    return this.connection.orLocal(
      async (): Promise<Reservation> => {
        const [counted, ms, ends] = (await this.connection.commands.eval(
          RESERVE,
          1,
          redisKey,
          this.limit.calls,
          this.limit.seconds * 1000,
        )) as number[];
        if (counted !== 1) return { ok: false, retryAfterSeconds: toSeconds(Number(ms)) };
        return {
          ok: true,
          // Where it was counted; with Redis gone meanwhile, the failure stays counted there (never a free guess).
          release: () =>
            this.connection.orLocal(
              async () => void (await this.connection.commands.eval(RELEASE, 1, redisKey, String(ends))),
              () => undefined,
            ),
        };
      },
      () => this.local.reserve(key),
    );
  }
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
  private readonly visitors: FailureCounter;
  private readonly orders: FailureCounter;

  constructor(counters: { visitors: FailureCounter; orders: FailureCounter }) {
    this.visitors = counters.visitors;
    this.orders = counters.orders;
  }

  /**
   * Before the order is read: counts this attempt as a failure of the visitor and of the order number, or refuses it
   * (the seconds to wait) when either has none left — the refused attempt then counts against neither.
   */
  async admit(visitor: string, orderId: string): Promise<Reservation> {
    const reservations = await Promise.all([
      this.visitors.reserve(visitor),
      this.orders.reserve(orderKey(orderId)),
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

function toSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
