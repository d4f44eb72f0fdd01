import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { platformPromise } from '../../shared/delivery-promise.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { RatesResponseSchema } from '../../shared/quote.ts';
import { ConfigError, parseConfig } from '../config.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { checkoutTokenOf } from './routes.ts';
import { RateVerifyResponseSchema } from './verify.ts';

const CHECKOUT = 'checkout-server-token-0001';
const OTHER = 'second-checkout-token-0002';
const shirt = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 };
const choice = { cep: '20040-020', items: [shirt], serviceId: 'correios-pac' };

let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  // The platform's limit as high as the sandbox's here: the shares are tested on their own below.
  bff = await startBff(sandbox.url, {
    BFF_CHECKOUT_TOKENS: ` ${CHECKOUT} ,${OTHER}`,
    SHIPPING_RATE_LIMIT: '1000/60',
  });
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

async function verify(
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${CHECKOUT}` },
  on: RunningBff = bff,
) {
  const res = await fetch(`${on.url}/api/rates/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  // the secret key never leaves the BFF, whatever the answer
  expect(text).not.toMatch(/mk_/);
  expect(JSON.stringify([...res.headers])).not.toMatch(/mk_/);
  return { res, json: JSON.parse(text) as unknown };
}

/** What the platform quotes now for the same cart, asked directly with the secret key. */
async function platformQuote(destinationCep: string, items: unknown[]) {
  const res = await fetch(`${sandbox.url}/v1/rates`, {
    method: 'POST',
    headers: { authorization: 'Bearer mk_test_demo', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationCep, items }),
  });
  return RatesResponseSchema.parse(await res.json());
}

async function upstreamQuotes(): Promise<number> {
  const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  return stats.stores['loja-demo']?.['POST /v1/rates'] ?? 0;
}

describe('POST /api/rates/verify: who may ask', () => {
  it('answers 401 missing_api_key with a Bearer challenge (no error parameter) when no token is sent', async () => {
    const { res, json } = await verify(choice, {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="frete-kit checkout"');
    expect(ErrorBodySchema.parse(json).error.code).toBe('missing_api_key');
    expect(await upstreamQuotes()).toBe(0);
  });

  it.each([
    ['a wrong token', `Bearer not-the-checkout-token-000`],
    ['the token with one more character', `Bearer ${CHECKOUT}x`],
    ['the token less its last character', `Bearer ${CHECKOUT.slice(0, -1)}`],
    ['the token in upper case', `Bearer ${CHECKOUT.toUpperCase()}`],
    ['two tokens glued', `Bearer ${CHECKOUT}${OTHER}`],
    ['the token as Basic credentials', `Basic ${CHECKOUT}`],
    ['the store secret key', 'Bearer mk_test_demo'],
    ['an agent token of the same BFF', 'Bearer agent-all-scopes-0001'],
    ['Bearer and nothing', 'Bearer '],
  ])('answers 401 invalid_api_key to %s, and quotes nothing', async (_, authorization) => {
    const { res, json } = await verify(choice, { authorization });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="frete-kit checkout", error="invalid_token"',
    );
    expect(ErrorBodySchema.parse(json).error).toEqual({
      code: 'invalid_api_key',
      message: 'The checkout token is not valid.',
    });
    expect(await upstreamQuotes()).toBe(0);
  });

  it('checks the token before reading the body: a stranger sending bad JSON still gets 401', async () => {
    const { res } = await verify('{not json', { authorization: 'Bearer stranger-token-000000000' });
    expect(res.status).toBe(401);
  });

  it('takes every token of BFF_CHECKOUT_TOKENS (trimmed, comma-separated)', async () => {
    for (const token of [CHECKOUT, OTHER]) {
      const { res } = await verify(choice, { authorization: `bearer ${token}` });
      expect(res.status).toBe(200);
    }
  });

  it('refuses everyone when BFF_CHECKOUT_TOKENS is not set', async () => {
    const closed = await startBff(sandbox.url);
    try {
      const { res, json } = await verify(choice, { authorization: `Bearer ${CHECKOUT}` }, closed);
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(json).error.code).toBe('invalid_api_key');
    } finally {
      await closed.stop();
    }
  });

  it('is server to server: no CORS for a browser, whatever its origin; other methods get 405', async () => {
    const preflight = await fetch(`${bff.url}/api/rates/verify`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.loja.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const { res } = await verify(choice, {
      authorization: `Bearer ${CHECKOUT}`,
      origin: 'https://www.loja.example',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${bff.url}/api/rates/verify`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(ErrorBodySchema.parse(await get.json()).error.code).toBe('method_not_allowed');
  });
});

describe('POST /api/rates/verify: what the choice costs now', () => {
  it('answers the rate the platform quotes now with the secret key: price, delivery days, free, and its promise', async () => {
    const before = Date.now();
    const { res, json } = await verify(choice);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const now = await platformQuote('20040020', [shirt]);
    const pac = now.rates.find((rate) => rate.serviceId === 'correios-pac');
    if (!pac) throw new Error('the platform quotes no PAC');
    // The promise the calculator shows for this rate (no handling days, no cut-off configured), at the instant of the
    // answer, whichever side of a São Paulo midnight the two clocks read.
    const promises = [before, after].map((at) => platformPromise({ deliveryDays: pac.deliveryDays, at }, {}));
    const parsed = RateVerifyResponseSchema.parse(json);
    expect(parsed).toEqual({ available: true, rate: { ...pac, promise: expect.any(Object) } });
    expect(promises).toContainEqual(parsed.available && parsed.rate.promise);
  });

  it('says free only when the platform says free (a cart of R$ 319,60 gets free PAC, SEDEX still priced)', async () => {
    const items = [{ ...shirt, quantity: 4 }];
    const pac = RateVerifyResponseSchema.parse((await verify({ ...choice, items })).json);
    expect(pac).toMatchObject({ available: true, rate: { serviceId: 'correios-pac', free: true } });
    const sedex = RateVerifyResponseSchema.parse(
      (await verify({ ...choice, items, serviceId: 'correios-sedex' })).json,
    );
    expect(sedex.available && sedex.rate.free).not.toBe(true);
    expect(sedex.available && sedex.rate.price).toBeGreaterThan(0);
  });

  it('answers the new price, not the one the shopper saw, when the cart changed after the choice', async () => {
    const free = RateVerifyResponseSchema.parse(
      (await verify({ ...choice, items: [{ ...shirt, quantity: 4 }] })).json,
    );
    const paid = RateVerifyResponseSchema.parse(
      (await verify({ ...choice, items: [{ ...shirt, quantity: 2 }] })).json,
    );
    expect(free.available && free.rate.free).toBe(true);
    expect(paid.available && paid.rate.free).not.toBe(true);
  });

  it.each([
    ['a service the platform does not offer', 'correios-mini'],
    ["a look-alike of PAC's serviceId", 'correios-PAC'],
    ["PAC's display code instead of its serviceId", 'PAC'],
  ])('answers available: false, service_unavailable, for %s', async (_, serviceId) => {
    const { res, json } = await verify({ ...choice, serviceId });
    expect(res.status).toBe(200);
    expect(RateVerifyResponseSchema.parse(json)).toEqual({ available: false, reason: 'service_unavailable' });
  });

  it("answers available: false with the platform's reason when it does not quote the CEP", async () => {
    const { json } = await verify({ ...choice, cep: '00000-100' });
    expect(RateVerifyResponseSchema.parse(json)).toEqual({ available: false, reason: 'no_coverage' });
  });

  it('asks the platform once for the same quote within a minute (the rates cache)', async () => {
    const mug = { name: 'Caneca (cache test)', quantity: 1, unitPriceBRL: 35, weightKg: 0.4 };
    await verify({ ...choice, items: [mug] });
    await verify({ ...choice, items: [mug], cep: '20040020', serviceId: 'correios-sedex' });
    expect(await upstreamQuotes()).toBe(1);
    await verify({ ...choice, items: [{ ...mug, quantity: 2 }] });
    expect(await upstreamQuotes()).toBe(2);
  });
});

describe('POST /api/rates/verify: errors in the spec 7.1 envelope', () => {
  it.each([
    ['a body that is not JSON', '{"cep":', 'invalid_json'],
    ['no serviceId', { cep: '20040-020', items: [shirt] }, 'invalid_body'],
    ['an empty serviceId', { ...choice, serviceId: '' }, 'invalid_body'],
    ['a price sent by the browser', { ...choice, price: 0 }, 'invalid_body'],
    ['no items', { ...choice, items: [] }, 'invalid_body'],
    ['a bad line', { ...choice, items: [{ ...shirt, quantity: 0 }] }, 'invalid_body'],
    ['no cep', { items: [shirt], serviceId: 'correios-pac' }, 'invalid_body'],
    ['a CEP of 4 digits', { ...choice, cep: '1234' }, 'invalid_destination_cep'],
    ['51 lines', { ...choice, items: Array.from({ length: 51 }, () => shirt) }, 'too_many_items'],
    ['a list, not an object', [choice], 'invalid_body'],
  ])('answers 400 to %s, and quotes nothing', async (_, body, code) => {
    const { res, json } = await verify(body);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(json).error.code).toBe(code);
    expect(await upstreamQuotes()).toBe(0);
  });

  it('names the field, never the value it refuses', async () => {
    const { json } = await verify({ ...choice, cep: 'secret-looking-0000' });
    const { message } = ErrorBodySchema.parse(json).error;
    expect(message).toContain('cep');
    expect(message).not.toContain('secret-looking');
  });

  it('answers 400 invalid_json to a body not sent as JSON', async () => {
    const { res, json } = await verify(JSON.stringify(choice), {
      authorization: `Bearer ${CHECKOUT}`,
      'content-type': 'text/plain',
    });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(json).error.code).toBe('invalid_json');
  });

  it('answers 413 payload_too_large beyond the platform’s 32,000 bytes', async () => {
    const { res, json } = await verify({ ...choice, items: [{ ...shirt, name: 'x'.repeat(33_000) }] });
    expect(res.status).toBe(413);
    expect(ErrorBodySchema.parse(json).error.code).toBe('payload_too_large');
  });

  it('answers 502 quote_failed when the carrier fails (never available: false: the option may still exist)', async () => {
    const { res, json } = await verify({ ...choice, cep: '00000-502' });
    expect(res.status).toBe(502);
    expect(ErrorBodySchema.parse(json).error.code).toBe('quote_failed');
  });

  it("answers 429 rate_limited when the platform's limit is spent", async () => {
    const { res, json } = await verify({ ...choice, cep: '00000-429' });
    expect(res.status).toBe(429);
    expect(ErrorBodySchema.parse(json).error.code).toBe('rate_limited');
  });

  it('answers 502 quote_failed when the platform refuses the store (no plan), and logs it for the merchant', async () => {
    const broke = await startBff(sandbox.url, {
      SHIPPING_SECRET_KEY: 'mk_test_sem_plano',
      BFF_CHECKOUT_TOKENS: CHECKOUT,
    });
    try {
      const { res, json } = await verify(choice, undefined, broke);
      expect(res.status).toBe(502);
      const { error } = ErrorBodySchema.parse(json);
      expect(error.code).toBe('quote_failed');
      expect(error.message).toContain('subscription_required');
      expect(error.actionUrl).toBeUndefined();
      expect(broke.logs.join('\n')).toContain('the platform refused the quote');
    } finally {
      await broke.stop();
    }
  });
});

describe('POST /api/rates/verify: each checkout token has its share of the quotes', () => {
  let small: RunningBff;
  beforeAll(async () => {
    // 4 quotes a minute, half kept for browsers: a lane of 2, a checkout token's share 1.
    small = await startBff(sandbox.url, {
      BFF_CHECKOUT_TOKENS: `${CHECKOUT},${OTHER}`,
      SHIPPING_RATE_LIMIT: '4/60',
    });
  });
  afterAll(async () => {
    await small?.stop();
  });

  it('answers 429 rate_limited with Retry-After to a token past its share and quotes nothing for it, while another token is served and the cache answers both', async () => {
    const first = await verify(choice, undefined, small);
    expect(first.res.status).toBe(200);
    const second = await verify({ ...choice, cep: '30130-000' }, undefined, small);
    expect(second.res.status).toBe(429);
    expect(Number(second.res.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = ErrorBodySchema.parse(second.json);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toContain('share');
    expect(await upstreamQuotes()).toBe(1);
    const other = await verify({ ...choice, cep: '30130-000' }, { authorization: `Bearer ${OTHER}` }, small);
    expect(other.res.status).toBe(200);
    expect(await upstreamQuotes()).toBe(2);
    // Cached quotes are free: the spent token is answered from what the other one paid for.
    const cached = await verify({ ...choice, cep: '30130-000' }, undefined, small);
    expect(cached.res.status).toBe(200);
    expect(await upstreamQuotes()).toBe(2);
  });
});

describe('checkoutTokenOf', () => {
  const tokens = [CHECKOUT, OTHER];
  it('matches any configured token, whole, and nothing else', () => {
    expect(checkoutTokenOf(tokens, `Bearer ${CHECKOUT}`)).toBe(CHECKOUT);
    expect(checkoutTokenOf(tokens, `Bearer ${OTHER}  `)).toBe(OTHER);
    expect(checkoutTokenOf(tokens, `Bearer ${CHECKOUT} ${OTHER}`)).toBeUndefined();
    expect(checkoutTokenOf(tokens, `Bearer`)).toBeUndefined();
    expect(checkoutTokenOf(tokens, undefined)).toBeUndefined();
    expect(checkoutTokenOf([], `Bearer ${CHECKOUT}`)).toBeUndefined();
  });
});

describe('BFF_CHECKOUT_TOKENS', () => {
  const base = { SHIPPING_SECRET_KEY: 'mk_test_demo' };
  it('is a comma-separated list, trimmed, empty entries dropped; none by default', () => {
    expect(parseConfig(base).checkoutTokens).toEqual([]);
    expect(parseConfig({ ...base, BFF_CHECKOUT_TOKENS: ` ${CHECKOUT}, ,${OTHER} ` }).checkoutTokens).toEqual([
      CHECKOUT,
      OTHER,
    ]);
  });

  it.each([
    ['a short token', 'short'],
    ['a platform key', 'mk_test_demo_as_a_checkout_token'],
    ['a public key', 'pk_test_demo_as_a_checkout_token'],
    ['tokens separated by a space', `${CHECKOUT} ${OTHER}`],
  ])('refuses %s, naming the variable and not the value', (_, value) => {
    let thrown: unknown;
    try {
      parseConfig({ ...base, BFF_CHECKOUT_TOKENS: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(/^BFF_CHECKOUT_TOKENS/);
    expect((thrown as Error).message).not.toContain(value);
  });
});
