import express, { Router } from 'express';
import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import { ApiError } from '../../shared/errors.ts';
import { describeIssues } from '../../shared/issues.ts';
import { ON_ITS_WAY, parcelState } from '../../shared/parcel-status.ts';
import { parcelStory } from '../../shared/parcel-story.ts';
import { PromisesRequestSchema, type PromisesResponse } from '../../shared/promise-lookup.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { KeyedLimit } from '../../shared/windowed-counter.ts';
import { jsonOnly, methodNotAllowed } from '../http/errors.ts';
import { cors } from '../tracking/routes.ts';
import { limitVisitors } from '../tracking/visitor-limiter.ts';
import type { TransitHistory } from './history-store.ts';
import type { HistoryPromises } from './promises.ts';
import { soldPromiseOf } from './recorder.ts';

export interface PromiseRoutesDeps {
  promises: Pick<HistoryPromises, 'shownFor'>;
  /** The per-visitor limit (`BFF_VISITOR_RATE_LIMIT`), shared with the tracking API. */
  limiter: KeyedLimit;
  /** The instant of a promise (the work clock). */
  now: () => number;
}

/**
 * `POST /api/promises` `{cep, rates: [{serviceId, deliveryDays}]}` → `{promises: [{serviceId, promise}]}`: the promise
 * of each rate the calculator got from the platform, by the same function the quote core uses — but its caller is
 * anyone: the counts it sends are shown back and remembered nowhere (`shownFor`), never what a label records.
 */
export function promiseRoutes(deps: PromiseRoutesDeps): Router {
  const router = Router();
  const json = express.json({ limit: '4kb', type: () => true });
  // Any origin: the calculator runs on the store's pages, wherever they are, and the answer is dates anyone may read.
  router.use('/api/promises', cors('*'));
  router.post('/api/promises', limitVisitors(deps.limiter));
  router.post('/api/promises', jsonOnly);
  router.post('/api/promises', json, async (req, res) => {
    const parsed = PromisesRequestSchema.safeParse(req.body);
    if (!parsed.success) throw new ApiError('invalid_body', describeIssues(parsed.error.issues));
    const { cep, rates } = parsed.data;
    const at = deps.now();
    const body: PromisesResponse = {
      promises: await Promise.all(
        rates.map(async ({ serviceId, deliveryDays }) => ({
          serviceId,
          promise: await deps.promises.shownFor({ destinationCep: cep, serviceId, deliveryDays, at }),
        })),
      ),
    };
    // A promise moves with the day and the history: a shared cache may keep it a minute.
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json(body);
  });
  router.all('/api/promises', methodNotAllowed('POST'));
  return router;
}

/**
 * The tracking page's "previsão": each result of a parcel this store sold and that is still on its way (not waiting
 * for pickup: then its last day to pick up matters) carries the promise it was sold with, and `late: true` once São
 * Paulo's day at `now` (the work clock) is after the promise's last day (shared/parcel-story.ts, the function the
 * e-mails read too). A history that cannot be read leaves the results as they are.
 */
export function withPromises(
  history: Pick<TransitHistory, 'promisedFor'>,
  now: () => number = Date.now,
  stalledAmong?: (codes: readonly string[]) => Promise<Set<string>>,
): <T extends TrackingLookupResult>(results: T[]) => Promise<T[]> {
  return async (found) => {
    // What the stall e-mail said, the page says too (`stalled: true` while the watcher has not seen it move).
    const codes = found.map((result) => result.code);
    const stalled = (await stalledAmong?.(codes).catch(() => undefined)) ?? new Set<string>();
    const results = found.map((result) =>
      stalled.has(result.code) ? { ...result, stalled: true as const } : result,
    );
    let rows: Awaited<ReturnType<TransitHistory['promisedFor']>>;
    try {
      rows = await history.promisedFor(codes);
    } catch {
      return results;
    }
    return results.map((result) => {
      const promise: DeliveryPromise | undefined = ON_ITS_WAY.includes(parcelState(result).status)
        ? soldPromiseOf(rows.get(result.code))
        : undefined;
      if (!promise) return result;
      return parcelStory(result, promise, now()).late
        ? { ...result, promise, late: true }
        : { ...result, promise };
    });
  };
}
