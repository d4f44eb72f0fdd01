import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { ShopifyRatesAnswerSchema } from '../../shared/checkouts/shopify.ts';
import { PreviewLabelOutputSchema } from '../../shared/labels/agent-label.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import {
  platformQuotes,
  postShopify,
  shopifyBody,
  shopifyItem,
  TEST_SHOPIFY_SECRET,
} from '../checkout/testing.ts';
import { type RunningBff, startBff, TEST_AGENTS } from '../testing.ts';
import { callerKey, checkoutCaller, QUOTE_SHARES, quoteCallerOf, quoteShareOf } from './quote-share.ts';
import { RateVerifyResponseSchema } from './verify.ts';

const AGENT = TEST_AGENTS[0]?.token ?? '';
const CHECKOUT = 'checkout-server-token-0001';
const ENV = {
  BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  BFF_CHECKOUT_TOKENS: CHECKOUT,
  BFF_SHOPIFY_SECRET: TEST_SHOPIFY_SECRET,
};
const shirt = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 };

describe('the shares', () => {
  it('gives each kind of caller its share of the BFF’s lane (the store’s 60 a minute, half kept for browsers)', () => {
    const lane = { calls: 30, seconds: 60 };
    expect(quoteShareOf(lane, 'platform')).toEqual({ calls: 15, seconds: 60 });
    expect(quoteShareOf(lane, 'desk')).toEqual({ calls: 15, seconds: 60 });
    expect(quoteShareOf(lane, 'agent')).toEqual({ calls: 7, seconds: 60 });
    expect(quoteShareOf(lane, 'checkout')).toEqual({ calls: 15, seconds: 60 });
    expect(quoteShareOf({ calls: 1, seconds: 60 }, 'agent')).toEqual({ calls: 1, seconds: 60 });
    for (const share of Object.values(QUOTE_SHARES)) expect(share).toBeLessThanOrEqual(0.5);
  });

  it('names callers: the desk, an agent by its name, a checkout token by a hash (never the token)', () => {
    expect(callerKey(quoteCallerOf({ issuedBy: 'desk' }))).toBe('desk:desk');
    expect(callerKey(quoteCallerOf({ issuedBy: 'shipper' }))).toBe('agent:shipper');
    expect(callerKey(checkoutCaller(CHECKOUT))).toMatch(/^checkout:[0-9a-f]{16}$/);
    expect(callerKey(checkoutCaller(CHECKOUT))).not.toContain(CHECKOUT);
  });
});

/**
 * Issue 38, finding 3, on the attack's numbers: the platform allows 60 quotes a minute per store (the sandbox and
 * `SHIPPING_RATE_LIMIT` alike); one agent with the `labels` scope sends 70 `preview_label` calls within a second, each
 * for another parcel. On the previous main the next 5 of 5 shopper quotes got 429.
 */
describe('one agent cannot spend the store’s quotes', () => {
  let sandbox: RunningSandbox;
  let bff: RunningBff;
  const clients = new McpClients();
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { calls: 60, seconds: 60 } });
    bff = await startBff(sandbox.url, ENV);
  });
  afterAll(async () => {
    await clients.closeAll();
    await bff?.stop();
    await sandbox?.close();
  });

  it('keeps shoppers’ and checkouts’ quotes served while one agent previews 70 labels in a second, the agent at its share', async () => {
    const client = await clients.connect(`${bff.url}/mcp`, AGENT);
    const started = performance.now();
    const previews = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        clients.call(client, 'preview_label', { ...SAMPLE_LABEL, weightGrams: 800 + i * 100 }),
      ),
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    const priced = previews.filter((r) => PreviewLabelOutputSchema.parse(r.structuredContent).quotedPrice);
    // Its share: a quarter of the BFF's 30 (the store's 60 less the browsers' half).
    expect(priced.length).toBe(7);
    expect(await platformQuotes(sandbox)).toBe(7);

    // Shoppers' calculators quote the platform directly with the public key: 5 of 5 served.
    const shoppers = await Promise.all(
      ['01001-000', '30130-000', '40010-000', '80010-000', '90010-000'].map((cep) =>
        fetch(`${sandbox.url}/v1/rates`, {
          method: 'POST',
          headers: { authorization: 'Bearer pk_test_demo', 'content-type': 'application/json' },
          body: JSON.stringify({ destinationCep: cep, items: [shirt] }),
        }),
      ),
    );
    expect(shoppers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);

    // The store's checkout server verifies a choice, and Shopify's checkout asks its rates: both served.
    const verify = await fetch(`${bff.url}/api/rates/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CHECKOUT}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cep: '20040-020', items: [shirt], serviceId: 'correios-pac' }),
    });
    expect(RateVerifyResponseSchema.parse(await verify.json())).toMatchObject({ available: true });
    const shopify = await postShopify(bff.url, shopifyBody('69900-000', [shopifyItem(shirt)]));
    expect(shopify.status).toBe(200);
    expect(ShopifyRatesAnswerSchema.parse(await shopify.json()).rates.length).toBeGreaterThan(0);

    // The agent's own quotes are refused with when to retry, while it can still read what is cached.
    const refused = await clients.call(client, 'get_shipping_rates', {
      destinationCep: '50010-000',
      items: [shirt],
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ rates: [], reason: 'rate_limited' });
    expect((refused.structuredContent as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(await platformQuotes(sandbox)).toBeLessThanOrEqual(60);
  });
});

/** With `BFF_REDIS_URL`, a caller's share is one share across every instance. */
describe('the shares across instances', () => {
  let redis: RedisServer;
  let sandbox: RunningSandbox;
  const bffs: RunningBff[] = [];
  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([
      startRedis(),
      startSandbox({ rateLimit: { calls: 1000, seconds: 60 } }),
    ]);
    // 4 a minute, half for browsers: a lane of 2 and a checkout token's share of 1, on each of two instances. Redis
    // commands get startBff's 5 s (bff/testing.ts says why): a late answer would fall back to one instance's share.
    for (let i = 0; i < 2; i++)
      bffs.push(
        await startBff(sandbox.url, { ...ENV, SHIPPING_RATE_LIMIT: '4/60', BFF_REDIS_URL: redis.url }),
      );
  });
  afterAll(async () => {
    await Promise.all(bffs.map((b) => b.stop()));
    await sandbox?.close();
    await redis?.close();
  });

  it('counts a checkout token’s uncached quotes once for all instances, and shares the cache', async () => {
    const verify = (on: RunningBff, cep: string) =>
      fetch(`${on.url}/api/rates/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CHECKOUT}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cep, items: [shirt], serviceId: 'correios-pac' }),
      });
    const [first, second] = bffs as [RunningBff, RunningBff];
    // Until Redis answers, each instance counts on its own (its fallback): wait for both to share.
    for (const bff of bffs)
      await expect
        .poll(async () => JSON.stringify(await (await fetch(`${bff.url}/readyz`)).json()))
        .toContain('shared across instances');
    expect((await verify(first, '20040-020')).status).toBe(200);
    expect((await verify(second, '30130-000')).status).toBe(429);
    // What the first instance paid for, the second answers from the shared cache.
    expect((await verify(second, '20040-020')).status).toBe(200);
    expect(await platformQuotes(sandbox)).toBe(1);
  });
});
