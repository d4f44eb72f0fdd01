import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { AcpFulfillmentOptionsSchema, UcpFulfillmentOptionsSchema } from '../../shared/checkouts/agentic.ts';
import { NuvemshopRatesAnswerSchema } from '../../shared/checkouts/nuvemshop.ts';
import { ShopifyRatesAnswerSchema } from '../../shared/checkouts/shopify.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import {
  nuvemshopBody,
  nuvemshopItem,
  platformQuotes,
  postNuvemshop,
  postShopify,
  shopifyBody,
  shopifyItem,
  TEST_NUVEMSHOP_SECRET,
  TEST_SHOPIFY_SECRET,
} from '../checkout/testing.ts';
import { RateVerifyResponseSchema } from '../rates/verify.ts';
import { type RunningBff, startBff, TEST_AGENTS } from '../testing.ts';

const CHECKOUT = 'agentic-checkout-token-0001';
const ENV = {
  BFF_CHECKOUT_TOKENS: CHECKOUT,
  BFF_SHOPIFY_SECRET: TEST_SHOPIFY_SECRET,
  BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
  BFF_HANDLING_DAYS: '2',
  BFF_CUTOFF: '11h30',
  SHIPPING_RATE_LIMIT: '1000/60',
  // Production's 2.5 s answers a checkout before a slow platform: a starved test machine took that long for a first,
  // uncached quote and answered 503 where the test states prices (the deadline's own tests set 300 ms).
  BFF_CHECKOUT_DEADLINE_MS: '10000',
};
const shirt: QuoteItem = { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 };
const RIO = '20040-020';

let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, ENV);
});
afterAll(async () => {
  await clients.closeAll();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

function options(body: unknown, token = CHECKOUT, on = bff) {
  return fetch(`${on.url}/checkout/fulfillment-options`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const upstreamQuotes = () => platformQuotes(sandbox);

describe('POST /checkout/fulfillment-options', () => {
  it('answers ACP FulfillmentOptionShipping objects: id = serviceId, integer centavos, the promise as RFC 3339', async () => {
    const res = await options({
      protocol: 'acp',
      items: [shirt],
      address: { postal_code: RIO, country: 'BR' },
    });
    expect(res.status).toBe(200);
    const { fulfillment_options } = AcpFulfillmentOptionsSchema.parse(await res.json());
    expect(fulfillment_options.map((o) => [o.type, o.id, o.carrier])).toEqual([
      ['shipping', 'correios-pac', 'Correios'],
      ['shipping', 'correios-sedex', 'Correios'],
    ]);
    for (const option of fulfillment_options) {
      expect(option.earliest_delivery_time).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00-03:00$/);
      expect(option.latest_delivery_time).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59-03:00$/);
      expect(option.totals.map((t) => t.type)).toEqual(['fulfillment', 'total']);
      for (const total of option.totals) expect(Number.isInteger(total.amount)).toBe(true);
    }
  });

  it('answers UCP fulfillment options with the same ids, amounts and window', async () => {
    const items = [{ ...shirt, name: 'Camiseta (UCP)' }];
    const acp = AcpFulfillmentOptionsSchema.parse(
      await (await options({ protocol: 'acp', items, address: { postal_code: RIO } })).json(),
    );
    const ucp = UcpFulfillmentOptionsSchema.parse(
      await (await options({ protocol: 'ucp', items, address: { postal_code: RIO } })).json(),
    );
    expect(
      ucp.options.map((o) => [
        o.id,
        o.totals[0]?.amount,
        o.earliest_fulfillment_time,
        o.latest_fulfillment_time,
      ]),
    ).toEqual(
      acp.fulfillment_options.map((o) => [
        o.id,
        o.totals[0]?.amount,
        o.earliest_delivery_time,
        o.latest_delivery_time,
      ]),
    );
    expect(await upstreamQuotes()).toBe(1);
  });

  it('answers an empty list with the platform’s reason where there is no coverage, and outside Brazil', async () => {
    const none = await options({ protocol: 'ucp', items: [shirt], address: { postal_code: '00000-100' } });
    expect(UcpFulfillmentOptionsSchema.parse(await none.json())).toEqual({
      options: [],
      reason: 'no_coverage',
    });
    const abroad = await options({
      protocol: 'acp',
      items: [shirt],
      address: { postal_code: RIO, country: 'PT' },
    });
    expect(AcpFulfillmentOptionsSchema.parse(await abroad.json())).toEqual({
      fulfillment_options: [],
      reason: 'no_coverage',
    });
  });

  it('needs a checkout token (401, nothing quoted), a known protocol and a CEP (400)', async () => {
    const body = { protocol: 'acp', items: [shirt], address: { postal_code: RIO } };
    expect((await options(body, 'not-a-checkout-token-000')).status).toBe(401);
    for (const bad of [
      { ...body, protocol: 'other' },
      { ...body, address: { postal_code: '123' } },
      { ...body, items: [] },
      { ...body, price: 1 },
    ]) {
      const res = await options(bad);
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('invalid_body');
    }
    expect(await upstreamQuotes()).toBe(0);
  });

  it('answers 503 when the platform fails (502), limits the store (429), refuses it (402) or is slower than the deadline', async () => {
    for (const cep of ['00000-502', '00000-429']) {
      const res = await options({ protocol: 'acp', items: [shirt], address: { postal_code: cep } });
      expect(res.status).toBe(503);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('quote_failed');
    }
    const body = { protocol: 'ucp', items: [shirt], address: { postal_code: RIO } };
    const broke = await startBff(sandbox.url, { ...ENV, SHIPPING_SECRET_KEY: 'mk_test_sem_plano' });
    const quick = await startBff(sandbox.url, { ...ENV, BFF_CHECKOUT_DEADLINE_MS: '300' });
    try {
      expect((await options(body, CHECKOUT, broke)).status).toBe(503);
      // The platform answers after 20 s: the deadline's own words prove the deadline answered, and the bound is the
      // REST client's 5 s timeout (a 1.2 s bound on a 300 ms deadline raced a busy machine).
      await sandbox.control('faults', { target: 'rates', mode: 'latency', latencyMs: 20_000 });
      const started = performance.now();
      const slow = await options(body, CHECKOUT, quick);
      expect(slow.status).toBe(503);
      expect(JSON.stringify(await slow.json())).toContain('before the checkout deadline');
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await Promise.all([broke.stop(), quick.stop()]);
    }
  });

  it('answers 429 with Retry-After once the token’s share is spent', async () => {
    const small = await startBff(sandbox.url, { ...ENV, SHIPPING_RATE_LIMIT: '4/60' });
    try {
      const ask = (cep: string) =>
        options({ protocol: 'ucp', items: [shirt], address: { postal_code: cep } }, CHECKOUT, small);
      expect((await ask(RIO)).status).toBe(200);
      const refused = await ask('30130-000');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(ErrorBodySchema.parse(await refused.json()).error.code).toBe('rate_limited');
    } finally {
      await small.stop();
    }
  });
});

/**
 * Issue 34's first "done when", at the BFF's edge: one cart and one CEP give one price and one date at every checkout
 * the BFF answers (the calculator's side is e2e/checkout.test.ts, in Chromium).
 */
describe('one price and one date everywhere', () => {
  it.each([
    ['a paid cart', [{ ...shirt, name: 'Camiseta (everywhere)' }]],
    ['a free-shipping cart (R$ 319,60)', [{ ...shirt, name: 'Camiseta (everywhere)', quantity: 4 }]],
  ])(
    'for %s: verify, MCP, Shopify, Nuvemshop, ACP and UCP agree, and the platform was asked once',
    async (_, items) => {
      const verify = async (serviceId: string) => {
        const res = await fetch(`${bff.url}/api/rates/verify`, {
          method: 'POST',
          headers: { authorization: `Bearer ${CHECKOUT}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cep: RIO, items, serviceId }),
        });
        const parsed = RateVerifyResponseSchema.parse(await res.json());
        if (!parsed.available) throw new Error(`${serviceId} not available`);
        return parsed.rate;
      };
      const client = await clients.connect(`${bff.url}/mcp`, TEST_AGENTS[0]?.token ?? '');
      const mcp = (await clients.call(client, 'get_shipping_rates', { destinationCep: RIO, items }))
        .structuredContent as { rates: { serviceId: string; price: number; promise: { to: string } }[] };
      const shopify = ShopifyRatesAnswerSchema.parse(
        await (
          await postShopify(
            bff.url,
            shopifyBody(
              RIO,
              items.map((i) => shopifyItem(i)),
            ),
          )
        ).json(),
      ).rates;
      const nuvemshop = NuvemshopRatesAnswerSchema.parse(
        await (
          await postNuvemshop(
            bff.url,
            nuvemshopBody(
              '20040020',
              items.map((i) => nuvemshopItem(i)),
              true,
            ),
          )
        ).json(),
      ).rates;
      const acp = AcpFulfillmentOptionsSchema.parse(
        await (await options({ protocol: 'acp', items, address: { postal_code: RIO } })).json(),
      ).fulfillment_options;
      const ucp = UcpFulfillmentOptionsSchema.parse(
        await (await options({ protocol: 'ucp', items, address: { postal_code: RIO } })).json(),
      ).options;

      for (const serviceId of ['correios-pac', 'correios-sedex']) {
        const truth = await verify(serviceId);
        const cents = Math.round(truth.price * 100);
        const day = truth.promise.to;
        const views = {
          mcp: mcp.rates.find((r) => r.serviceId === serviceId),
          shopify: shopify.find((r) => r.service_code === serviceId),
          nuvemshop: nuvemshop.find((r) => r.code === serviceId),
          acp: acp.find((o) => o.id === serviceId),
          ucp: ucp.find((o) => o.id === serviceId),
        };
        expect({
          mcp: [Math.round((views.mcp?.price ?? -1) * 100), views.mcp?.promise.to],
          shopify: [Number(views.shopify?.total_price), views.shopify?.max_delivery_date?.slice(0, 10)],
          nuvemshop: [
            Math.round((views.nuvemshop?.price ?? -1) * 100),
            views.nuvemshop?.max_delivery_date?.slice(0, 10),
          ],
          acp: [views.acp?.totals[0]?.amount, views.acp?.latest_delivery_time?.slice(0, 10)],
          ucp: [views.ucp?.totals[0]?.amount, views.ucp?.latest_fulfillment_time?.slice(0, 10)],
        }).toEqual({
          mcp: [cents, day],
          shopify: [cents, day],
          nuvemshop: [cents, day],
          acp: [cents, day],
          ucp: [cents, day],
        });
        if (truth.free === true) expect(cents).toBe(0);
      }
      expect(await upstreamQuotes()).toBe(1);
    },
  );
});
