import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { makeS10 } from '../../shared/s10.ts';
import { type AddressedAnswer, loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * The attack round's finding on the store's tracking quota (issue 29), at a tenth of the time scale: the platform
 * allows 60 calls per 6 s (`SHIPPING_RATE_LIMIT` 60/6, the sandbox the same) and a visitor 120 lookups per 6 s. One
 * visitor stays inside its own limit (20 lookups a second, 50 fresh codes each) while 19 shoppers, each from an address
 * of their own, look up one fresh code each over the same seconds.
 */
let sandbox: RunningSandbox;
let bff: RunningBff;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 60, seconds: 6 } });
  bff = await startBff(sandbox.url, { SHIPPING_RATE_LIMIT: '60/6', BFF_VISITOR_RATE_LIMIT: '120/6' });
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const lookup = (from: string, codes: string[]): Promise<AddressedAnswer> =>
  requestFrom(from, `${bff.url}/api/tracking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ codes }),
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("one visitor cannot spend every shopper's tracking", () => {
  it('serves every shopper while one visitor sends 50 fresh codes 20 times a second, and answers that visitor 429 rate_limited beyond its share', async () => {
    let serial = 74_000_000;
    const started = Date.now();
    const attack: Promise<AddressedAnswer>[] = [];
    const shoppers: Promise<AddressedAnswer>[] = [];
    for (let tick = 0; tick < 100; tick++) {
      const codes = Array.from({ length: 50 }, () => makeS10('QB', serial++));
      attack.push(lookup('127.0.0.2', codes));
      // A shopper every 250 ms from the first quarter second on: 19 of them while the attack lasts.
      if (tick > 0 && tick % 5 === 0) {
        shoppers.push(lookup(loopbackAddress(shoppers.length), [makeS10('SW', serial++)]));
      }
      await pause(50);
    }
    const windows = Math.ceil((Date.now() - started) / 6_000);
    const attacked = await Promise.all(attack);
    const served = await Promise.all(shoppers);
    expect(served.map((answer) => `${answer.status} ${answer.status === 200 ? '' : answer.text}`)).toEqual(
      Array(19).fill('200 '),
    );
    for (const answer of served) expect(JSON.parse(answer.text).results).toHaveLength(1);
    const refused = attacked.filter((answer) => answer.status === 429);
    // Its share: 10 % of 60 calls per 6 s is 6 lookups of fresh codes per 6 s (the attack lasts about 5 s).
    expect(attacked.length - refused.length).toBeLessThanOrEqual(6 * windows);
    expect(refused.length + (attacked.length - refused.length)).toBe(100);
    const first = refused[0];
    expect(ErrorBodySchema.parse(JSON.parse(first?.text ?? '{}')).error.code).toBe('rate_limited');
    expect(Number(first?.headers['retry-after'])).toBeGreaterThan(0);
  }, 30_000);

  it('lets that visitor read cached codes beyond its share (cache hits are free)', async () => {
    const code = makeS10('DG', 75_000_001);
    expect((await lookup('127.0.0.3', [code])).status).toBe(200);
    for (let i = 0; i < 5; i++) await lookup('127.0.0.3', [makeS10('DG', 75_000_100 + i)]);
    expect((await lookup('127.0.0.3', [makeS10('DG', 75_000_200)])).status).toBe(429);
    // Spent for fresh codes, yet a code in the cache is still answered.
    expect((await lookup('127.0.0.3', [code])).status).toBe(200);
  }, 30_000);
});
