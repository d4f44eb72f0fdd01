import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { RatesResponseSchema } from '../../shared/quote.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));

const item = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9 };
const body = (change: Record<string, unknown> = {}) => ({
  destinationCep: '20040-020',
  items: [item],
  ...change,
});

async function rates(key: string | undefined, payload: unknown = body(), headers?: Record<string, string>) {
  const res = await sandbox.post('/v1/rates', payload, key, headers);
  return { res, json: (await res.json()) as Record<string, unknown> };
}

async function expectError(res: Response, json: unknown, status: number, code: string) {
  expect(res.status).toBe(status);
  const parsed = ErrorBodySchema.parse(json);
  expect(parsed.error.code).toBe(code);
  expect(parsed.error.message.length).toBeGreaterThan(0);
  return parsed;
}

describe('POST /v1/rates: the fixtures', () => {
  it('quotes PAC and SEDEX for loja-demo, PAC cheaper and slower, sorted by price', async () => {
    const { res, json } = await rates('pk_test_demo');
    expect(res.status).toBe(200);
    const parsed = RatesResponseSchema.parse(json);
    expect(parsed.rates.map((rate) => rate.code)).toEqual(['PAC', 'SEDEX']);
    const [pac, sedex] = parsed.rates;
    expect(pac?.price).toBeLessThan(sedex?.price ?? 0);
    expect(pac?.deliveryDays).toBeGreaterThan(sedex?.deliveryDays ?? 0);
    expect(pac?.free).toBeUndefined();
    expect(parsed.reason).toBeUndefined();
  });

  it('quotes with the secret key too', async () => {
    const { res } = await rates('mk_test_demo');
    expect(res.status).toBe(200);
  });

  it('makes PAC free at a subtotal of R$ 299.00 and not at R$ 298.99', async () => {
    const at = await rates('pk_test_demo', body({ items: [{ ...item, quantity: 1, unitPriceBRL: 299 }] }));
    const pacAt = RatesResponseSchema.parse(at.json).rates.find((rate) => rate.code === 'PAC');
    expect(pacAt).toMatchObject({ price: 0, free: true });
    const below = await rates(
      'pk_test_demo',
      body({ items: [{ ...item, quantity: 1, unitPriceBRL: 298.99 }] }),
    );
    const pacBelow = RatesResponseSchema.parse(below.json).rates.find((rate) => rate.code === 'PAC');
    expect(pacBelow?.free).toBeUndefined();
    expect(pacBelow?.price).toBeGreaterThan(0);
  });

  it('sums quantity × unit price for the threshold (3 × 100 = 300)', async () => {
    const { json } = await rates(
      'pk_test_demo',
      body({ items: [{ ...item, quantity: 3, unitPriceBRL: 100 }] }),
    );
    expect(RatesResponseSchema.parse(json).rates[0]).toMatchObject({ code: 'PAC', free: true });
  });

  it('prices by zone: the same state is cheaper than a far one', async () => {
    const sp = RatesResponseSchema.parse(
      (await rates('pk_test_demo', body({ destinationCep: '13010-000' }))).json,
    );
    const am = RatesResponseSchema.parse(
      (await rates('pk_test_demo', body({ destinationCep: '69005-000' }))).json,
    );
    expect(sp.rates[0]?.price).toBeLessThan(am.rates[0]?.price ?? 0);
    expect(sp.rates[0]?.deliveryDays).toBeLessThan(am.rates[0]?.deliveryDays ?? 0);
  });

  it('prices by weight (default 0.3 kg per unit) and drops every service over 30 kg with a reason', async () => {
    const light = RatesResponseSchema.parse((await rates('pk_test_demo')).json);
    const heavy = RatesResponseSchema.parse(
      (await rates('pk_test_demo', body({ items: [{ ...item, weightKg: 12 }] }))).json,
    );
    expect(heavy.rates[0]?.price).toBeGreaterThan(light.rates[0]?.price ?? 0);
    const over = await rates('pk_test_demo', body({ items: [{ ...item, quantity: 2, weightKg: 15.5 }] }));
    expect(over.res.status).toBe(200);
    expect(over.json).toEqual({ rates: [], reason: 'weight_limit_exceeded' });
  });

  it('answers no_coverage for 00000-100 (and any CEP from 00000-000 to 00999-999)', async () => {
    for (const cep of ['00000-100', '00000000', '00999-999']) {
      const { res, json } = await rates('pk_test_demo', body({ destinationCep: cep }));
      expect(res.status).toBe(200);
      expect(json).toEqual({ rates: [], reason: 'no_coverage' });
    }
  });

  it('answers no_services_enabled with actionUrl for sem-servicos', async () => {
    const { res, json } = await rates('pk_test_sem_servicos');
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      rates: [],
      reason: 'no_services_enabled',
      actionUrl: expect.stringMatching(/^https:/),
    });
  });

  it('answers carrier_auth_failed with actionUrl for contrato-invalido', async () => {
    const { res, json } = await rates('pk_test_contrato_invalido');
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      rates: [],
      reason: 'carrier_auth_failed',
      actionUrl: expect.stringMatching(/^https:/),
    });
  });

  it('quotes for sem-contrato and sem-etiquetas (labels are not quotes)', async () => {
    for (const key of ['pk_test_sem_contrato', 'pk_test_sem_etiquetas']) {
      const { res, json } = await rates(key);
      expect(res.status).toBe(200);
      expect(RatesResponseSchema.parse(json).rates.length).toBe(2);
    }
  });

  it('ignores instanceId: the store always comes from the key', async () => {
    const { json } = await rates('pk_test_sem_servicos', body({ instanceId: 'loja-demo' }));
    expect(json).toMatchObject({ reason: 'no_services_enabled' });
  });
});

describe('POST /v1/rates: every status of spec 7.1', () => {
  it('returns 400 invalid_json for an unparsable body, an empty body and a wrong content type', async () => {
    const broken = await rates('pk_test_demo', '{"destinationCep":');
    await expectError(broken.res, broken.json, 400, 'invalid_json');
    const empty = await rates('pk_test_demo', '');
    await expectError(empty.res, empty.json, 400, 'invalid_json');
    const text = await rates('pk_test_demo', JSON.stringify(body()), { 'content-type': 'text/plain' });
    await expectError(text.res, text.json, 400, 'invalid_json');
  });

  it('returns 400 invalid_body for a schema error, naming the field and never echoing values', async () => {
    const { res, json } = await rates('pk_test_demo', body({ items: [{ ...item, quantity: 0 }] }));
    const parsed = await expectError(res, json, 400, 'invalid_body');
    expect(parsed.error.message).toContain('items.0.quantity');
    const extra = await rates('pk_test_demo', body({ cep: 'x' }));
    await expectError(extra.res, extra.json, 400, 'invalid_body');
    const missing = await rates('pk_test_demo', { items: [item] });
    await expectError(missing.res, missing.json, 400, 'invalid_body');
  });

  it('returns 400 invalid_destination_cep for a malformed CEP', async () => {
    for (const cep of ['1310100', '0131010a', '01310-1000']) {
      const { res, json } = await rates('pk_test_demo', body({ destinationCep: cep }));
      await expectError(res, json, 400, 'invalid_destination_cep');
    }
  });

  it('ignores only spaces and dashes in a CEP: a tab, NBSP or U+3000 is invalid_destination_cep', async () => {
    const ok = await rates('pk_test_demo', body({ destinationCep: ' 20040 - 020 ' }));
    expect(ok.res.status).toBe(200);
    for (const cep of ['20040\t020', '20040\u00a0020', '20040\u3000020', '20040020\n', '20040\u2013020']) {
      const { res, json } = await rates('pk_test_demo', body({ destinationCep: cep }));
      await expectError(res, json, 400, 'invalid_destination_cep');
    }
  });

  it('returns 400 too_many_items for 51 items and accepts 50', async () => {
    const ok = await rates('pk_test_demo', body({ items: Array.from({ length: 50 }, () => item) }));
    expect(ok.res.status).toBe(200);
    const { res, json } = await rates(
      'pk_test_demo',
      body({ items: Array.from({ length: 51 }, () => item) }),
    );
    await expectError(res, json, 400, 'too_many_items');
  });

  it('returns 401 missing_api_key without a header and invalid_api_key for Basic or an unknown key', async () => {
    const missing = await rates(undefined);
    await expectError(missing.res, missing.json, 401, 'missing_api_key');
    // Issue 14: a header WAS sent, so the credential is invalid, not missing.
    const basic = await rates(undefined, body(), { authorization: 'Basic cGtfdGVzdF9kZW1vOg==' });
    await expectError(basic.res, basic.json, 401, 'invalid_api_key');
    const unknown = await rates('pk_test_nope');
    const parsed = await expectError(unknown.res, unknown.json, 401, 'invalid_api_key');
    expect(parsed.error.message).not.toContain('pk_test_nope');
  });

  it('returns 402 subscription_required with actionUrl for sem-plano', async () => {
    const { res, json } = await rates('pk_test_sem_plano');
    const parsed = await expectError(res, json, 402, 'subscription_required');
    expect(parsed.error.actionUrl).toMatch(/^https:/);
  });

  it('returns 403 wrong_key_scope for the platform key', async () => {
    const { res, json } = await rates('pl_test_parceiro');
    await expectError(res, json, 403, 'wrong_key_scope');
  });

  it('returns 404 merchant_not_found for a removed store', async () => {
    const { res, json } = await rates('pk_test_removida');
    await expectError(res, json, 404, 'merchant_not_found');
  });

  it('returns 405 method_not_allowed with Allow for GET, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${sandbox.url}/v1/rates`, { method });
      await expectError(res, await res.json(), 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toContain('POST');
    }
  });

  it('returns 413 payload_too_large over 32,000 bytes, declared or chunked, and accepts 32,000', async () => {
    const padding = (size: number) => {
      const base = JSON.stringify(body({ requestId: '' }));
      return JSON.stringify(body({ requestId: 'x'.repeat(size - base.length) }));
    };
    expect(padding(32_000).length).toBe(32_000);
    const ok = await rates('pk_test_demo', padding(32_000));
    expect(ok.res.status).toBe(200);
    const { res, json } = await rates('pk_test_demo', padding(32_001));
    await expectError(res, json, 413, 'payload_too_large');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(padding(40_000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${sandbox.url}/v1/rates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer pk_test_demo' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(chunked, await chunked.json(), 413, 'payload_too_large');
  });

  it('returns 429 rate_limited for 00000-429, and 502 quote_failed for 00000-502', async () => {
    const limited = await rates('pk_test_demo', body({ destinationCep: '00000-429' }));
    await expectError(limited.res, limited.json, 429, 'rate_limited');
    const failed = await rates('pk_test_demo', body({ destinationCep: '00000-502' }));
    await expectError(failed.res, failed.json, 502, 'quote_failed');
  });

  it('returns 404 in the same envelope for an unknown route', async () => {
    const res = await sandbox.post('/v1/quotes', body(), 'pk_test_demo');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('POST /v1/rates: limiter (spec 8)', () => {
  it('allows 60 calls per 60 s per store and route, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push((await sandbox.post('/v1/rates', body(), 'pk_test_demo')).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    const { res, json } = await rates('pk_test_demo');
    await expectError(res, json, 429, 'rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // another store, and the same store's other key on the same route, share nothing / share the store's budget
    expect((await rates('pk_test_sem_contrato')).res.status).toBe(200);
    expect((await rates('mk_test_demo')).res.status).toBe(429);
    // the tracking route has its own budget
    const tracking = await sandbox.post('/v1/tracking', { codes: ['DG049186226BR'] }, 'mk_test_demo');
    expect(tracking.status).toBe(200);
  });

  it('opens a new window when the time has passed (injected clock)', async () => {
    let now = 1_000_000;
    const local = await startSandbox({ rateLimit: { calls: 2, seconds: 10 }, now: () => now });
    try {
      const call = () => local.post('/v1/rates', body(), 'pk_test_demo').then((res) => res.status);
      expect([await call(), await call(), await call()]).toEqual([200, 200, 429]);
      now += 10_000;
      expect(await call()).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('POST /v1/rates: CORS and headers', () => {
  it('answers a preflight from any origin allowing POST with Authorization and Content-Type', async () => {
    const res = await fetch(`${sandbox.url}/v1/rates`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://loja.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it('sends CORS headers on errors too, so a browser can read them', async () => {
    const { res } = await rates('pk_test_sem_plano', body(), { origin: 'https://loja.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('puts a request id on every response and uses the client requestId when given', async () => {
    const plain = await rates('pk_test_demo');
    expect(plain.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await rates('pk_test_demo', body({ requestId: 'pedido-42' }));
    expect(given.res.headers.get('x-request-id')).toBe('pedido-42');
    const notFound = await fetch(`${sandbox.url}/nope`);
    expect(notFound.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('GET /openapi.json', () => {
  it('serves the OpenAPI 3.1 document without a key', async () => {
    const res = await fetch(`${sandbox.url}/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/v1/rates');
  });
});
