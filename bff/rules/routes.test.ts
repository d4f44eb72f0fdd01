import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { RatesResponseSchema } from '../../shared/quote.ts';
import { type Rule, ShippingRulesSchema } from '../../shared/shipping-rules.ts';
import { deskSession } from '../desk/testing.ts';
import { RateVerifyResponseSchema } from '../rates/verify.ts';
import { type RunningBff, startBff } from '../testing.ts';

/** The spec 7.1 envelope with the BFF's own codes and details (`ErrorBodySchema` holds the spec's codes only). */
type ErrorJson = { error: { code: string; message: string; rule?: string; field?: string } };

const PASSWORD = 'senha-do-lojista-regras';
const CHECKOUT = 'checkout-server-token-0001';
const shirt = { name: 'Camiseta', quantity: 2, unitPriceBRL: 89.9, weightKg: 0.3 };
let sandbox: RunningSandbox;
let bff: RunningBff;
let merchant: { cookie: string; csrf: string };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_CHECKOUT_TOKENS: CHECKOUT,
    SHIPPING_RATE_LIMIT: '1000/60',
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  });
  merchant = await deskSession(bff.url, PASSWORD);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const put = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${bff.url}/admin/api/shipping-rules`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      cookie: merchant.cookie,
      'x-csrf-token': merchant.csrf,
      origin: bff.url,
      ...headers,
    },
    body: JSON.stringify(body),
  });
const inForce = async () =>
  ShippingRulesSchema.parse(await (await fetch(`${bff.url}/api/shipping-rules`)).json());
async function verify(cep: string, serviceId: string) {
  const res = await fetch(`${bff.url}/api/rates/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CHECKOUT}` },
    body: JSON.stringify({ cep, items: [shirt], serviceId }),
  });
  return RateVerifyResponseSchema.parse(await res.json());
}
async function platformPrice(cep: string, serviceId: string) {
  const res = await fetch(`${sandbox.url}/v1/rates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer mk_test_demo' },
    body: JSON.stringify({ destinationCep: cep, items: [shirt] }),
  });
  return RatesResponseSchema.parse(await res.json()).rates.find((rate) => rate.serviceId === serviceId)
    ?.price;
}

describe('GET /api/shipping-rules', () => {
  it('answers the rules in force to anyone, cacheable for the cache period, with no secret', async () => {
    const res = await fetch(`${bff.url}/api/shipping-rules`, { headers: { origin: 'https://loja.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text).not.toMatch(/mk_|senha/);
    expect(ShippingRulesSchema.parse(JSON.parse(text)).version).toBeGreaterThanOrEqual(0);
  });

  it('answers 405 to a write on the public route', async () => {
    const res = await fetch(`${bff.url}/api/shipping-rules`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
  });
});

describe('PUT /admin/api/shipping-rules', () => {
  const markup: Rule[] = [
    { id: 'embalagem', when: { services: ['correios-sedex'] }, then: { markupBRL: 3 } },
    { id: 'sudeste-gratis', when: { ufs: ['RJ'], minSubtotalBRL: 150 }, then: { free: true } },
  ];

  it('refuses without a session (401), without the CSRF token or from another site (403), and changes nothing', async () => {
    const before = await inForce();
    expect((await put({ rules: markup }, { cookie: '' })).status).toBe(401);
    const noToken = await put({ rules: markup }, { 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as ErrorJson).error.code).toBe('invalid_csrf_token');
    const foreign = await put({ rules: markup }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await inForce()).toEqual(before);
  });

  it('refuses an invalid document with 400 naming the rule and the field, and keeps the rules in force', async () => {
    expect((await put({ rules: markup })).status).toBe(200);
    const before = await inForce();
    const res = await put({ rules: [...markup, { id: 'erro', then: { markupPercent: 'dez' } }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorJson;
    expect(body.error).toMatchObject({ code: 'invalid_body', rule: '"erro"', field: 'then.markupPercent' });
    expect(body.error.message).toContain('rule "erro": then.markupPercent');
    const unnamed = (await (await put({ rules: [{ then: { hide: true } }] })).json()) as ErrorJson;
    expect(unnamed.error).toMatchObject({ rule: '#1', field: 'id' });
    expect(await inForce()).toEqual(before);
  });

  it('puts the rules in force as a new version: verify charges them, the desk’s label quote keeps the platform’s price', async () => {
    const { version: before } = await inForce();
    const res = await put({ rules: markup });
    expect(res.status).toBe(200);
    const { version } = (await res.json()) as { version: number };
    expect(version).toBe(before + 1);
    expect(await inForce()).toEqual({ version, rules: markup });

    const sedex = await platformPrice('01310-100', 'correios-sedex');
    const charged = await verify('01310-100', 'correios-sedex');
    expect(charged.available && charged.rate.price).toBeCloseTo((sedex ?? 0) + 3, 2);
    // RJ, R$ 179,80: free by the rule, said as free: true
    const free = await verify('20040-020', 'correios-pac');
    expect(free.available && [free.rate.price, free.rate.free]).toEqual([0, true]);

    // what a label costs: the desk's quote asks the platform's price, never the shopper's
    const desk = await fetch(`${bff.url}/admin/api/quote`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: merchant.cookie,
        'x-csrf-token': merchant.csrf,
        origin: bff.url,
      },
      body: JSON.stringify({ destinationCep: '20040-020', volumes: [{ weightGrams: 600 }] }),
    });
    const quoted = (await desk.json()) as { rates: { serviceId: string; price: number; free?: boolean }[] };
    expect(quoted.rates.find((rate) => rate.serviceId === 'correios-pac')?.free).not.toBe(true);
  });

  it('answers 413 to a document over 64 KB and 400 to one that is not JSON, never a 500', async () => {
    const huge = {
      rules: [
        { id: 'x', when: { skus: Array.from({ length: 200 }, () => 'S'.repeat(400)) }, then: { hide: true } },
      ],
    };
    expect((await put(huge)).status).toBe(413);
    const text = await fetch(`${bff.url}/admin/api/shipping-rules`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        cookie: merchant.cookie,
        'x-csrf-token': merchant.csrf,
        origin: bff.url,
      },
      body: '{"rules": [',
    });
    expect(text.status).toBe(400);
  });

  it('logs every change with who, when, before and after, newest first', async () => {
    await put({ rules: [] });
    await put({ rules: markup });
    const res = await fetch(`${bff.url}/admin/api/shipping-rules/changes`, {
      headers: { cookie: merchant.cookie },
    });
    const { changes } = (await res.json()) as {
      changes: { version: number; changedBy: string; changedAt: number; before: Rule[]; after: Rule[] }[];
    };
    expect(changes[0]).toMatchObject({ before: [], after: markup });
    expect(changes[1]).toMatchObject({ before: markup, after: [] });
    expect(changes[0]?.changedBy).toMatch(/^admin \(/);
    expect(changes[0]?.version).toBe((changes[1]?.version ?? 0) + 1);
    expect(
      bff.logs.some((line) => line.includes('shipping rules: changed') && line.includes('embalagem')),
    ).toBe(true);
  });
});

describe('POST /admin/api/shipping-rules/preview', () => {
  const preview = (body: unknown) =>
    fetch(`${bff.url}/admin/api/shipping-rules/preview`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: merchant.cookie,
        'x-csrf-token': merchant.csrf,
        origin: bff.url,
      },
      body: JSON.stringify(body),
    });

  it('shows each option before and after the rules tried, the platform’s price and the store’s difference', async () => {
    const rules: Rule[] = [
      { id: 'fixo', when: { services: ['correios-pac'] }, then: { priceBRL: 5 } },
      { id: 'sem-sedex', when: { services: ['correios-sedex'] }, then: { hide: true } },
    ];
    const res = await preview({ cep: '01310-100', items: [shirt], rules });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      options: {
        serviceId: string;
        before: { price: number };
        after: { price: number } | null;
        platformPrice: number;
        difference: number | null;
      }[];
    };
    const pac = body.options.find((option) => option.serviceId === 'correios-pac');
    const platform = await platformPrice('01310-100', 'correios-pac');
    expect(pac).toMatchObject({ before: { price: platform }, after: { price: 5 }, platformPrice: platform });
    expect(pac?.difference).toBeCloseTo(5 - (platform ?? 0), 2);
    expect(body.options.find((option) => option.serviceId === 'correios-sedex')).toMatchObject({
      after: null,
      difference: null,
    });
  });

  it('warns of a rule that hides everything and of the rules it makes unreachable', async () => {
    const res = await preview({
      cep: '01310-100',
      items: [shirt],
      rules: [
        { id: 'tudo', then: { hide: true } },
        { id: 'depois', then: { free: true } },
      ],
    });
    const body = (await res.json()) as {
      options: { after: unknown }[];
      warnings: { rule: string; kind: string }[];
    };
    expect(body.options.every((option) => option.after === null)).toBe(true);
    expect(body.warnings.map((w) => [w.rule, w.kind])).toEqual([
      ['tudo', 'hides_everything'],
      ['depois', 'never_matches'],
    ]);
  });

  it('refuses rules to try that are invalid with the rule and field named', async () => {
    const res = await preview({
      cep: '01310-100',
      items: [shirt],
      rules: [{ id: 'x', then: { extraDays: 0 } }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorJson).error).toMatchObject({
      rule: '"x"',
      field: 'then.extraDays',
    });
  });
});
