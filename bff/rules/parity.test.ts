import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import type { Rule } from '../../shared/shipping-rules.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { createQuoteClient } from '../../widget/calculator/quote-client.ts';
import { chargingClient } from '../../widget/calculator/rules-client.ts';
import { createLogger } from '../logger.ts';
import { RatesService } from '../rates/service.ts';
import { createRestClient } from '../upstream/rest-client.ts';
import { ShippingRulesStore } from './rules-store.ts';

/**
 * One price everywhere (ARCHITECTURE.md, "Shipping rules"): random carts, CEPs and rule sets through the calculator's
 * path (the browser's quote client with the public key, the rules read as the calculator reads them) and the BFF's
 * (the quote core with the secret key and the rules store), against the same sandbox: the same options, names, prices,
 * free shipping and days, every time.
 */
let sandbox: RunningSandbox;
let sql: SqliteSql;
let store: ShippingRulesStore;
let core: RatesService;
let calculator: ReturnType<typeof chargingClient>;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 100_000, seconds: 60 } });
  sql = new SqliteSql({ dataDir: ':memory:', file: 'rules.sqlite' });
  store = new ShippingRulesStore(sql, { cacheMs: 0 });
  await store.ready;
  const logger = createLogger({ level: 'silent' });
  core = new RatesService({
    client: createRestClient({ apiUrl: sandbox.url, secretKey: 'mk_test_demo', logger }),
    rules: store,
  });
  // The calculator reads the rules document the BFF serves (`GET /api/shipping-rules` answers `store.current()`).
  calculator = chargingClient(
    createQuoteClient({ apiUrl: sandbox.url, publicKey: 'pk_test_demo' }),
    'http://bff.invalid/api/shipping-rules',
    async () => Response.json(await store.current()),
  );
}, 30_000);
afterAll(async () => {
  await sql?.close();
  await sandbox?.close();
});

const SERVICES = ['correios-pac', 'correios-sedex', 'correios-mini', 'transportadora-x'];
const CEPS = ['01310100', '20040020', '30130010', '40020000', '69005000', '80010000', '90010000', '70040010'];
const money = fc.integer({ min: 0, max: 50_000 }).map((cents) => cents / 100);
const item: fc.Arbitrary<QuoteItem> = fc.record({
  name: fc.constantFrom('Camiseta', 'Caneca', 'Livro'),
  quantity: fc.integer({ min: 1, max: 4 }),
  unitPriceBRL: money,
  weightKg: fc.integer({ min: 50, max: 8000 }).map((grams) => grams / 1000),
});
const when = fc.record(
  {
    ufs: fc.subarray(['SP', 'RJ', 'MG', 'BA', 'AM', 'PR', 'RS', 'DF'] as const, { minLength: 1 }),
    cepRanges: fc
      .array(fc.tuple(fc.constantFrom(...CEPS), fc.constantFrom(...CEPS)), { minLength: 1, maxLength: 2 })
      .map((ranges) => ranges.map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [string, string])),
    minSubtotalBRL: fc.integer({ min: 0, max: 60_000 }).map((cents) => cents / 100),
    maxWeightKg: fc.integer({ min: 1, max: 30_000 }).map((grams) => grams / 1000),
    services: fc.subarray(SERVICES, { minLength: 1 }),
  },
  { requiredKeys: [] },
);
const then = fc.oneof(
  fc.constant({ free: true as const }),
  fc.record({ priceBRL: fc.integer({ min: 0, max: 10_000 }).map((cents) => cents / 100) }),
  fc.record(
    {
      markupPercent: fc.integer({ min: -1000, max: 5000 }).map((tenths) => tenths / 10),
      markupBRL: fc.integer({ min: -2000, max: 2000 }).map((cents) => cents / 100),
    },
    { requiredKeys: ['markupPercent'] },
  ),
  fc.record({ extraDays: fc.integer({ min: 1, max: 10 }) }),
  fc.constant({ hide: true as const }),
  fc.record({ label: fc.constantFrom('Econômica', 'Expressa', 'Retira') }),
);
const rules: fc.Arbitrary<Rule[]> = fc
  .array(fc.record({ when: fc.option(when, { nil: undefined }), then }), { maxLength: 5 })
  .map((list) =>
    list.map((rule, i) => ({ id: `r${i}`, ...(rule.when ? { when: rule.when } : {}), then: rule.then })),
  );

/** What a shopper sees of each option, in one order. */
const seen = (rates: readonly Rate[]) =>
  rates
    .map(({ serviceId, label, price, free, deliveryDays }) => [
      serviceId,
      label,
      price,
      free === true,
      deliveryDays,
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('the calculator’s path and the BFF’s path', () => {
  it('give the same options and prices for random carts, CEPs and rules', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...CEPS),
        rules,
        async (items, cep, ruleSet) => {
          await store.write(ruleSet, 'parity test');
          const request = { destinationCep: cep, items };
          const browser = await calculator.quote(request, new AbortController().signal);
          const bff = await core.shopperQuote(request);
          expect(browser.kind).toBe('rates');
          if (browser.kind !== 'rates') return;
          expect(seen(browser.response.rates)).toEqual(seen(bff.rates));
        },
      ),
      { numRuns: 150, seed: 46 },
    );
  }, 120_000);

  it('find rules that change the prices among the samples, so the comparison is not vacuous', async () => {
    let changed = 0;
    for (const [items, cep, ruleSet] of fc.sample(
      fc.tuple(fc.array(item, { minLength: 1, maxLength: 3 }), fc.constantFrom(...CEPS), rules),
      { numRuns: 40, seed: 46 },
    )) {
      await store.write([], 'parity test');
      const plain = await core.shopperQuote({ destinationCep: cep, items });
      await store.write(ruleSet, 'parity test');
      const ruled = await core.shopperQuote({ destinationCep: cep, items });
      if (JSON.stringify(seen(plain.rates)) !== JSON.stringify(seen(ruled.rates))) changed += 1;
    }
    expect(changed).toBeGreaterThan(10);
  }, 60_000);
});
