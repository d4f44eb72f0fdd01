import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));

const RATES_BODY = {
  destinationCep: '20040-020',
  items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9 }],
};

describe('routing is strict and case-sensitive (spec 4: only documented endpoints exist)', () => {
  it.each([
    ['POST', '/V1/RATES'],
    ['POST', '/v1/Rates'],
    ['POST', '/v1/rates/'],
    ['POST', '/v1/rates//'],
    ['OPTIONS', '/v1/rates/'],
    ['POST', '/v1/TRACKING'],
    ['POST', '/v1/tracking/'],
    ['GET', '/OpenAPI.json'],
    ['GET', '/openapi.json/'],
    ['POST', '/MCP'],
    ['POST', '/mcp/'],
  ])('answers 404 not_found to %s %s', async (method, path) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: 'Bearer mk_test_demo', 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify(RATES_BODY) } : {}),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still answers the exact paths', async () => {
    expect((await sandbox.post('/v1/rates', RATES_BODY, 'mk_test_demo')).status).toBe(200);
    expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
  });

  it('keeps /_sandbox/* exact too', async () => {
    expect((await sandbox.control('RESET')).status).toBe(404);
    expect((await sandbox.control('reset/')).status).toBe(404);
  });
});

describe('REST 401s (spec 5.1, RFC 6750)', () => {
  async function rates(authorization?: string) {
    const res = await fetch(`${sandbox.url}/v1/rates`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify(RATES_BODY),
    });
    return { res, body: ErrorBodySchema.safeParse(await res.json()) };
  }

  it('answers missing_api_key with a challenge and no error parameter when no header was sent', async () => {
    for (const authorization of [undefined, '', '   ']) {
      const { res, body } = await rates(authorization);
      expect(res.status).toBe(401);
      expect(body.data?.error.code).toBe('missing_api_key');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="shipping-platform-sandbox"');
    }
  });

  it.each([
    ['another scheme', 'Basic bWtfdGVzdF9kZW1vOg=='],
    ['a trailing word', 'Bearer mk_test_demo extra'],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['no scheme', 'mk_test_demo'],
    ['a comma-joined second credential', 'Bearer mk_test_demo, Bearer pk_test_demo'],
    ['a tab instead of a space', 'Bearer\tmk_test_demo'],
    ['an unknown key', 'Bearer mk_test_nope'],
    ['a key in other case', 'Bearer MK_TEST_DEMO'],
  ])(
    'answers invalid_api_key with error="invalid_token" for %s (a header WAS sent)',
    async (_what, header) => {
      const { res, body } = await rates(header);
      expect(res.status).toBe(401);
      expect(body.data?.error.code).toBe('invalid_api_key');
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer realm="shipping-platform-sandbox", error="invalid_token"',
      );
      expect(JSON.stringify(body.data)).not.toMatch(/mk_test|bWtf/);
    },
  );

  it('takes the scheme in any case and several spaces before the key (RFC 9110 §11.1)', async () => {
    for (const header of ['bearer mk_test_demo', 'BEARER   mk_test_demo']) {
      expect((await rates(header)).res.status).toBe(200);
    }
  });

  it('lets a browser read the challenge (CORS exposes WWW-Authenticate on /v1/rates)', async () => {
    const { res } = await rates();
    expect(res.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });

  it('answers tracking the same way', async () => {
    const res = await fetch(`${sandbox.url}/v1/tracking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic eDp5' },
      body: JSON.stringify({ codes: ['DG049186226BR'] }),
    });
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('invalid_api_key');
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('the magic 00000-429 answer', () => {
  it('carries Retry-After like a real limit', async () => {
    const res = await sandbox.post(
      '/v1/rates',
      { ...RATES_BODY, destinationCep: '00000-429' },
      'pk_test_demo',
    );
    expect(res.status).toBe(429);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('the REST limiter across a window edge (spec 8)', () => {
  it('admits no more than the limit within any window on the wire', async () => {
    let now = 1_763_800_000_123;
    const limited = await startSandbox({ rateLimit: { calls: 5, seconds: 60 }, now: () => now });
    try {
      const statuses: number[] = [];
      const send = async () =>
        statuses.push((await limited.post('/v1/rates', RATES_BODY, 'pk_test_demo')).status);
      await send();
      now += 57_500;
      for (let i = 0; i < 4; i++) await send();
      now += 2_500; // a fixed window that opened with the first call restarts here
      for (let i = 0; i < 5; i++) await send();
      expect(statuses.filter((s) => s === 200)).toHaveLength(6); // 5, then 1 as the first call left the window
      expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
