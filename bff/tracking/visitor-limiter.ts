import { isIP } from 'node:net';
import type { Request } from 'express';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitDecision, RateLimit } from '../../shared/rate-limit.ts';

/**
 * The per-visitor limit of the tracking API. One small interface, so a shared store (Redis, for several instances)
 * can replace the in-process one without touching the route.
 */
export interface VisitorLimiter {
  take(key: string): Promise<LimitDecision>;
}

/** Keys the in-process limiter holds at most; beyond it, new visitors share one bucket until keys expire. */
export const DEFAULT_MAX_VISITOR_KEYS = 50_000;
const OVERFLOW_KEY = 'overflow';

/**
 * rate-limiter-flexible's memory store: a fixed window per key that expires on its own, so memory follows the
 * visitors of the last window, and never more than `maxKeys` of them (a flood of distinct addresses lands in one
 * shared bucket instead of growing the process).
 */
export class MemoryVisitorLimiter implements VisitorLimiter {
  private readonly limiter: RateLimiterMemory;
  private readonly maxKeys: number;

  constructor(limit: RateLimit, options: { maxKeys?: number } = {}) {
    this.limiter = new RateLimiterMemory({ points: limit.calls, duration: limit.seconds });
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_VISITOR_KEYS;
  }

  /** Keys held right now (the store's own map: the figure the memory test watches). */
  get size(): number {
    const storage = (this.limiter as unknown as { _memoryStorage?: { _storage?: Map<string, unknown> } })
      ._memoryStorage?._storage;
    if (!(storage instanceof Map)) throw new Error('rate-limiter-flexible: memory storage not found');
    return storage.size;
  }

  async take(key: string): Promise<LimitDecision> {
    const known = (await this.limiter.get(key)) !== null;
    const bucket = known || this.size < this.maxKeys ? key : OVERFLOW_KEY;
    return consume(this.limiter, bucket);
  }
}

/** One point of a rate-limiter-flexible limiter (any store), as our `LimitDecision`. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<LimitDecision> {
  try {
    await limiter.consume(key);
    return { ok: true };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  }
}

/** The /64 network of an IPv6 address (one subscriber usually holds a whole /64), or the IPv4 address itself. */
export function addressKey(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] && isIP(mapped[1]) === 4) return mapped[1];
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Whom to count: `req.ip` (which Express takes from X-Forwarded-For only as far as `trust proxy` allows) when it is a
 * valid IP address, else the socket's own address. Arbitrary strings in a forwarded header never become keys.
 */
export function visitorKey(req: Request): string {
  return addressKey(req.ip ?? '') ?? addressKey(req.socket.remoteAddress ?? '') ?? 'unknown';
}
