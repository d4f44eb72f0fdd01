import express, { Router } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { OrderLookupRequestSchema, type OrderLookupResponse } from '../../shared/order-lookup.ts';
import { senderKey } from '../../shared/security/address.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { KeyedLimit } from '../../shared/windowed-counter.ts';
import type { BffConfig } from '../config.ts';
import { jsonOnly, methodNotAllowed, rateLimited } from '../http/errors.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import { cors, lookupFailure } from '../tracking/routes.ts';
import type { TrackingService } from '../tracking/service.ts';
import { limitVisitors } from '../tracking/visitor-limiter.ts';
import type { OrderLookup } from './lookup.ts';
import type { LookupThrottle } from './lookup-throttle.ts';

/**
 * Every `order_not_found` is answered no sooner than this after the request arrived: an unknown order and a wrong CEP
 * do different amounts of work (no label rows, or rows whose CEPs are read), and this floor hides the difference.
 */
export const NOT_FOUND_FLOOR_MS = 150;

export interface OrderRoutesDeps {
  config: BffConfig;
  orders: OrderLookup;
  tracking: Pick<TrackingService, 'lookup'>;
  limiter: KeyedLimit;
  throttle: LookupThrottle;
  /** Waits (tests: the floor is observed, not slept). */
  wait?: (ms: number) => Promise<void>;
  /** Adds the delivery promise of this store's parcels still on their way (bff/promise/routes.ts). */
  promised?: <T extends TrackingLookupResult>(results: T[]) => Promise<T[]>;
}

/** `POST /api/orders/lookup` `{orderId, cep}` → `{orderId, results}` (docs/architecture.md, "Notifications and orders without a code"). */
export function orderRoutes(deps: OrderRoutesDeps): Router {
  const router = Router();
  const json = express.json({ limit: '2kb', type: () => true });
  const wait = deps.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  router.use('/api/orders/lookup', cors(deps.config.allowedOrigins));
  router.post('/api/orders/lookup', limitVisitors(deps.limiter));
  router.post('/api/orders/lookup', jsonOnly);
  router.post('/api/orders/lookup', json, async (req, res) => {
    const started = Date.now();
    const { orderId, cep } = parseInput(OrderLookupRequestSchema, req.body);
    const visitor = senderKey(req);
    // Counted as a failure before the order is read, so concurrent guesses never get past the limit.
    const admission = await deps.throttle.admit(visitor, orderId);
    if (!admission.ok) {
      const wait = admission.retryAfterSeconds;
      throw rateLimited(res, wait, `Too many failed lookups; retry in ${wait} s.`);
    }
    let parcels: LedgerAttempt[] | undefined;
    try {
      parcels = await deps.orders.byOrderAndCep(orderId, cep);
    } catch (error) {
      // The ledger failed, not the guess: the attempt is not a failure.
      await admission.release();
      throw error;
    }
    if (!parcels) {
      await wait(Math.max(0, started + NOT_FOUND_FLOOR_MS - Date.now()));
      throw new ApiError('order_not_found');
    }
    // The number and the CEP were right: whatever tracking answers next, the attempt was no failure.
    await admission.release();
    try {
      const codes = parcels.flatMap((parcel) => parcel.trackingCode ?? []);
      const found = await deps.tracking.lookup(codes, visitor);
      const results = deps.promised ? await deps.promised(found) : found;
      const body: OrderLookupResponse = { orderId, results };
      res.setHeader('Cache-Control', 'no-store');
      res.json(body);
    } catch (error) {
      throw lookupFailure(res, error);
    }
  });
  router.all('/api/orders/lookup', methodNotAllowed('POST'));
  return router;
}
