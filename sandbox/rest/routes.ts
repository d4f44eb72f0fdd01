import type { Request, Response, Router } from 'express';
import { ApiError, isApiError } from '../../shared/errors.ts';
import { bodyError } from '../../shared/issues.ts';
import { RatesRequestSchema } from '../../shared/quote.ts';
import { TrackingRequestSchema } from '../../shared/tracking.ts';
import { quote } from '../carrier/quote.ts';
import { applyFault } from '../faults/apply.ts';
import { authenticate, type MerchantAccess } from '../http/auth.ts';
import { readJsonBody } from '../http/body.ts';
import { ratesCors } from '../http/cors.ts';
import { sandboxMethodNotAllowed } from '../http/errors.ts';
import { useClientRequestId } from '../http/request-id.ts';
import { strictRouter } from '../http/router.ts';
import type { SandboxState } from '../state.ts';

type Route = 'rates' | 'tracking';

const ROUTE_NAMES: Record<Route, string> = { rates: 'POST /v1/rates', tracking: 'POST /v1/tracking' };

/** What every REST call goes through before its own work: key, plan, limiter, faults, body. */
async function admit(
  state: SandboxState,
  route: Route,
  req: Request,
  res: Response,
): Promise<{ access: MerchantAccess; body: unknown } | undefined> {
  const access = authenticate(req, state.registry, route);
  const { store } = access;
  state.stats.count(store.id, ROUTE_NAMES[route]);
  if (!store.planActive) {
    throw new ApiError(
      'subscription_required',
      'The store has no active plan.',
      state.registry.actionUrl(store, 'billing'),
    );
  }
  const decision = await state.limiter.take(`${store.id} ${route}`);
  if (!decision.ok) {
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new ApiError(
      'rate_limited',
      `Rate limit exceeded for this store and route; retry in ${decision.retryAfterSeconds} s.`,
    );
  }
  if (!(await applyFault(state, route, req, res))) return undefined;
  return { access, body: await readJsonBody(req) };
}

/** Sends the answer, or, under `drop_after_commit`, destroys the connection after the work is done. */
function answer(res: Response, body: unknown): void {
  if (res.locals.dropAfterCommit) {
    res.socket?.destroy();
    return;
  }
  res.json(body);
}

/** `POST /v1/rates` and `POST /v1/tracking` (spec 4.1, 4.2). */
export function restRoutes(state: SandboxState): Router {
  const router = strictRouter();

  router.options('/v1/rates', ratesCors);
  router.post('/v1/rates', ratesCors, async (req, res) => {
    const admitted = await admit(state, 'rates', req, res);
    if (!admitted) return;
    const parsed = RatesRequestSchema.safeParse(admitted.body);
    if (!parsed.success)
      throw bodyError(parsed.error.issues, admitted.body, { list: 'items', cep: 'destinationCep' });
    useClientRequestId(res, parsed.data.requestId);
    let output: ReturnType<typeof quote>;
    try {
      output = quote(admitted.access.store, state.registry, parsed.data);
    } catch (error) {
      // The magic 00000-429 answers like the limiter does: every 429 says when to retry.
      if (isApiError(error) && error.code === 'rate_limited')
        res.setHeader('Retry-After', String(state.rateLimit.seconds));
      throw error;
    }
    answer(res, output);
  });
  router.all('/v1/rates', ratesCors, sandboxMethodNotAllowed('POST, OPTIONS'));

  router.post('/v1/tracking', async (req, res) => {
    const admitted = await admit(state, 'tracking', req, res);
    if (!admitted) return;
    const parsed = TrackingRequestSchema.safeParse(admitted.body);
    if (!parsed.success) throw bodyError(parsed.error.issues, admitted.body, { list: 'codes' });
    const at = state.carrierClock.time();
    answer(res, { results: parsed.data.codes.map((code) => state.tracking.lookup(code, at)) });
  });
  router.all('/v1/tracking', sandboxMethodNotAllowed('POST'));

  return router;
}
