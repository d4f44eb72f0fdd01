import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, SAMPLE_LABEL, samplePartyAt, startSandbox } from '../../sandbox/testing.ts';
import { AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
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
import { DESK } from '../policies/policies.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { openLaneOf, QUOTE_FLOOR } from './quote-share.ts';
import { RateVerifyResponseSchema } from './verify.ts';

// Issue 48, finding 7 (reproduced red first): Shopify's and Nuvemshop's checkouts, each within its own share, took
// the whole quote lane between them, and the store's own checkout server got 429 on /api/rates/verify.
const CHECKOUT = 'checkout-server-token-floor-01';
const shirt = { name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 };
/** A CEP of São Paulo state per index: each storm quote is a new, uncached one. */
const cepOf = (i: number) => `${String(1000 + i * 7).padStart(5, '0')}-000`;

let sandbox: RunningSandbox;
let bff: RunningBff;
beforeAll(async () => {
  // The platform's 60 a minute, half kept for browsers: a lane of 30 for the BFF.
  sandbox = await startSandbox({ rateLimit: { calls: 60, seconds: 60 } });
  bff = await startBff(sandbox.url, {
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    BFF_CHECKOUT_TOKENS: CHECKOUT,
    BFF_SHOPIFY_SECRET: TEST_SHOPIFY_SECRET,
    BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
  });
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

describe('the floor of the quote lane', () => {
  it('keeps the store’s checkout server served while two anonymous checkout storms hit a slow platform', async () => {
    // A slow platform: every storm quote is still in flight while the others arrive.
    await sandbox.control('faults', { target: 'rates', mode: 'latency', latencyMs: 50, times: 200 });
    const storm = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) =>
        postShopify(bff.url, shopifyBody(cepOf(i), [shopifyItem(shirt)])),
      ),
      ...Array.from({ length: 40 }, (_, i) =>
        postNuvemshop(bff.url, nuvemshopBody(cepOf(100 + i).replace('-', ''), [nuvemshopItem(shirt)])),
      ),
    ]);
    expect(storm.every((res) => res.status === 200 || res.status === 429 || res.status === 503)).toBe(true);
    // Between them the storms spent at most the lane less its floor.
    const lane = { calls: 30, seconds: 60 };
    expect(await platformQuotes(sandbox)).toBeLessThanOrEqual(openLaneOf(lane).calls);
    expect(lane.calls - openLaneOf(lane).calls).toBe(Math.floor(lane.calls * QUOTE_FLOOR));
    // The store's own checkout server, verifying before it charges: served.
    const verify = await fetch(`${bff.url}/api/rates/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CHECKOUT}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cep: '20040-020', items: [shirt], serviceId: 'correios-pac' }),
    });
    expect(verify.status).toBe(200);
    expect(RateVerifyResponseSchema.parse(await verify.json())).toMatchObject({ available: true });
    // And the merchant's desk, pricing a label to a CEP nobody quoted yet: priced.
    const desk = await bff.labels.preview(
      AgentLabelInputSchema.parse({
        ...SAMPLE_LABEL,
        serviceCode: undefined,
        serviceId: 'correios-pac',
        recipient: samplePartyAt('69005-000', 'AM', 'Manaus'),
      }),
      DESK,
    );
    expect(desk.quotedPrice).toBeGreaterThan(0);
    // A third anonymous storm still finds nothing left: the floor is not the storms'.
    const before = await platformQuotes(sandbox);
    const third = await postShopify(bff.url, shopifyBody(cepOf(300), [shopifyItem(shirt)]));
    expect(await platformQuotes(sandbox)).toBe(before);
    expect(third.status).toBe(503);
  });
});
