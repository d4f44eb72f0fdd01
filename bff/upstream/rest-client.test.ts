import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCounter } from '../../shared/windowed-counter.ts';
import { createLogger } from '../logger.ts';
import { RouteBudget } from './budget.ts';
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

  it('never puts the secret key in an error or a log line, whatever failed (the key travels only as a header)', async () => {
    const lines: string[] = [];
    // pino without the BFF logger's scrubbing: what the client itself hands the logger
    const raw = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const echo = { error: { code: 'invalid_api_key', message: 'Bearer mk_test_demo is not a key' } };
    const failures: (() => Response | Promise<Response>)[] = [
      () => json(401, echo),
      () => json(502, echo),
      () => json(429, echo, { 'retry-after': '0' }),
      () => Promise.reject(new TypeError('fetch failed')),
      () => json(200, { results: 'mk_test_demo' }),
      () => new Response('Bearer mk_test_demo', { status: 503 }),
    ];
    for (const failure of failures) {
      const { fetch } = scripted(failure, failure, failure, failure);
      const rest = createRestClient({
        apiUrl: 'http://upstream.test',
        secretKey: 'mk_test_demo',
        logger: raw,
        fetch,
        baseDelayMs: 1,
        maxDelayMs: 5,
      });
      const error = await rest.tracking(['X']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      const said = `${String(error)} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
      expect(said).not.toContain('mk_test_demo');
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('mk_test_demo');
  });

  it('reports a response that breaks the contract as malformed', async () => {
    const { fetch } = scripted(() => json(200, { results: 'nope' }));
    await expect(client(fetch).rest.tracking(['X'])).rejects.toMatchObject({ failure: 'malformed' });
  });

  it('says which route answered what: a body that is not JSON, and one that breaks the contract', async () => {
    const notJson = scripted(() => new Response('<html>bad gateway</html>', { status: 200 }));
    await expect(client(notJson.fetch).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'malformed',
      message: 'v1/tracking: the response is not JSON',
    });
    const offContract = scripted(() => json(200, { rates: 'nope' }));
    await expect(
      client(offContract.fetch).rest.rates({ destinationCep: '01001-000', items: [] } as never),
    ).rejects.toMatchObject({
      failure: 'malformed',
      message: 'v1/rates: the response does not match the contract',
    });
  });

  it('reports a refusal whose body is not the error envelope by its status alone, as a configuration error', async () => {
    const { fetch, seen } = scripted(() => new Response('Forbidden', { status: 403 }));
    const error = await client(fetch)
      .rest.tracking(['X'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      failure: 'config',
      status: 403,
      code: undefined,
      message: 'upstream refused the request (403)',
    });
    expect(seen).toHaveLength(1);
  });

  it('reports an answer that fails while its body is read as unavailable, naming the failure, without retrying', async () => {
    const broken = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.error(new RangeError('body cut short'));
          },
        }),
        { status: 200 },
      );
    const { fetch, seen } = scripted(broken);
    await expect(client(fetch).rest.tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
      message: 'RangeError: body cut short',
    });
    // only network errors, timeouts and the retried statuses are tried again
    expect(seen).toHaveLength(1);
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
    const budget = new RouteBudget(new MemoryCounter(), { calls: 4, seconds: 60 }, { reserve: 1 });
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
    const budget = new RouteBudget(new MemoryCounter(), { calls: 2, seconds: 60 });
    const { fetch, seen } = scripted(...Array.from({ length: 5 }, () => () => json(200, { results: [] })));
    const rest = client(fetch, { budget }).rest;
    await rest.tracking(['X']);
    await rest.tracking(['X']);
    await expect(rest.tracking(['X'])).rejects.toMatchObject({ failure: 'limited' });
    expect(seen).toHaveLength(2);
  });

  it('waits for the allowance when it frees within the call deadline, then sends', async () => {
    const budget = new RouteBudget(new MemoryCounter(), { calls: 1, seconds: 0.2 });
    const { fetch, seen } = scripted(...Array.from({ length: 5 }, () => () => json(200, { results: [] })));
    const rest = client(fetch, { budget }).rest;
    await rest.tracking(['X']);
    await rest.tracking(['X']);
    expect(seen).toHaveLength(2);
  });

  it('asks again after a wait that ended before the call freed, until the deadline', async () => {
    // The timer ended early (or another caller took the freed call): refused twice more, then granted.
    const decisions = [
      { ok: false as const, retryAfterMs: 5 },
      { ok: false as const, retryAfterMs: 1 },
      { ok: false as const, retryAfterMs: 1 },
      { ok: true as const },
    ];
    let asked = 0;
    const budget = {
      take: async () => decisions[asked++] ?? { ok: true as const },
      canRetry: async () => true,
    };
    const { fetch, seen } = scripted(() => json(200, { results: [] }));
    await client(fetch, { budget }).rest.tracking(['X']);
    expect([asked, seen.length]).toEqual([4, 1]);
  });
});

describe('what the client sends upstream', () => {
  it('posts the codes as {codes} JSON to /v1/tracking with the JSON headers', async () => {
    const { fetch, seen } = scripted();
    await client(fetch).rest.tracking(['DG049186226BR', 'SW371675211BR']);
    const request = seen[0] as Request;
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('accept')).toBe('application/json');
    expect(await request.json()).toEqual({ codes: ['DG049186226BR', 'SW371675211BR'] });
  });

  it('posts the quote request unchanged to /v1/rates and returns the parsed rates', async () => {
    const rates = {
      rates: [{ code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 24.9 }],
    };
    const { fetch, seen } = scripted(() => json(200, rates));
    const request = {
      destinationCep: '20040020',
      items: [{ name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 }],
    };
    expect(await client(fetch).rest.rates(request)).toEqual(rates);
    expect(seen[0]?.url).toBe('http://upstream.test/v1/rates');
    expect(await seen[0]?.json()).toEqual(request);
  });
});

describe('how the client fails and waits (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A fetch answering from a script, noting the (fake) time of each attempt. */
  function timed(answer: (n: number) => Response | Promise<Response>) {
    const times: number[] = [];
    const fetch = (async () => {
      times.push(Date.now());
      return answer(times.length);
    }) as typeof globalThis.fetch;
    return { fetch, times };
  }

  function fakeClient(fetch: typeof globalThis.fetch, extra: Record<string, unknown> = {}) {
    return createRestClient({
      apiUrl: 'http://upstream.test',
      secretKey: 'mk_test_demo',
      logger,
      fetch,
      random: () => 0.5,
      baseDelayMs: 100,
      maxDelayMs: 300,
      ...extra,
    });
  }

  it('waits full jitter × min(max, base × 2^(n-1)) before retry n: 50, 100, 150 ms at random 0.5', async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    const { fetch, times } = timed(() => json(502, {}));
    const call = fakeClient(fetch)
      .tracking(['X'])
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    const start = times[0] as number;
    expect(times.map((t) => t - start)).toEqual([0, 50, 150, 300]);
    // a persistent 5xx is the platform being down, never the merchant's configuration
    expect(error).toMatchObject({ failure: 'unavailable', status: 502 });
  });

  it('reports a 500 as unavailable without retrying it', async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    const { fetch, times } = timed(() => json(500, { error: { code: 'quote_failed', message: 'm' } }));
    const call = fakeClient(fetch)
      .tracking(['X'])
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await call).toMatchObject({ failure: 'unavailable', status: 500, code: 'quote_failed' });
    expect(times).toHaveLength(1);
  });

  it('waits exactly the Retry-After of a 429 before the retry', async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    const { fetch, times } = timed((n) =>
      n === 1
        ? json(429, { error: { code: 'rate_limited', message: 'm' } }, { 'retry-after': '2' })
        : json(200, ok),
    );
    const call = fakeClient(fetch).tracking(['X']);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toEqual(ok);
    expect((times[1] as number) - (times[0] as number)).toBe(2_000);
  });

  it("does not start a retry whose wait would end at or after the call's deadline: one attempt, reported at once", async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    // the platform asks for 2 s, exactly the time the call has left: the retry could not get an answer in time
    const { fetch, times } = timed(() => json(503, {}, { 'retry-after': '2' }));
    let settledAt: number | undefined;
    const call = fakeClient(fetch, { totalTimeoutMs: 2_000 })
      .tracking(['X'])
      .catch((e: unknown) => e)
      .finally(() => {
        settledAt = Date.now();
      });
    await vi.advanceTimersByTimeAsync(0);
    expect(settledAt).toBe(times[0]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await call).toMatchObject({ failure: 'unavailable', status: 503 });
    expect(times).toHaveLength(1);
  });

  it('waits at most maxRetryAfterMs on a 503 asking for longer, and uses jitter when Retry-After is not a number', async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    const long = timed((n) => (n === 1 ? json(503, {}, { 'retry-after': '45' }) : json(200, ok)));
    const first = fakeClient(long.fetch, { maxRetryAfterMs: 1_000 }).tracking(['X']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await first).toEqual(ok);
    expect((long.times[1] as number) - (long.times[0] as number)).toBe(1_000);

    const odd = timed((n) => (n === 1 ? json(503, {}, { 'retry-after': 'soon' }) : json(200, ok)));
    const second = fakeClient(odd.fetch).tracking(['X']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await second).toEqual(ok);
    expect((odd.times[1] as number) - (odd.times[0] as number)).toBe(50);
  });

  it('cuts an attempt with no answer at timeoutMs, retries it, and reports a timeout as unavailable', async () => {
    vi.useFakeTimers({ now: 1_763_800_000_000 });
    const { fetch, times } = timed(
      () =>
        new Promise<Response>(() => {
          /* never answers; the client's abort ends the attempt */
        }),
    );
    const hanging = ((input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        void fetch(input, init);
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof globalThis.fetch;
    const call = fakeClient(hanging, { timeoutMs: 1_000, retries: 1 })
      .tracking(['X'])
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(times).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ failure: 'unavailable', message: 'upstream timeout' });
    expect(times.map((t) => t - (times[0] as number))).toEqual([0, 1_050]);
  });
});

describe('over the network (real HTTP upstreams on 127.0.0.1): what any transport of the client must keep', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** An upstream that records each request's headers and body, and answers with `reply`. */
  async function upstream(reply: (res: ServerResponse) => void) {
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        reply(res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
  }

  const rest = (apiUrl: string) =>
    createRestClient({ apiUrl, secretKey: 'mk_test_demo', logger, baseDelayMs: 1, maxDelayMs: 5 });

  it('posts the JSON with its UTF-8 byte length (not a chunked stream) and reads the answer', async () => {
    const { url, received } = await upstream((res) => res.end(JSON.stringify(ok)));
    expect(await rest(url).tracking(['DG049186226BR', 'çã'])).toEqual(ok);
    const body = JSON.stringify({ codes: ['DG049186226BR', 'çã'] });
    expect(received[0]?.body).toBe(body);
    expect(received[0]?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(received[0]?.headers['transfer-encoding']).toBeUndefined();
    expect(received[0]?.headers.authorization).toBe('Bearer mk_test_demo');
  });

  it('never follows a redirect (the key stays home): a 307 is a refusal, not retried', async () => {
    const elsewhere = await upstream((res) => res.end(JSON.stringify(ok)));
    const { url, received } = await upstream((res) => {
      res.writeHead(307, { location: `${elsewhere.url}/v1/tracking` });
      res.end();
    });
    await expect(rest(url).tracking(['X'])).rejects.toMatchObject({ failure: 'config', status: 307 });
    expect(received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('bounds the body too: an answer whose body stalls ends at the timeout, reported as a timeout', async () => {
    const { url } = await upstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results":');
    });
    // without the bound the call never ends (the test's own timeout fails it)
    const client = createRestClient({
      apiUrl: url,
      secretKey: 'mk_test_demo',
      logger,
      timeoutMs: 200,
      retries: 0,
    });
    await expect(client.tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
      message: 'upstream timeout',
    });
  });

  it('reports a refused connection as unreachable after its retries', async () => {
    const { url } = await upstream((res) => res.end());
    const closed = servers.pop() as Server;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(rest(url).tracking(['X'])).rejects.toMatchObject({
      failure: 'unavailable',
      message: 'upstream unreachable',
    });
  });
});
