import { beforeEach, describe, expect, it } from 'vitest';
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

/** A fetch that answers from a script and counts calls. */
function scripted(...answers: (Response | Error)[]) {
  const calls: RequestInit[] = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    calls.push(init ?? {});
    const answer = answers.shift() ?? json(200, ok);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const fast = { baseDelayMs: 1, maxDelayMs: 2, random: () => 0.5 };

beforeEach(() => clearQuoteCache());

describe('createQuoteClient', () => {
  it('sends the public key as Bearer and JSON to /v1/rates', async () => {
    const { fetch, calls } = scripted(json(200, ok));
    const client = createQuoteClient({ apiUrl: 'http://api/', publicKey: 'pk_test_demo', fetch });
    expect(await client.quote(request, new AbortController().signal)).toEqual({
      kind: 'rates',
      response: ok,
    });
    expect((calls[0]?.headers as Record<string, string> | undefined)?.authorization).toBe(
      'Bearer pk_test_demo',
    );
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

  it('answers identical quotes from memory until the TTL passes', async () => {
    let now = 0;
    const { fetch, calls } = scripted(json(200, ok), json(200, ok));
    const client = createQuoteClient({
      apiUrl: 'http://api',
      publicKey: 'pk',
      fetch,
      now: () => now,
      cacheTtlMs: 1000,
    });
    await client.quote(request, new AbortController().signal);
    await client.quote(request, new AbortController().signal);
    expect(calls).toHaveLength(1);
    now = 1001;
    await client.quote(request, new AbortController().signal);
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

  it('rejects when aborted by a newer quote', async () => {
    const controller = new AbortController();
    const fetch = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )) as typeof globalThis.fetch;
    const client = createQuoteClient({ apiUrl: 'http://api', publicKey: 'pk', fetch });
    const pending = client.quote(request, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeDefined();
  });
});
