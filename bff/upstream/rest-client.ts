import type * as z from 'zod/mini';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { type RatesRequestInput, type RatesResponse, RatesResponseSchema } from '../../shared/quote.ts';
import { type TrackingResponse, TrackingResponseSchema } from '../../shared/tracking.ts';
import type { Logger } from '../logger.ts';
import type { BudgetRoute, UpstreamBudget } from './budget.ts';
import { UpstreamError } from './errors.ts';
import { type Answer, createHttpSend, NetworkError, type Send, sendThroughFetch } from './http-send.ts';

export interface RestClientOptions {
  apiUrl: string;
  secretKey: string;
  logger: Logger;
  /** Scripted upstream answers, in tests (production sends over kept-alive node:http). */
  fetch?: typeof fetch;
  /** Seeded randomness for the jitter, in tests. */
  random?: () => number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the caller serves what it has. */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  /**
   * The whole call, retries and their waits included, ends within this (default 7 s, so a visitor's tracking request
   * is answered within the BFF's 8 s deadline).
   */
  totalTimeoutMs?: number;
  /**
   * The store's calls per route (all instances' together, with Redis): every attempt spends one; when none is left
   * the call waits for one within its deadline (at most `maxRetryAfterMs`) or fails `limited` without being sent;
   * retries stop when they would eat into its reserve.
   */
  budget?: UpstreamBudget;
}

const RETRIED = new Set([429, 502, 503, 504]);

type Route = 'rates' | 'tracking';

/** Who a tracking call is for: visitors and agents, or the BFF's watcher (its own lane of the budget). */
export type TrackingLane = 'visitors' | 'watcher';

/** Why an attempt ended without an answer. */
class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
}

/**
 * The platform's REST API with the secret key. Spec 7.3: 429 (honouring a short Retry-After), 502/503/504, network
 * errors and timeouts are retried with exponential backoff and full jitter; 400/401/402/403/404 never are. Every
 * call ends within `totalTimeoutMs`, retries included, and a retry is made only while the store's budget allows.
 */
export function createRestClient(options: RestClientOptions) {
  const {
    apiUrl,
    secretKey,
    logger,
    random = Math.random,
    retries = 3,
    baseDelayMs = 200,
    maxDelayMs = 2000,
    maxRetryAfterMs = 5000,
    timeoutMs = 5000,
    totalTimeoutMs = 7000,
    budget,
  } = options;
  const send: Send = options.fetch ? sendThroughFetch(options.fetch) : createHttpSend();
  const headers = {
    authorization: `Bearer ${secretKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };

  /** One attempt, cut at the per-attempt timeout or the call's deadline, whichever comes first. */
  async function attempt(url: URL, body: string, deadline: number): Promise<Answer> {
    const ms = Math.max(0, Math.min(timeoutMs, deadline - Date.now()));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimeout(`no answer within ${ms} ms`)), ms);
    try {
      return await send(url, headers, body, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /** How long to wait before retry `n` (1-based), or undefined when this outcome is not retried. */
  function retryDelay(n: number, outcome: Answer | Error): number | undefined {
    if (outcome instanceof Error) {
      if (!(outcome instanceof NetworkError) && !(outcome instanceof AttemptTimeout)) return undefined;
    } else if (!RETRIED.has(outcome.status)) return undefined;
    if (!(outcome instanceof Error) && (outcome.status === 429 || outcome.status === 503)) {
      const after = Number(outcome.header('retry-after'));
      if (Number.isFinite(after) && outcome.header('retry-after') !== undefined) {
        // A limit that resets later than we would wait is not retried now: the caller falls back.
        if (after * 1000 > maxRetryAfterMs) return outcome.status === 429 ? undefined : maxRetryAfterMs;
        return after * 1000;
      }
    }
    return random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
  }

  /**
   * One call of the store's allowance, waiting for it while it frees soon enough; false when it does not. Asked again
   * after each wait: a timer may end a little before the wall clock says the call freed (Node's timers count from the
   * event loop's cached time), and another caller may have taken the freed call first.
   */
  async function allowance(route: BudgetRoute, deadline: number): Promise<boolean> {
    if (!budget) return true;
    for (;;) {
      const decision = await budget.take(route);
      if (decision.ok) return true;
      if (decision.retryAfterMs > maxRetryAfterMs || Date.now() + decision.retryAfterMs >= deadline)
        return false;
      await new Promise((resolve) => setTimeout(resolve, decision.retryAfterMs));
    }
  }

  async function post<T>(
    route: Route,
    payload: unknown,
    schema: z.ZodMiniType<T>,
    lane: BudgetRoute = route,
  ): Promise<T> {
    const path = `v1/${route}`;
    const url = new URL(`${apiUrl}/${path}`);
    const body = JSON.stringify(payload);
    const deadline = Date.now() + totalTimeoutMs;
    let outcome: Answer | Error | undefined;
    for (let n = 0; ; n++) {
      if (!(await allowance(lane, deadline))) break;
      const cutByDeadline = deadline - Date.now() <= timeoutMs;
      try {
        outcome = await attempt(url, body, deadline);
      } catch (error) {
        outcome = error instanceof Error ? error : new Error(String(error));
      }
      if (!(outcome instanceof Error) && outcome.status >= 200 && outcome.status < 300) break;
      if (n >= retries) break;
      // An attempt the call's deadline cut ends the call: its timer may fire a little before the wall clock reaches the
      // deadline (Node's timers count from the loop's cached time), and a retry then would have no time left at all.
      if (outcome instanceof AttemptTimeout && cutByDeadline) break;
      const delay = retryDelay(n + 1, outcome);
      // Retries stop when the deadline would pass before the next answer, or the store's budget says no.
      if (delay === undefined || Date.now() + delay >= deadline) break;
      if (budget && !(await budget.canRetry(lane))) break;
      logger.warn(
        {
          url: url.href,
          retryCount: n + 1,
          error: outcome instanceof Error ? outcome.message : `HTTP ${outcome.status}`,
        },
        'upstream: retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    // Nothing was sent: the allowance was spent (by this instance or, with Redis, by all of them together).
    if (outcome === undefined)
      throw new UpstreamError('limited', `${path}: the store's upstream allowance is spent for now`);
    if (outcome instanceof Error) throw toUpstreamError(outcome);
    if (outcome.status < 200 || outcome.status >= 300) throw httpError(outcome);
    const json = jsonOf(outcome.text);
    if (json === undefined) throw new UpstreamError('malformed', `${path}: the response is not JSON`);
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new UpstreamError('malformed', `${path}: the response does not match the contract`);
    return parsed.data;
  }

  return {
    rates: (request: RatesRequestInput): Promise<RatesResponse> =>
      post('rates', request, RatesResponseSchema),
    /** `lane: 'watcher'` spends the watcher's share of the tracking allowance (`BFF_WATCH_SHARE`), never the visitors'. */
    tracking: (codes: string[], lane: TrackingLane = 'visitors'): Promise<TrackingResponse> =>
      post('tracking', { codes }, TrackingResponseSchema, lane === 'watcher' ? 'tracking-watch' : 'tracking'),
  };
}

export type RestClient = ReturnType<typeof createRestClient>;

/** An answer's body as JSON; undefined when it is not JSON. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function httpError(answer: Answer): UpstreamError {
  const { status } = answer;
  const { code, actionUrl } = ErrorBodySchema.safeParse(jsonOf(answer.text)).data?.error ?? {};
  const details = { status, ...(code ? { code } : {}), ...(actionUrl ? { actionUrl } : {}) };
  if (status === 429) return new UpstreamError('limited', `upstream rate limit (${code ?? status})`, details);
  if (status >= 500) return new UpstreamError('unavailable', `upstream failure (${code ?? status})`, details);
  return new UpstreamError('config', `upstream refused the request (${code ?? status})`, details);
}

function toUpstreamError(error: Error): UpstreamError {
  if (error instanceof AttemptTimeout) return new UpstreamError('unavailable', 'upstream timeout');
  if (error instanceof NetworkError) return new UpstreamError('unavailable', 'upstream unreachable');
  return new UpstreamError('unavailable', `${error.name}: ${error.message}`);
}
