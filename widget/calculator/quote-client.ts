import ky, { isHTTPError } from 'ky';
import type { RatesRequest, RatesResponse } from '../../shared/quote.ts';
import { isRatesResponse } from '../validators/generated.js';
import { errorCodeOf } from './validation.ts';

/** What a quote came to, in the terms the shopper's screen needs. */
export type QuoteOutcome =
  | { kind: 'rates'; response: RatesResponse }
  | { kind: 'invalid_cep' }
  /** 401/402/403/404 and other client errors: the store must act; never retried (spec 7.3). */
  | { kind: 'unavailable'; code: string }
  /** 429/502 still failing after the retries. */
  | { kind: 'busy'; code: string }
  | { kind: 'network' }
  | { kind: 'malformed' };

export interface QuoteClientOptions {
  apiUrl: string;
  publicKey: string;
  fetch?: typeof fetch;
  random?: () => number;
  now?: () => number;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  cacheTtlMs?: number;
}

/** spec 7.3: the passing faults, retried; a 500 is the platform's bug and config/auth errors are the store's. */
const TRANSIENT = [429, 502, 503, 504];
/**
 * Identical quotes within a few minutes are answered from memory, so repeated clicks do not spend the limit.
 * Keyed by URL, public key and body: two calculators on one page with different stores or platforms never share
 * an answer.
 */
const cache = new Map<string, { at: number; response: RatesResponse }>();

export function clearQuoteCache(): void {
  cache.clear();
}

/** A body's JSON, or undefined: ky gives an error body as text unless its content-type says JSON. */
function jsonOf(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** Calls the platform's `POST /v1/rates` with the public key, straight from the browser, through ky. */
export function createQuoteClient(options: QuoteClientOptions) {
  const {
    apiUrl,
    publicKey,
    random = Math.random,
    now = Date.now,
    retries = 3,
    baseDelayMs = 400,
    maxDelayMs = 4000,
    timeoutMs = 10_000,
    cacheTtlMs = 5 * 60_000,
  } = options;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const url = `${apiUrl.replace(/\/+$/, '')}/v1/rates`;

  async function post(request: Pick<RatesRequest, 'destinationCep' | 'items'>, signal: AbortSignal) {
    try {
      return await ky.post(url, {
        json: request,
        headers: { authorization: `Bearer ${publicKey}` },
        signal,
        fetch: doFetch,
        timeout: timeoutMs,
        retry: {
          limit: retries,
          methods: ['post'],
          statusCodes: TRANSIENT,
          // Retry-After (up to 60 s) is longer than a shopper waits: after a few short tries, the retry button.
          afterStatusCodes: [],
          // spec 7.3: exponential backoff with full jitter over the capped window, [0, min(cap, base × 2^n))
          delay: (attempt) => Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)),
          jitter: (delay) => Math.floor(random() * delay),
          // any failure to get an answer (offline, reset, a timeout) is retried, unless a newer quote aborted it
          shouldRetry: ({ error }) => (isHTTPError(error) ? undefined : !signal.aborted),
        },
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!isHTTPError(error)) return { kind: 'network' } as const;
      return { kind: 'failed', status: error.response.status, json: jsonOf(error.data) } as const;
    }
  }

  return {
    /** Resolves with the outcome; rejects only when `signal` aborts (a newer quote replaced this one). */
    async quote(
      request: Pick<RatesRequest, 'destinationCep' | 'items'>,
      signal: AbortSignal,
    ): Promise<QuoteOutcome> {
      const key = JSON.stringify([url, publicKey, JSON.stringify(request)]);
      const hit = cache.get(key);
      if (hit && now() - hit.at < cacheTtlMs) return { kind: 'rates', response: hit.response };
      const answer = await post(request, signal);
      if (!(answer instanceof Response)) {
        if (answer.kind === 'network') return answer;
        const code = errorCodeOf(answer.json) ?? `http_${answer.status}`;
        if (code === 'invalid_destination_cep') return { kind: 'invalid_cep' };
        return TRANSIENT.includes(answer.status) ? { kind: 'busy', code } : { kind: 'unavailable', code };
      }
      const json: unknown = await answer.json().catch(() => undefined);
      // spec 4.1: a 200 body that breaks the contract is an error state, not rates
      if (!isRatesResponse(json)) return { kind: 'malformed' };
      cache.set(key, { at: now(), response: json });
      return { kind: 'rates', response: json };
    },
  };
}

export type QuoteClient = ReturnType<typeof createQuoteClient>;
