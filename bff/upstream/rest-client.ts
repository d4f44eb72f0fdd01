import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import type * as z from 'zod/mini';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { type RatesRequestInput, type RatesResponse, RatesResponseSchema } from '../../shared/quote.ts';
import { type TrackingResponse, TrackingResponseSchema } from '../../shared/tracking.ts';
import type { Logger } from '../logger.ts';
import type { UpstreamBudget } from './budget.ts';
import { UpstreamError } from './errors.ts';
import { createHttpFetch } from './http-fetch.ts';

export interface RestClientOptions {
  apiUrl: string;
  secretKey: string;
  logger: Logger;
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
   * The whole call, retries and their waits included, ends within this (default 7 s: a visitor's tracking request is
   * answered within 8 s, spec-independent BFF promise).
   */
  totalTimeoutMs?: number;
  /** The store's calls per route; retries stop when they would eat into its reserve. */
  budget?: UpstreamBudget;
}

/**
 * The platform's REST API with the secret key (ky). Spec 7.3: 429 (honouring Retry-After), 502/503/504, network
 * errors and timeouts are retried with exponential backoff and full jitter; 400/401/402/403/404 never are.
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
  const base: KyInstance = ky.create({
    prefix: apiUrl,
    headers: { authorization: `Bearer ${secretKey}` },
    timeout: Math.min(timeoutMs, totalTimeoutMs),
    totalTimeout: totalTimeoutMs,
    fetch: options.fetch ?? createHttpFetch(),
    retry: {
      limit: retries,
      methods: ['post'],
      statusCodes: [429, 502, 503, 504],
      afterStatusCodes: [429, 503],
      maxRetryAfter: maxRetryAfterMs,
      backoffLimit: maxDelayMs,
      delay: (attempt) => baseDelayMs * 2 ** (attempt - 1),
      jitter: (delay) => random() * delay,
      retryOnTimeout: true,
    },
  });
  /** One instance per route, so a retry knows which route's budget it would spend. */
  const forRoute = (route: string): KyInstance =>
    base.extend({
      retry: {
        shouldRetry: async ({ error }) => {
          // A limit that resets later than we would wait is not retried now: the caller falls back.
          if (isHTTPError(error) && error.response.status === 429) {
            const after = Number(error.response.headers.get('retry-after'));
            if (after * 1000 > maxRetryAfterMs) return false;
          }
          if (budget && !(await budget.canRetry(route))) return false;
          return undefined;
        },
      },
      hooks: {
        beforeRequest: [async () => void (await budget?.spend(route))],
        beforeRetry: [
          async ({ request, retryCount, error }) => {
            await budget?.spend(route);
            logger.warn({ url: request.url, retryCount, error: describe(error) }, 'upstream: retrying');
          },
        ],
      },
    });
  const routes = { rates: forRoute('v1/rates'), tracking: forRoute('v1/tracking') };

  async function post<T>(route: keyof typeof routes, body: unknown, schema: z.ZodMiniType<T>): Promise<T> {
    const path = `v1/${route}`;
    let json: unknown;
    try {
      json = await routes[route].post(path, { json: body }).json();
    } catch (error) {
      throw await toUpstreamError(error);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new UpstreamError('malformed', `${path}: the response does not match the contract`);
    return parsed.data;
  }

  return {
    rates: (request: RatesRequestInput): Promise<RatesResponse> =>
      post('rates', request, RatesResponseSchema),
    tracking: (codes: string[]): Promise<TrackingResponse> =>
      post('tracking', { codes }, TrackingResponseSchema),
  };
}

export type RestClient = ReturnType<typeof createRestClient>;

async function toUpstreamError(error: unknown): Promise<UpstreamError> {
  if (isHTTPError(error)) {
    const status = error.response.status;
    let code: string | undefined;
    let actionUrl: string | undefined;
    try {
      const body = ErrorBodySchema.safeParse(error.data ?? (await error.response.clone().json()));
      code = body.success ? body.data.error.code : undefined;
      actionUrl = body.success ? body.data.error.actionUrl : undefined;
    } catch {
      code = undefined;
    }
    const details = { status, ...(code ? { code } : {}), ...(actionUrl ? { actionUrl } : {}) };
    if (status === 429)
      return new UpstreamError('limited', `upstream rate limit (${code ?? status})`, details);
    if (status >= 500)
      return new UpstreamError('unavailable', `upstream failure (${code ?? status})`, details);
    return new UpstreamError('config', `upstream refused the request (${code ?? status})`, details);
  }
  if (isTimeoutError(error)) return new UpstreamError('unavailable', 'upstream timeout');
  if (isNetworkError(error) || error instanceof TypeError)
    return new UpstreamError('unavailable', 'upstream unreachable');
  return new UpstreamError('unavailable', describe(error));
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
