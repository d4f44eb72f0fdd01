import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { PromisesResponseSchema } from '../../shared/promise-lookup.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from '../notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { MAX_SERVICE_HISTORIES } from './promises.ts';
import { seedDelivered } from './testing/seed.ts';

// Issue 48, findings 4 and 5 (reproduced red first): each new serviceId sent to /api/promises stayed in memory for
// good, and a deliveryDays of 0 from anyone became the promise the next label to that CEP recorded.
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 1000, seconds: 60 } });
  clocks = new Clocks(sandbox);
  // The watcher follows (and records the promise of) the labels it has someone to tell about.
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  bff = await startBff(
    sandbox.url,
    {
      SHIPPING_RATE_LIMIT: '1000/60',
      BFF_VISITOR_RATE_LIMIT: '1000/60',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { now: clocks.now, notifications: { timers: false } },
  );
});
afterAll(async () => {
  await bff?.stop();
  await receiver?.close();
  await sandbox?.close();
});

async function ask(body: unknown, visitor = 0) {
  const answer = await requestFrom(loopbackAddress(visitor), `${bff.url}/api/promises`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://anyone.example' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, json: () => JSON.parse(answer.text) as unknown };
}

/** The sandbox carrier's count for PAC from São Paulo to Rio de Janeiro (sandbox/carrier/carrier.test.ts). */
const PAC_SP_RJ_DAYS = 6;

describe('/api/promises takes nothing from its caller', () => {
  it('a deliveryDays of 0 from anyone moves neither the next label’s recorded promise nor the lane', async () => {
    await seedDelivered(bff.backends, {
      name: 'rio',
      cep: '20040-020',
      count: 30,
      platformDays: PAC_SP_RJ_DAYS,
      transitDays: (i) => 5 + (i % 2),
      now: clocks.now(),
    });
    bff.promises.invalidate();
    const lane = await bff.promises.estimate('20040020', 'correios-pac');
    // The stranger's answer is a promise for their own count: shown to them, remembered nowhere.
    for (const deliveryDays of [0, 0, 1]) {
      const res = await ask({ cep: '20040-020', rates: [{ serviceId: 'correios-pac', deliveryDays }] }, 7);
      expect(res.status).toBe(200);
      PromisesResponseSchema.parse(res.json());
    }
    expect(bff.promises.quotedDaysOf('20040020', 'correios-pac')).toBeUndefined();
    const label = await issueLabel(bff.url, orderLabel('STRANGER-1'));
    await bff.notifications.tick();
    const row = (await bff.backends.transits.of([label.attemptId ?? ''])).get(label.attemptId ?? '');
    // The platform's own count, from the quote core's one rates call; and the promise built on it.
    expect(row?.platformDays).toBe(PAC_SP_RJ_DAYS);
    const honest = await bff.promises.explain({
      destinationCep: '20040020',
      serviceId: 'correios-pac',
      deliveryDays: PAC_SP_RJ_DAYS,
      at: row?.createdAt ?? 0,
    });
    expect({ from: row?.promisedFrom, to: row?.promisedTo, basis: row?.promisedBasis }).toEqual({
      from: honest.promise.from,
      to: honest.promise.to,
      basis: 'history',
    });
    expect(await bff.promises.estimate('20040020', 'correios-pac')).toEqual(lane);
  });
});

describe('/api/promises state is bounded', () => {
  it('keeps at most MAX_SERVICE_HISTORIES services however many distinct serviceIds strangers send', async () => {
    const before = bff.promises.stateSize();
    // 3,000 distinct serviceIds, 20 to a request, from 15 addresses.
    for (let request = 0; request < 150; request++) {
      const rates = Array.from({ length: 20 }, (_, i) => ({
        serviceId: `made-up-${request}-${i}`,
        deliveryDays: 3,
      }));
      const res = await ask({ cep: `0${String(1_000_000 + request).slice(-7)}`, rates }, 20 + (request % 15));
      expect(res.status).toBe(200);
    }
    const after = bff.promises.stateSize();
    expect(after.services).toBeLessThanOrEqual(MAX_SERVICE_HISTORIES);
    // Nothing a stranger sends is remembered as a quoted count.
    expect(after.quotedDays).toBe(before.quotedDays);
  }, 120_000);
});
