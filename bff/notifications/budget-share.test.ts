import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { makeS10 } from '../../shared/s10.ts';
import { TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from './testing/harness.ts';

/**
 * The watcher's share of the store's tracking calls (`BFF_WATCH_SHARE`), against a sandbox that enforces the same
 * limit: 10 calls a minute, 2 of them the watcher's. Neither side can take the other's calls, and together they never
 * make the platform answer 429.
 */
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 10, seconds: 60 } });
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    {
      SHIPPING_RATE_LIMIT: '10/60',
      BFF_WATCH_SHARE: '0.2',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
    { now: clocks.now, notifications: { timers: false }, coalesceWindowMs: 1 },
  );
});
afterAll(async () => {
  await bff?.stop();
  await receiver?.close();
  await sandbox?.close();
});

const trackingCalls = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['POST /v1/tracking'] ?? 0;

describe('the watcher and the visitors share the tracking route', () => {
  it('keeps 8 of 10 calls for visitors and 2 for the watcher, whoever comes first, and never draws a 429', async () => {
    await issueLabel(bff.url, orderLabel('PED-SHARE-1'));
    // Visitors first: 8 visitors (each its own address, within its own fair share) look up a code nobody looked up
    // before, each its own upstream call.
    const lookup = (visitor: number, code: string) =>
      requestFrom(loopbackAddress(visitor), `${bff.url}/api/tracking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ codes: [code] }),
      });
    for (let i = 0; i < 8; i++) {
      const res = await lookup(100 + i, makeS10('QB', 40_000_000 + i));
      expect(res.status).toBe(200);
      const { results } = TrackingLookupResponseSchema.parse(JSON.parse(res.text));
      expect(results[0]?.stale).toBeUndefined();
    }
    expect(await trackingCalls()).toBe(8);
    // The visitors' lane is spent: a 9th visitor's uncached code is not sent (502, not a platform 429)…
    expect((await lookup(200, makeS10('QB', 40_000_100))).status).toBe(502);
    expect(await trackingCalls()).toBe(8);
    // …yet the watcher still has its two calls: its first round looks at the label.
    expect(await bff.notifications.tick()).toMatchObject({ looked: 1, stopped: false });
    // Cadence after cadence in the same minute, it wants more than its share: it gets exactly one more call.
    const rounds = [];
    for (let i = 0; i < 4; i++) {
      clocks.offsetMs += 300_000;
      rounds.push(await bff.notifications.tick());
    }
    expect(rounds.map((round) => round?.looked)).toEqual([1, 0, 0, 0]);
    expect(rounds.slice(1).every((round) => round?.stopped)).toBe(true);
    expect(await trackingCalls()).toBe(10);
    // The platform never refused a call: the BFF stayed within the limit on its own.
    expect(bff.logs.some((line) => line.includes('upstream rate limit'))).toBe(false);
    expect(bff.logs.some((line) => line.includes('its share of the tracking allowance is spent'))).toBe(true);
  }, 30_000);
});
