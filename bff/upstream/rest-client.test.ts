import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { MemoryBudget } from './budget.ts';
import { UpstreamError } from './errors.ts';
import { createRestClient } from './rest-client.ts';

const ok = { results: [{ code: 'DG049186226BR', found: false, delivered: false, events: [] }] };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function scripted(...answers: (() => Response | Promise<Response>)[]) {
  const seen: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    const answer = answers.shift();
    return answer ? answer() : json(200, ok);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const logger = createLogger({ level: 'silent' });

function client(fetch: typeof globalThis.fetch, extra: Record<string, unknown> = {}) {
  const jitters: number[] = [];
  let seed = 0.25;
  const random = () => {
    seed = (seed * 9301 + 0.49297) % 1;
    jitters.push(seed);
    return seed;
  };
  return {
    jitters,
    rest: createRestClient({
      apiUrl: 'http://upstream.test',
      secretKey: 'mk_test_demo',
      logger,
      fetch,
      random,
      baseDelayMs: 1,
      maxDelayMs: 5,
      ...extra,
    }),
  };
}

describe('createRestClient', () => {
  it('posts with the secret key as Bearer and validates the response', async () => {
    const { fetch, seen } = scripted();
    const { rest } = client(fetch);
    expect(await rest.tracking(['DG049186226BR'])).toEqual(ok);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer mk_test_demo');
    expect(seen[0]?.url).toBe('http://upstream.test/v1/tracking');
  });

  it('retries 502 and 503 with seeded full jitter, then succeeds', async () => {
    const { fetch, seen } = scripted(
      () => json(502, { error: { code: 'track_failed', message: 'm' } }),
      () => json(503, {}),
      () => json(200, ok),
    );
    const { rest, jitters } = client(fetch);
    expect(await rest.tracking(['X'])).toEqual(ok);
    expect(seen).toHaveLength(3);
    expect(jitters.length).toBeGreaterThanOrEqual(1);
  });

  it('honours a short Retry-After on 429 and gives up at once on a long one', async () => {
    const short = scripted(
      () => json(429, { error: { code: 'rate_limited', message: 'm' } }, { 'retry-after': '0' }),
      () => json(200, ok),
    );
    expect(await client(short.fetch).rest.tracking(['X'])).toEqual(ok);
    expect(short.seen).toHaveLength(2);

    const long = scripted(() =>
      json(429, { error: { code: 'rate_limited', message: 'm' } }, { 'retry-after': '45' }),
    );
    await expect(client(long.fetch).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'limited',
      status: 429,
    });
    expect(long.seen).toHaveLength(1);
  });

  it.each([400, 401, 402, 403, 404])('never retries %i and reports it as configuration', async (status) => {
    const { fetch, seen } = scripted(() =>
      json(status, { error: { code: 'subscription_required', message: 'm', actionUrl: 'https://x' } }),
    );
    const error = await client(fetch)
      .rest.tracking(['X'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ failure: 'config', status, code: 'subscription_required' });
    expect((error as Error).message).not.toContain('https://x');
    expect(seen).toHaveLength(1);
  });

  it('retries network errors up to the limit, then reports unavailable', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    }) as unknown as typeof globalThis.fetch;
    await expect(client(fetch, { retries: 2 }).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
    });
    expect(calls).toBe(3);
  });

  it('reports a response that breaks the contract as malformed', async () => {
    const { fetch } = scripted(() => json(200, { results: 'nope' }));
    await expect(client(fetch).rest.tracking(['X'])).rejects.toMatchObject({ failure: 'malformed' });
  });

  it('does not retry when retries are off (the per-route instances keep the retry settings)', async () => {
    const { fetch, seen } = scripted(() => json(502, {}));
    await expect(client(fetch, { retries: 0 }).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
    });
    expect(seen).toHaveLength(1);
  });

  it('ends the whole call, retries included, at the total deadline', async () => {
    let calls = 0;
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) => {
      calls += 1;
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }) as typeof globalThis.fetch;
    const rest = client(hanging, { retries: 10, timeoutMs: 60_000, totalTimeoutMs: 300 }).rest;
    await expect(rest.tracking(['X'])).rejects.toMatchObject({ failure: 'unavailable' });
    expect(calls).toBe(1);
  });

  it('stops retrying when a retry would eat into the store budget reserve', async () => {
    const budget = new MemoryBudget({ calls: 4, seconds: 60 }, { reserve: 1 });
    const { fetch, seen } = scripted(...Array.from({ length: 20 }, () => () => json(502, {})));
    await expect(client(fetch, { retries: 10, budget }).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
    });
    // 1st call: 3 left → retry; 2nd: 2 left → retry; 3rd: 1 left = the reserve → stop.
    expect(seen).toHaveLength(3);
    // The other route has its own budget (spec 8: per store and route).
    expect(await budget.canRetry('rates')).toBe(true);
  });

  it('sends nothing when the store allowance is spent and does not free within the wait', async () => {
    const budget = new MemoryBudget({ calls: 2, seconds: 60 });
    const { fetch, seen } = scripted(...Array.from({ length: 5 }, () => () => json(200, { results: [] })));
    const rest = client(fetch, { budget }).rest;
    await rest.tracking(['X']);
    await rest.tracking(['X']);
    await expect(rest.tracking(['X'])).rejects.toMatchObject({ failure: 'limited' });
    expect(seen).toHaveLength(2);
  });

  it('waits for the allowance when it frees within the call deadline, then sends', async () => {
    const budget = new MemoryBudget({ calls: 1, seconds: 0.2 });
    const { fetch, seen } = scripted(...Array.from({ length: 5 }, () => () => json(200, { results: [] })));
    const rest = client(fetch, { budget }).rest;
    await rest.tracking(['X']);
    await rest.tracking(['X']);
    expect(seen).toHaveLength(2);
  });
});
