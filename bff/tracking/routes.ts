import express, { type RequestHandler, type Response, Router } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { bodyError } from '../../shared/issues.ts';
import { senderKey } from '../../shared/security/address.ts';
import { TrackingLookupRequestSchema, type TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { KeyedLimit } from '../../shared/windowed-counter.ts';
import type { BffConfig } from '../config.ts';
import { jsonOnly, methodNotAllowed, rateLimited } from '../http/errors.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import { normalizeCodes } from './codes.ts';
import type { TrackingService } from './service.ts';
import { limitVisitors } from './visitor-limiter.ts';
import { ShareSpent } from './visitor-share.ts';

/** CORS for the origins the merchant allowed, and for nobody else; `'*'`: for any origin (an answer anyone may read). */
export function cors(allowed: readonly string[] | '*'): RequestHandler {
  const any = allowed === '*';
  const origins = new Set(any ? [] : allowed);
  return (req, res, next) => {
    const origin = req.headers.origin;
    res.vary('Origin');
    if (origin && (any || origins.has(origin))) {
      res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
      res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'POST');
        res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
        res.setHeader('Access-Control-Max-Age', '600');
        res.status(204).end();
        return;
      }
    } else if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}

/** Normalizes, checks the S10 form and folds duplicates, keeping the first-seen order. */
export function parseCodes(body: unknown): string[] {
  const parsed = TrackingLookupRequestSchema.safeParse(body);
  if (!parsed.success) throw bodyError(parsed.error.issues, body, { list: 'codes' });
  const codes = normalizeCodes(parsed.data.codes);
  return [...new Set(codes)];
}

/** What a failed lookup answers on `/api/tracking` and `/api/orders/lookup`; anything else is thrown on as it is. */
export function lookupFailure(res: Response, error: unknown): unknown {
  // This visitor's fair share of the store's platform calls is spent; cached codes are still answered.
  if (error instanceof ShareSpent) {
    const wait = error.retryAfterSeconds;
    return rateLimited(res, wait, `Too many lookups of codes not seen recently; retry in ${wait} s.`);
  }
  if (!isUpstreamError(error)) return error;
  // Never the upstream actionUrl or internals: the visitor learns only that tracking is unavailable.
  const message =
    error.failure === 'config'
      ? 'Tracking is unavailable right now.'
      : 'Tracking is temporarily unavailable; try again in a moment.';
  return new ApiError('track_failed', message);
}

/** `POST /api/tracking` `{codes}` → `{results}` in request order (docs/routes.md; docs/tracking.md). */
export function trackingRoutes(deps: {
  config: BffConfig;
  service: TrackingService;
  /** The per-visitor limit (`BFF_VISITOR_RATE_LIMIT`), shared with the order lookup. */
  limiter: KeyedLimit;
  /** Adds the delivery promise of this store's parcels still on their way (bff/promise/routes.ts). */
  promised?: <T extends TrackingLookupResult>(results: T[]) => Promise<T[]>;
}): Router {
  const router = Router();
  const json = express.json({ limit: '8kb', type: () => true });

  router.use('/api/tracking', cors(deps.config.allowedOrigins));
  router.post('/api/tracking', limitVisitors(deps.limiter));
  router.post('/api/tracking', jsonOnly);
  router.post('/api/tracking', json, async (req, res) => {
    const codes = parseCodes(req.body);
    try {
      const found = await deps.service.lookup(codes, senderKey(req));
      const results = deps.promised ? await deps.promised(found) : found;
      res.setHeader('Cache-Control', 'no-store');
      res.json({ results });
    } catch (error) {
      throw lookupFailure(res, error);
    }
  });
  router.all('/api/tracking', methodNotAllowed('POST'));
  return router;
}
