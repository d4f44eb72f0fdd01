import type { RequestHandler } from 'express';
import { senderKey } from '../../shared/security/address.ts';
import type { KeyedLimit } from '../../shared/windowed-counter.ts';
import { rateLimited } from '../http/errors.ts';

/**
 * Takes one of the visitor's lookups, or answers `rate_limited` with `Retry-After` (the tracking and order APIs). The
 * visitor is its `senderKey`: an IP address as far as `trust proxy` allows, an IPv6 address by its /64. The limit is
 * a policy over the windowed counter (`Backends.visitorLimiter`: memory, or Redis shared by every instance).
 */
export function limitVisitors(limiter: KeyedLimit): RequestHandler {
  return async (req, res, next) => {
    const decision = await limiter.take(senderKey(req));
    if (decision.ok) return next();
    const wait = decision.retryAfterSeconds;
    throw rateLimited(res, wait, `Too many lookups; retry in ${wait} s.`);
  };
}
