import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { NuvemshopRatesAnswerSchema } from '../../shared/checkouts/nuvemshop.ts';
import { platformPromise } from '../../shared/delivery-promise.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { nuvemshopWindow } from '../checkout/promise-times.ts';
import {
  directQuote,
  EDGE_CARTS,
  nuvemshopBody,
  nuvemshopItem,
  platformQuotes,
  postNuvemshop,
  TEST_NUVEMSHOP_SECRET,
} from '../checkout/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

const ENV = {
  BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
  BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  SHIPPING_RATE_LIMIT: '1000/60',
};
const shirt: QuoteItem = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 };
const mug: QuoteItem = { name: 'Caneca', quantity: 2, unitPriceBRL: 35, weightKg: 1.2 };
const RIO = '20040-020';

let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, ENV);
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

const upstreamQuotes = () => platformQuotes(sandbox);

const direct = (cep: string, items: QuoteItem[]) => directQuote(sandbox, cep, items);

async function rates(body: unknown, on: RunningBff = bff) {
  const res = await postNuvemshop(on.url, body);
  expect(res.status).toBe(200);
  return NuvemshopRatesAnswerSchema.parse(await res.json()).rates;
}

describe('POST /checkout/nuvemshop/rates/<secret>: who may ask', () => {
  it.each([
    ['another secret', 'nuvemshop-callback-secret-0123456789abcdeX'],
    ['the secret less a character', TEST_NUVEMSHOP_SECRET.slice(0, -1)],
    ['the secret in upper case', TEST_NUVEMSHOP_SECRET.toUpperCase()],
    ['no secret', ''],
  ])('answers 404 to %s, and reads and quotes nothing', async (_, secret) => {
    const res = await postNuvemshop(bff.url, nuvemshopBody(RIO, [nuvemshopItem(shirt)]), secret);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(TEST_NUVEMSHOP_SECRET);
    expect(await upstreamQuotes()).toBe(0);
  });

  it('does not exist without BFF_NUVEMSHOP_CALLBACK_SECRET (404)', async () => {
    const plain = await startBff(sandbox.url);
    try {
      expect((await postNuvemshop(plain.url, nuvemshopBody(RIO, [nuvemshopItem(shirt)]))).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('answers 404 to another store when BFF_NUVEMSHOP_STORE_ID names this one', async () => {
    const pinned = await startBff(sandbox.url, { ...ENV, BFF_NUVEMSHOP_STORE_ID: '1001' });
    try {
      expect((await postNuvemshop(pinned.url, nuvemshopBody(RIO, [nuvemshopItem(shirt)]))).status).toBe(200);
      const other = { ...nuvemshopBody(RIO, [nuvemshopItem(shirt)]), store_id: 9999 };
      expect((await postNuvemshop(pinned.url, other)).status).toBe(404);
    } finally {
      await pinned.stop();
    }
  });
});

describe('POST /checkout/nuvemshop/rates/<secret>: the core’s price, in Nuvemshop’s words', () => {
  it('answers code = serviceId, price = price_merchant in BRL, the contract code as reference, the promise as dates', async () => {
    const before = Date.now();
    const answer = await rates(nuvemshopBody(RIO, [nuvemshopItem(shirt)]));
    const after = Date.now();
    const platform = await direct(RIO, [shirt]);
    expect(answer.map((r) => [r.code, r.name, r.price, r.price_merchant, r.currency, r.type])).toEqual(
      platform.rates.map((r) => [r.serviceId, r.label, r.price, r.price, 'BRL', 'ship']),
    );
    expect(answer.map((r) => r.reference)).toEqual(['03298', '03220']);
    for (const [i, rate] of answer.entries()) {
      const deliveryDays = platform.rates[i]?.deliveryDays ?? 0;
      const windows = [before, after].map((at) => nuvemshopWindow(platformPromise({ deliveryDays, at }, {})));
      expect(windows).toContainEqual({ min: rate.min_delivery_date, max: rate.max_delivery_date });
    }
  });

  it('quotes from a CEP alone, as the product and cart pages send it', async () => {
    const answer = await rates(nuvemshopBody('20040020', [nuvemshopItem(shirt)], true));
    expect(answer.map((r) => r.code)).toEqual(['correios-pac', 'correios-sedex']);
  });

  it('reads numbers written as strings as the numbers (Nuvemshop writes both), and refuses text that is no number', async () => {
    const numbers = nuvemshopBody(RIO, [nuvemshopItem(mug)]);
    const asNumbers = await rates(numbers);
    const strings = structuredClone(numbers) as { items: Record<string, unknown>[] };
    for (const item of strings.items)
      for (const key of ['quantity', 'grams', 'price']) item[key] = String(item[key]);
    expect(await rates(strings)).toEqual(asNumbers);
    const words = structuredClone(numbers) as { items: Record<string, unknown>[] };
    if (words.items[0]) words.items[0].quantity = 'two';
    expect((await postNuvemshop(bff.url, words)).status).toBe(422);
  });

  it('charges a cart over the free-shipping threshold zero for PAC only', async () => {
    const answer = await rates(nuvemshopBody(RIO, [nuvemshopItem({ ...shirt, quantity: 4 })]));
    expect(answer.find((r) => r.code === 'correios-pac')).toMatchObject({ price: 0, price_merchant: 0 });
    expect(answer.find((r) => r.code === 'correios-sedex')?.price).toBeGreaterThan(0);
  });

  it('prices a mixed cart for the shopper by the items without free shipping, and the whole cart for the merchant', async () => {
    const items = [nuvemshopItem(shirt), nuvemshopItem(mug, { id: 2, free_shipping: true })];
    const answer = await rates(nuvemshopBody(RIO, items));
    const whole = await direct(RIO, [shirt, mug]);
    const paid = await direct(RIO, [shirt]);
    for (const rate of answer) {
      expect(rate.price_merchant).toBe(whole.rates.find((r) => r.serviceId === rate.code)?.price);
      expect(rate.price).toBe(paid.rates.find((r) => r.serviceId === rate.code)?.price);
      expect(rate.price).toBeLessThan(rate.price_merchant ?? 0);
    }
  });

  it('sends the whole price in both when every item has free shipping (Nuvemshop applies the discount)', async () => {
    const items = [
      nuvemshopItem(shirt, { free_shipping: true }),
      nuvemshopItem(mug, { free_shipping: true }),
    ];
    const answer = await rates(nuvemshopBody(RIO, items));
    const whole = await direct(RIO, [shirt, mug]);
    expect(answer.map((r) => [r.price, r.price_merchant])).toEqual(
      whole.rates.map((r) => [r.price, r.price]),
    );
  });

  it.each(EDGE_CARTS)('quotes %s as the platform quotes the same cart', async (_, items) => {
    const answer = await rates(
      nuvemshopBody(
        RIO,
        items.map((item) => nuvemshopItem(item)),
      ),
    );
    expect(answer.map((r) => r.price)).toEqual((await direct(RIO, items)).rates.map((r) => r.price));
  });

  it('quotes 0 g units at the platform’s default weight', async () => {
    const answer = await rates(nuvemshopBody(RIO, [nuvemshopItem({ ...shirt, quantity: 5 }, { grams: 0 })]));
    const platform = await direct(RIO, [{ ...shirt, quantity: 5, weightKg: 0.3 }]);
    expect(answer.map((r) => r.price)).toEqual(platform.rates.map((r) => r.price));
  });

  it('answers rates: [] where the platform has no coverage', async () => {
    expect(await rates(nuvemshopBody('00000-100', [nuvemshopItem(shirt)]))).toEqual([]);
  });
});

describe('POST /checkout/nuvemshop/rates/<secret>: 422 for what cannot be quoted, 503 when no price can be given', () => {
  it.each([
    ['no postal code', { ...nuvemshopBody(RIO, [nuvemshopItem(shirt)]), destination: { postal_code: null } }],
    ['a postal code that is not a CEP', nuvemshopBody('1602', [nuvemshopItem(shirt)])],
    ['no items (nothing to ship)', nuvemshopBody(RIO, [])],
    ['another currency', { ...nuvemshopBody(RIO, [nuvemshopItem(shirt)]), currency: 'ARS' }],
    [
      'a destination outside Brazil',
      {
        ...nuvemshopBody(RIO, [nuvemshopItem(shirt)]),
        destination: { country: 'AR', postal_code: '20040020' },
      },
    ],
    ['an item with no quantity', nuvemshopBody(RIO, [{ ...nuvemshopItem(shirt), quantity: 0 }])],
  ])('answers 422 to %s, and quotes nothing', async (_, body) => {
    const res = await postNuvemshop(bff.url, body);
    expect(res.status).toBe(422);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('invalid_body');
    expect(await upstreamQuotes()).toBe(0);
  });

  it.each([
    ['the carrier fails (502)', '00000-502'],
    ['the platform limits the store (429)', '00000-429'],
  ])('answers 503 when %s', async (_, cep) => {
    expect((await postNuvemshop(bff.url, nuvemshopBody(cep, [nuvemshopItem(shirt)]))).status).toBe(503);
  });

  it('answers 503 when the platform refuses the store (402), and at the deadline when it is slow', async () => {
    const broke = await startBff(sandbox.url, {
      ...ENV,
      SHIPPING_SECRET_KEY: 'mk_test_sem_plano',
      BFF_CHECKOUT_DEADLINE_MS: '300',
    });
    try {
      expect((await postNuvemshop(broke.url, nuvemshopBody(RIO, [nuvemshopItem(shirt)]))).status).toBe(503);
      const quick = await startBff(sandbox.url, { ...ENV, BFF_CHECKOUT_DEADLINE_MS: '300' });
      try {
        // The platform answers after 20 s: the deadline's own words prove the deadline answered, and the bound is the
        // REST client's 5 s timeout (a 1.2 s bound on a 300 ms deadline raced a busy machine).
        await sandbox.control('faults', { target: 'rates', mode: 'latency', latencyMs: 20_000 });
        const started = performance.now();
        const res = await postNuvemshop(quick.url, nuvemshopBody(RIO, [nuvemshopItem(shirt)]));
        expect(res.status).toBe(503);
        expect(JSON.stringify(await res.json())).toContain('before the checkout deadline');
        expect(performance.now() - started).toBeLessThan(5_000);
      } finally {
        await quick.stop();
      }
    } finally {
      await broke.stop();
    }
  });
});
