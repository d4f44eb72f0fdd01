import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { ShopifyRatesAnswerSchema, shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { platformPromise } from '../../shared/delivery-promise.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { shopifyWindow } from '../checkout/promise-times.ts';
import {
  directQuote,
  EDGE_CARTS,
  platformQuotes,
  postShopify,
  shopifyBody,
  shopifyItem,
  TEST_SHOPIFY_SECRET,
} from '../checkout/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

const STORE_DAYS = { handlingDays: 1, cutoffMinutes: 14 * 60 };
const ENV = {
  BFF_SHOPIFY_SECRET: TEST_SHOPIFY_SECRET,
  BFF_HANDLING_DAYS: '1',
  BFF_CUTOFF: '14:00',
  SHIPPING_RATE_LIMIT: '1000/60',
};
const shirt: QuoteItem = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 };
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

/** Asks the BFF as Shopify does and parses the answer with the published schema. */
async function rates(body: unknown, on: RunningBff = bff) {
  const res = await postShopify(on.url, body);
  expect(res.status).toBe(200);
  return ShopifyRatesAnswerSchema.parse(await res.json()).rates;
}

const cents = (brl: number) => String(Math.round(brl * 100));

describe('POST /checkout/shopify/rates: who may ask', () => {
  it('answers 401 missing_api_key to a call without X-Shopify-Hmac-Sha256, and quotes nothing', async () => {
    const res = await postShopify(bff.url, shopifyBody(RIO, [shopifyItem(shirt)]), null);
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('missing_api_key');
    expect(await upstreamQuotes()).toBe(0);
  });

  it.each([
    ['another secret', (text: string) => shopifyHmac('shpss_another_app_secret_000', text)],
    ['the signature of another body', (text: string) => shopifyHmac(TEST_SHOPIFY_SECRET, `${text} `)],
    [
      'the right signature less a character',
      (text: string) => shopifyHmac(TEST_SHOPIFY_SECRET, text).slice(1),
    ],
    ['the right HMAC in hex', (text: string) => signHex(text)],
    ['an empty value', () => ''],
  ])('answers 401 invalid_api_key to %s, and quotes nothing', async (_, sign) => {
    const text = JSON.stringify(shopifyBody(RIO, [shopifyItem(shirt)]));
    const res = await fetch(`${bff.url}/checkout/shopify/rates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': sign(text) },
      body: text,
    });
    expect(res.status).toBe(401);
    expect(['invalid_api_key', 'missing_api_key']).toContain(
      ErrorBodySchema.parse(await res.json()).error.code,
    );
    expect(await upstreamQuotes()).toBe(0);
  });

  it('checks the signature of the raw bytes: the same JSON re-spaced is another body', async () => {
    const body = shopifyBody(RIO, [shopifyItem(shirt)]);
    const signedCompact = shopifyHmac(TEST_SHOPIFY_SECRET, JSON.stringify(body));
    const res = await fetch(`${bff.url}/checkout/shopify/rates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signedCompact },
      body: JSON.stringify(body, null, 2),
    });
    expect(res.status).toBe(401);
  });

  it('does not exist without BFF_SHOPIFY_SECRET (404)', async () => {
    const plain = await startBff(sandbox.url);
    try {
      const res = await postShopify(plain.url, shopifyBody(RIO, [shopifyItem(shirt)]));
      expect(res.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  describe('a signed call that names another shop (the store left, whose carrier service still calls)', () => {
    const body = () => shopifyBody(RIO, [shopifyItem(shirt)]);
    let ours: RunningBff;
    beforeAll(async () => {
      ours = await startBff(sandbox.url, { ...ENV, BFF_SHOPIFY_SHOP: 'loja-certa.myshopify.com' });
    });
    afterAll(async () => {
      await ours?.stop();
    });

    it.each([
      ['x-shopify-shop-domain', 'loja-antiga.myshopify.com'],
      ['shopify-shop-domain', 'loja-antiga.myshopify.com'],
      ['x-shopify-shop-domain', 'loja-certa.myshopify.com.evil.example'],
      ['x-shopify-shop-domain', 'loja-cert.myshopify.com'],
    ])('answers 404 not_found when %s is %s, and quotes nothing', async (header, shop) => {
      const res = await postShopify(ours.url, body(), TEST_SHOPIFY_SECRET, { [header]: shop });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
      expect(await upstreamQuotes()).toBe(0);
    });

    it('quotes for the connected shop, named in any case, and for a call that names no shop', async () => {
      const named = await postShopify(ours.url, body(), TEST_SHOPIFY_SECRET, {
        'x-shopify-shop-domain': 'Loja-Certa.myshopify.com',
      });
      expect(named.status).toBe(200);
      expect(ShopifyRatesAnswerSchema.parse(await named.json()).rates.length).toBeGreaterThan(0);
      expect((await rates(body(), ours)).length).toBeGreaterThan(0);
    });

    it('answers 503 at the deadline, never later, while the database does not say which shop is connected', async () => {
      const quick = await startBff(sandbox.url, {
        ...ENV,
        BFF_SHOPIFY_SHOP: 'loja-certa.myshopify.com',
        BFF_CHECKOUT_DEADLINE_MS: '300',
      });
      // The connected shop's row never comes (a PostgreSQL that hangs up to its 5 s timeouts, a node:sqlite file held
      // by a long transaction): Shopify, which names the shop on its calls, must still have an answer by the deadline.
      quick.backends.connections.connected = () => new Promise(() => undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const started = performance.now();
        const res = await Promise.race([
          postShopify(quick.url, body(), TEST_SHOPIFY_SECRET, {
            'x-shopify-shop-domain': 'loja-certa.myshopify.com',
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('no answer 5 s after a 300 ms deadline')), 5_000);
          }),
        ]);
        expect(res.status).toBe(503);
        expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('quote_failed');
        expect(performance.now() - started).toBeLessThan(5_000);
      } finally {
        clearTimeout(timer);
        await quick.stop();
      }
    });

    it('answers 503 quote_failed, never 500, when the database fails to say which shop is connected', async () => {
      const failing = await startBff(sandbox.url, { ...ENV, BFF_SHOPIFY_SHOP: 'loja-certa.myshopify.com' });
      failing.backends.connections.connected = () =>
        Promise.reject(new Error('SQLITE_BUSY: database is locked'));
      try {
        const res = await postShopify(failing.url, body(), TEST_SHOPIFY_SECRET, {
          'x-shopify-shop-domain': 'loja-certa.myshopify.com',
        });
        expect(res.status).toBe(503);
        expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('quote_failed');
        expect(await upstreamQuotes()).toBe(0);
      } finally {
        await failing.stop();
      }
    });

    it('refuses every named shop when no store is connected or configured', async () => {
      const res = await postShopify(bff.url, body(), TEST_SHOPIFY_SECRET, {
        'x-shopify-shop-domain': 'loja-certa.myshopify.com',
      });
      expect(res.status).toBe(404);
      expect(await upstreamQuotes()).toBe(0);
    });
  });

  it('answers 405 to GET, and 400 invalid_json / invalid_body to a signed body it cannot read', async () => {
    expect((await fetch(`${bff.url}/checkout/shopify/rates`)).status).toBe(405);
    const notJson = await postShopify(bff.url, '{"rate":');
    expect(notJson.status).toBe(400);
    expect(ErrorBodySchema.parse(await notJson.json()).error.code).toBe('invalid_json');
    const noItems = await postShopify(bff.url, { rate: { destination: { postal_code: RIO } } });
    expect(noItems.status).toBe(400);
    expect(ErrorBodySchema.parse(await noItems.json()).error.code).toBe('invalid_body');
    expect(await upstreamQuotes()).toBe(0);
  });
});

describe('POST /checkout/shopify/rates: the price and the dates of the quote core', () => {
  it('answers each rate with service_code = serviceId, total_price in centavos and the promise as min/max dates', async () => {
    const before = Date.now();
    const answer = await rates(shopifyBody(RIO, [shopifyItem(shirt)]));
    const after = Date.now();
    const platform = await direct(RIO, [shirt]);
    expect(answer.map((r) => [r.service_code, r.total_price, r.currency, r.service_name])).toEqual(
      platform.rates.map((r) => [r.serviceId, cents(r.price), 'BRL', r.label]),
    );
    for (const [i, rate] of answer.entries()) {
      const deliveryDays = platform.rates[i]?.deliveryDays ?? 0;
      const windows = [before, after].map((at) =>
        shopifyWindow(platformPromise({ deliveryDays, at }, STORE_DAYS)),
      );
      expect(windows).toContainEqual({ min: rate.min_delivery_date, max: rate.max_delivery_date });
      expect(rate.min_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00 -0300$/);
      expect(rate.description).toMatch(/^Chega até \S+ \d{2}\/\d{2}/);
    }
  });

  it('charges a free-shipping cart zero only where the platform says free (PAC "0", SEDEX priced)', async () => {
    const answer = await rates(shopifyBody(RIO, [shopifyItem({ ...shirt, quantity: 4 })]));
    expect(answer.find((r) => r.service_code === 'correios-pac')?.total_price).toBe('0');
    expect(Number(answer.find((r) => r.service_code === 'correios-sedex')?.total_price)).toBeGreaterThan(0);
  });

  it('counts 10 × R$ 29,90 as R$ 299,00 exactly: free PAC from R$ 299, not a centavo less', async () => {
    const at = (price: number) => rates(shopifyBody(RIO, [{ ...shopifyItem(shirt), price, quantity: 10 }]));
    expect((await at(2990)).find((r) => r.service_code === 'correios-pac')?.total_price).toBe('0');
    expect((await at(2989)).find((r) => r.service_code === 'correios-pac')?.total_price).not.toBe('0');
  });

  it.each(EDGE_CARTS)('quotes %s as the platform quotes the same cart', async (_, items) => {
    const answer = await rates(
      shopifyBody(
        RIO,
        items.map((item) => shopifyItem(item)),
      ),
    );
    const platform = await direct(RIO, items);
    expect(answer.map((r) => r.total_price)).toEqual(platform.rates.map((r) => cents(r.price)));
  });

  it('quotes 0 g units at the platform’s default weight (0.3 kg), never as weightless', async () => {
    const answer = await rates(shopifyBody(RIO, [{ ...shopifyItem({ ...shirt, quantity: 5 }), grams: 0 }]));
    const platform = await direct(RIO, [{ ...shirt, quantity: 5, weightKg: 0.3 }]);
    expect(answer.map((r) => r.total_price)).toEqual(platform.rates.map((r) => cents(r.price)));
  });

  it('folds a cart of 60 lines into the platform’s 50, quoting the same weight and subtotal', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({
      ...shirt,
      name: `p${i}`,
      unitPriceBRL: 1,
      weightKg: 0.1,
    }));
    const answer = await rates(
      shopifyBody(
        RIO,
        items.map((item) => shopifyItem(item)),
      ),
    );
    const platform = await direct(RIO, [{ name: 'all', quantity: 60, unitPriceBRL: 1, weightKg: 0.1 }]);
    expect(answer.map((r) => r.total_price)).toEqual(platform.rates.map((r) => cents(r.price)));
  });

  it('leaves out the items that do not require shipping', async () => {
    const giftCard = {
      ...shopifyItem({ ...shirt, name: 'Vale-presente', weightKg: 5 }),
      requires_shipping: false,
    };
    const answer = await rates(shopifyBody(RIO, [shopifyItem(shirt), giftCard]));
    const platform = await direct(RIO, [shirt]);
    expect(answer.map((r) => r.total_price)).toEqual(platform.rates.map((r) => cents(r.price)));
  });

  it.each([
    [
      'a cart with nothing that requires shipping',
      shopifyBody(RIO, [{ ...shopifyItem(shirt), requires_shipping: false }]),
    ],
    ['an empty cart', shopifyBody(RIO, [])],
    ['a destination outside Brazil', shopifyBody('10001', [shopifyItem(shirt)], { country: 'US' })],
    ['a postal code that is not a CEP', shopifyBody('1234', [shopifyItem(shirt)])],
    ['no postal code', shopifyBody('', [shopifyItem(shirt)], { postal_code: null })],
    // Its prices are cents of another currency: read as centavos they would move the free-shipping threshold.
    [
      'a cart in another currency',
      { rate: { ...shopifyBody(RIO, [shopifyItem(shirt)]).rate, currency: 'USD' } },
    ],
  ])('answers rates: [] to %s, without asking the platform', async (_, body) => {
    expect(await rates(body)).toEqual([]);
    expect(await upstreamQuotes()).toBe(0);
  });

  it('answers rates: [] where the platform has no coverage (no backup rates: nobody can ship there)', async () => {
    expect(await rates(shopifyBody('00000-100', [shopifyItem(shirt)]))).toEqual([]);
    expect(await upstreamQuotes()).toBe(1);
  });

  it('answers an identical request again from the cache: one platform call', async () => {
    const body = shopifyBody('30130-000', [shopifyItem({ ...shirt, name: 'cache' })]);
    const first = await rates(body);
    expect(await rates(body)).toEqual(first);
    expect(await upstreamQuotes()).toBe(1);
  });
});

describe('POST /checkout/shopify/rates: 503 (backup rates) whenever no price can be given', () => {
  it.each([
    ['the carrier fails (502)', '00000-502'],
    ['the platform limits the store (429)', '00000-429'],
  ])('answers 503 quote_failed when %s', async (_, cep) => {
    const res = await postShopify(bff.url, shopifyBody(cep, [shopifyItem(shirt)]));
    expect(res.status).toBe(503);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('quote_failed');
  });

  it('answers 503 when the platform refuses the store (402 subscription_required)', async () => {
    const broke = await startBff(sandbox.url, { ...ENV, SHIPPING_SECRET_KEY: 'mk_test_sem_plano' });
    try {
      const res = await postShopify(broke.url, shopifyBody(RIO, [shopifyItem(shirt)]));
      expect(res.status).toBe(503);
      expect(broke.logs.join('\n')).toContain('checkout: no price');
    } finally {
      await broke.stop();
    }
  });

  it('answers 503 at the deadline when the platform is slower, never later', async () => {
    const quick = await startBff(sandbox.url, { ...ENV, BFF_CHECKOUT_DEADLINE_MS: '300' });
    try {
      // The platform answers after 20 s: the deadline's own words prove the deadline answered, and the bound is the
      // REST client's 5 s timeout (a 1.2 s bound on a 300 ms deadline raced a busy machine).
      await sandbox.control('faults', { target: 'rates', mode: 'latency', latencyMs: 20_000 });
      const started = performance.now();
      const res = await postShopify(quick.url, shopifyBody(RIO, [shopifyItem({ ...shirt, name: 'slow' })]));
      const elapsed = performance.now() - started;
      expect(res.status).toBe(503);
      expect(JSON.stringify(await res.json())).toContain('before the checkout deadline');
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await quick.stop();
    }
  });

  it('answers 503 with Retry-After once Shopify’s share of the quotes is spent, while the cache still answers', async () => {
    // 4 quotes a minute, half for browsers: a lane of 2, a hosted checkout's share 1.
    const small = await startBff(sandbox.url, { ...ENV, SHIPPING_RATE_LIMIT: '4/60' });
    try {
      const first = shopifyBody(RIO, [shopifyItem(shirt)]);
      expect((await postShopify(small.url, first)).status).toBe(200);
      const second = await postShopify(small.url, shopifyBody('30130-000', [shopifyItem(shirt)]));
      expect(second.status).toBe(503);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await postShopify(small.url, first)).status).toBe(200);
      expect(await upstreamQuotes()).toBe(1);
    } finally {
      await small.stop();
    }
  });
});

function signHex(text: string): string {
  return Buffer.from(shopifyHmac(TEST_SHOPIFY_SECRET, text), 'base64').toString('hex');
}
