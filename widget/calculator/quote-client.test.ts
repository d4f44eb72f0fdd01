import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearQuoteCache, createQuoteClient } from './quote-client.ts';

const request = {
  destinationCep: '20040020',
  items: [{ name: 'x', quantity: 1, unitPriceBRL: 10, weightKg: 0.3 }],
};
const ok = {
  rates: [{ code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 21.5 }],
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What a call sent, read the same whether the client calls fetch(url, init) or fetch(request). */
interface SentCall {
  method: string;
  headers: Headers;
  body: string;
}

/** The signal a fetch must hear, whichever way it was called. */
const signalOf = (input: RequestInfo | URL, init?: RequestInit) =>
  init?.signal ?? (input instanceof Request ? input.signal : undefined);

/** A fetch that never answers, and rejects as a real one does when its signal aborts (at once if it already has). */
const neverAnswers = (input: RequestInfo | URL, init?: RequestInit) => {
  const signal = signalOf(input, init);
  return new Promise<Response>((_resolve, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason));
  });
};

/** A fetch that answers from a script and counts calls. */
function scripted(...answers: (Response | Error)[]) {
  const calls: SentCall[] = [];
  const urls: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    urls.push(request.url);
    calls.push({ method: request.method, headers: request.headers, body: await request.text() });
    const answer = answers.shift() ?? json(200, ok);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch: fetch as typeof globalThis.fetch, calls, urls };
}

const fast = { baseDelayMs: 1, maxDelayMs: 2, random: () => 0.5 };

beforeEach(() => clearQuoteCache());
afterEach(() => {
  vi.useRealTimers();
});

describe('createQuoteClient', () => {
  it('POSTs the request as JSON to <apiUrl>/v1/rates with the public key as Bearer', async () => {
    const { fetch, calls, urls } = scripted(json(200, ok));
    const client = createQuoteClient({ apiUrl: 'http://api//', publicKey: 'pk_test_demo', fetch });
    expect(await client.quote(request, new AbortController().signal)).toEqual({
      kind: 'rates',
      response: ok,
    });
    expect(urls).toEqual(['http://api/v1/rates']);
    const init = calls[0];
    expect(init?.method).toBe('POST');
    expect(init?.headers.get('authorization')).toBe('Bearer pk_test_demo');
    expect(init?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual(request);
  });

  it('keeps a path prefix of the API URL (a platform behind a gateway path)', async () => {
    const { fetch, urls } = scripted(json(200, ok));
    const client = createQuoteClient({ apiUrl: 'https://gw.example/frete/', publicKey: 'pk', fetch });
    await client.quote(request, new AbortController().signal);
    expect(urls).toEqual(['https://gw.example/frete/v1/rates']);
  });

  it('retries 429 and 502 up to the cap, then reports busy', async () => {
    const { fetch, calls } = scripted(
      json(429, { error: { code: 'rate_limited', message: 'm' } }),
      json(502, { error: { code: 'quote_failed', message: 'm' } }),
      json(502, { error: { code: 'quote_failed', message: 'm' } }),
      json(502, { error: { code: 'quote_failed', message: 'm' } }),
    );
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, ...fast });
    expect(await client.quote(request, new AbortController().signal)).toEqual({
      kind: 'busy',
      code: 'quote_failed',
    });
    expect(calls).toHaveLength(4);
  });

  it('succeeds when a retry does', async () => {
    const { fetch, calls } = scripted(
      json(502, { error: { code: 'quote_failed', message: 'm' } }),
      json(200, ok),
    );
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, ...fast });
    expect((await client.quote(request, new AbortController().signal)).kind).toBe('rates');
    expect(calls).toHaveLength(2);
  });

  it.each([401, 402, 403, 404])('never retries %i', async (status) => {
    const { fetch, calls } = scripted(
      json(status, { error: { code: 'subscription_required', message: 'm' } }),
    );
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, ...fast });
    expect((await client.quote(request, new AbortController().signal)).kind).toBe('unavailable');
    expect(calls).toHaveLength(1);
  });

  it('maps invalid_destination_cep to an inline field error', async () => {
    const { fetch } = scripted(json(400, { error: { code: 'invalid_destination_cep', message: 'm' } }));
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
    expect(await client.quote(request, new AbortController().signal)).toEqual({ kind: 'invalid_cep' });
  });

  it('retries network failures, then reports network', async () => {
    const { fetch, calls } = scripted(
      new TypeError('down'),
      new TypeError('down'),
      new TypeError('down'),
      new TypeError('down'),
    );
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, ...fast });
    expect(await client.quote(request, new AbortController().signal)).toEqual({ kind: 'network' });
    expect(calls).toHaveLength(4);
  });

  it('treats a response that breaks the contract as malformed, not a crash', async () => {
    for (const body of [{ rates: 'none' }, { rates: [{ code: 'PAC' }] }, 'garbage']) {
      clearQuoteCache();
      const { fetch } = scripted(json(200, body));
      const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
      expect(await client.quote(request, new AbortController().signal)).toEqual({ kind: 'malformed' });
    }
  });

  it('answers identical quotes from memory until the TTL passes, on a clock far from 0', async () => {
    // A real clock reads ~1.8e12: a cache that only works when time starts at 0 would never hit in a browser.
    let now = Date.parse('2026-11-23T15:00:00Z');
    const { fetch, calls } = scripted(json(200, ok), json(200, ok));
    const client = createQuoteClient({
      apiUrl: 'http://api',
      publicKey: 'pk',
      fetch,
      now: () => now,
      cacheTtlMs: 1000,
    });
    const signal = new AbortController().signal;
    await client.quote(request, signal);
    now += 999;
    expect(await client.quote(request, signal)).toEqual({ kind: 'rates', response: ok });
    expect(calls).toHaveLength(1);
    now += 1; // exactly the TTL: stale
    await client.quote(request, signal);
    expect(calls).toHaveLength(2);
  });

  it('remembers an answer for 5 minutes by default', async () => {
    let now = Date.parse('2026-11-23T15:00:00Z');
    const { fetch, calls } = scripted(json(200, ok), json(200, ok));
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, now: () => now });
    const signal = new AbortController().signal;
    await client.quote(request, signal);
    now += 5 * 60_000 - 1;
    await client.quote(request, signal);
    expect(calls).toHaveLength(1);
    now += 1;
    await client.quote(request, signal);
    expect(calls).toHaveLength(2);
  });

  it('asks again for another CEP or another cart: the cache key is the whole request', async () => {
    const { fetch, calls } = scripted();
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
    const signal = new AbortController().signal;
    await client.quote(request, signal);
    await client.quote({ ...request, destinationCep: '20040021' }, signal);
    await client.quote(
      { ...request, items: [{ ...request.items[0], quantity: 2 }] as typeof request.items },
      signal,
    );
    expect(calls.map((init) => JSON.parse(init.body))).toEqual([
      request,
      { ...request, destinationCep: '20040021' },
      { ...request, items: [{ ...request.items[0], quantity: 2 }] },
    ]);
  });

  it.each([
    ['a 502 after the retries', json(502, { error: { code: 'quote_failed', message: 'm' } })],
    ['a refused key', json(401, { error: { code: 'invalid_api_key', message: 'm' } })],
    ['an unknown CEP', json(400, { error: { code: 'invalid_destination_cep', message: 'm' } })],
    ['a malformed answer', json(200, { rates: 'none' })],
    ['a network failure', new TypeError('down')],
  ])('never remembers a failure: after %s the next identical quote asks the platform', async (_, failure) => {
    const { fetch, calls } = scripted(failure, json(200, ok));
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, retries: 0 });
    const signal = new AbortController().signal;
    expect((await client.quote(request, signal)).kind).not.toBe('rates');
    expect(await client.quote(request, signal)).toEqual({ kind: 'rates', response: ok });
    expect(calls).toHaveLength(2);
  });

  it('never answers one calculator from the cache of another with a different key or URL', async () => {
    const other = {
      rates: [{ code: 'SEDEX', serviceId: 'correios-sedex', label: 'SEDEX', deliveryDays: 2, price: 40 }],
    };
    const first = scripted(json(200, ok));
    const otherKey = scripted(json(200, other));
    const otherUrl = scripted(json(200, other));
    const a = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk_a', fetch: first.fetch });
    const b = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk_b', fetch: otherKey.fetch });
    const c = createQuoteClient({ apiUrl: 'http://other', publicKey: 'pk_a', fetch: otherUrl.fetch });
    const signal = new AbortController().signal;
    expect(await a.quote(request, signal)).toEqual({ kind: 'rates', response: ok });
    expect(await b.quote(request, signal)).toEqual({ kind: 'rates', response: other });
    expect(await c.quote(request, signal)).toEqual({ kind: 'rates', response: other });
    expect(otherKey.calls).toHaveLength(1);
    expect(otherUrl.calls).toHaveLength(1);
    // The same URL, key and body is still one call, even from a second client on the page.
    const again = scripted(json(200, other));
    const twin = createQuoteClient({ apiUrl: 'http://api/', publicKey: 'pk_a', fetch: again.fetch });
    expect(await twin.quote(request, signal)).toEqual({ kind: 'rates', response: ok });
    expect(again.calls).toHaveLength(0);
  });

  it.each([503, 504])('retries %i like 502 (the carrier did not answer)', async (status) => {
    const { fetch, calls } = scripted(json(status, { error: { code: 'quote_failed', message: 'm' } }));
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, ...fast });
    expect(await client.quote(request, new AbortController().signal)).toEqual({
      kind: 'rates',
      response: ok,
    });
    expect(calls).toHaveLength(2);
  });

  it("tells the platform's error code, or http_<status> when the body has none", async () => {
    const { fetch, calls } = scripted(
      json(402, { error: { code: 'subscription_required', message: 'm' } }),
      new Response('<html>Internal error</html>', { status: 500 }),
      new Response('Bad Gateway', { status: 502 }),
    );
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, retries: 0 });
    const signal = new AbortController().signal;
    expect(await client.quote(request, signal)).toEqual({
      kind: 'unavailable',
      code: 'subscription_required',
    });
    // a 500 is the platform's bug, not a passing fault: not retried
    expect(await client.quote(request, signal)).toEqual({ kind: 'unavailable', code: 'http_500' });
    expect(await client.quote(request, signal)).toEqual({ kind: 'busy', code: 'http_502' });
    expect(calls).toHaveLength(3);
  });

  it('treats a 200 whose body is not JSON as malformed', async () => {
    const { fetch } = scripted(new Response('<html>ok</html>', { status: 200 }));
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
    expect(await client.quote(request, new AbortController().signal)).toEqual({ kind: 'malformed' });
  });

  it('waits a full-jitter backoff before each retry: 400 ms × 2^n, capped at 4 s (spec 7.3)', async () => {
    vi.useFakeTimers();
    const failing = () => json(503, { error: { code: 'quote_failed', message: 'm' } });
    const { fetch, calls } = scripted(failing(), failing(), failing(), failing(), failing(), failing());
    // random just under 1: each wait is the whole window, floor(0.999 × window)
    const client = createQuoteClient({
      apiUrl: 'http://api',
      publicKey: 'pk',
      fetch,
      random: () => 0.999,
      retries: 5,
    });
    const outcome = client.quote(request, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    for (const wait of [399, 799, 1598, 3196, 3996]) {
      const before = calls.length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls, `still waiting ${wait} ms`).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(before + 1);
    }
    expect(await outcome).toEqual({ kind: 'busy', code: 'quote_failed' });
  });

  it('keeps to its own short backoff when a 429 says Retry-After: 60 (a shopper does not wait a minute)', async () => {
    vi.useFakeTimers();
    const limited = () =>
      new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'm' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '60' },
      });
    const { fetch, calls } = scripted(limited(), limited(), limited(), limited());
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, random: () => 0.999 });
    const outcome = client.quote(request, new AbortController().signal);
    // 399 + 799 + 1598 ms of backoff, not 3 × 60 s
    await vi.advanceTimersByTimeAsync(399 + 799 + 1598);
    expect(calls).toHaveLength(4);
    expect(await outcome).toEqual({ kind: 'busy', code: 'rate_limited' });
  });

  it('gives up on an attempt that hangs past the timeout, retries it, then reports network', async () => {
    let attempts = 0;
    const hanging = ((input: RequestInfo | URL, init?: RequestInit) => {
      attempts++;
      return neverAnswers(input, init);
    }) as typeof globalThis.fetch;
    const client = createQuoteClient({
      apiUrl: 'http://api',
      publicKey: 'pk',
      fetch: hanging,
      timeoutMs: 20,
      retries: 1,
      ...fast,
    });
    expect(await client.quote(request, new AbortController().signal)).toEqual({ kind: 'network' });
    expect(attempts).toBe(2);
  });

  it('rejects, never resolves as a network failure, when aborted on its last try', async () => {
    const controller = new AbortController();
    const fetch = neverAnswers as typeof globalThis.fetch;
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch, retries: 0 });
    const pending = client.quote(request, controller.signal);
    controller.abort(new Error('replaced'));
    await expect(pending).rejects.toThrow('replaced');
  });

  it('rejects at once when a newer quote aborts it during a backoff wait', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const fetch = (async () => {
      attempts++;
      queueMicrotask(() => controller.abort(new Error('replaced')));
      return json(502, { error: { code: 'quote_failed', message: 'm' } });
    }) as typeof globalThis.fetch;
    // a 60 s wait: if the abort were not heard, the test would time out
    const client = createQuoteClient({
      apiUrl: 'http://api',
      publicKey: 'pk',
      fetch,
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      random: () => 0.999,
    });
    await expect(client.quote(request, controller.signal)).rejects.toThrow('replaced');
    expect(attempts).toBe(1);
  });

  it('rejects when aborted by a newer quote', async () => {
    const controller = new AbortController();
    const fetch = neverAnswers as typeof globalThis.fetch;
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
    const pending = client.quote(request, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeDefined();
  });
});
