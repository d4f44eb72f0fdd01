import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { saoPauloDay } from '../../shared/business-days.ts';
import { DeliveryPromiseSchema, platformPromise } from '../../shared/delivery-promise.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../testing/receivers.ts';
import {
  Clocks,
  eventsOf,
  issueLabel,
  orderLabel,
  WEBHOOK_SECRET,
} from '../notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { dayOfIso, lateDays } from './learn.ts';
import { seedDelivered } from './testing/seed.ts';

/**
 * Promise kept, end to end: a real BFF whose watcher follows the labels it issued on the sandbox's carrier (both
 * clocks moved together, timers off: each look is a `tick()`), a real SMTP server and a webhook receiver that checks
 * every signature. Each label starts its history with the promise it was sold with; its delivery is scored against it;
 * a parcel still on the way on the promised day's morning is an event, once.
 */
let sandbox: RunningSandbox;
let smtp: SmtpServer;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 1000, seconds: 60 } });
  smtp = await startSmtp();
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    {
      SHIPPING_RATE_LIMIT: '1000/60',
      BFF_SMTP_URL: smtp.url,
      BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BFF_STORE_NAME: 'Loja Demo',
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { now: clocks.now, random: () => 0.5, notifications: { timers: false } },
  );
});
afterAll(async () => {
  await bff?.stop();
  await receiver?.close();
  await smtp?.close();
  await sandbox?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  smtp.received.length = 0;
});

async function follow(hours: number, step: number, until?: () => Promise<boolean> | boolean): Promise<void> {
  for (let moved = 0; moved < hours; moved += step) {
    await clocks.advance(step);
    await bff.notifications.tick();
    if (await until?.()) return;
  }
}
/** Moves both clocks to `instant`, a look every `step` hours on the way (and one at the end). */
async function moveTo(instant: number, step = 12): Promise<void> {
  for (let left = (instant - clocks.now()) / 3_600_000; left > 0; left -= step) {
    await clocks.advance(Math.min(step, left));
    await bff.notifications.tick();
  }
}
const rowOf = async (attemptId: string | undefined) =>
  (await bff.backends.transits.of([attemptId ?? ''])).get(attemptId ?? '');

describe('the promise a parcel was sold with', () => {
  it('is recorded with the label (the platform’s count: no history yet), carried by its events, and scored on delivery', async () => {
    const label = await issueLabel(bff.url, orderLabel('KEPT-1'));
    const issuedAt = clocks.now();
    // The row starts at the first round whose rates call for the platform's count succeeds (a failed one waits).
    await expect
      .poll(async () => {
        await bff.notifications.tick();
        return rowOf(label.attemptId);
      })
      .toBeDefined();
    const row = await rowOf(label.attemptId);
    const sold = platformPromise({ at: issuedAt, deliveryDays: 6 }, {}); // PAC São Paulo → Rio: 6 business days
    expect(row).toMatchObject({
      platformDays: 6,
      promisedLevel: null,
      serviceId: 'correios-pac',
      destUf: 'RJ',
      destArea: 'capital',
      origin: '01310',
      outcome: 'open',
      promisedTo: sold.to,
      promisedBasis: 'platform',
      promisedParcels: 0,
    });

    // A look every 4 hours: the sandbox's carrier sends the parcel out for delivery 5 h before it delivers, so a look
    // always falls between the two and the shopper gets the "saiu para entrega" e-mail (one look seeing both tells
    // only the delivery). Every 6 hours missed it when the delivery's hour was a multiple of 6 after the label's.
    await follow(24 * 21, 4, async () => (await rowOf(label.attemptId))?.outcome === 'delivered');
    const delivered = await rowOf(label.attemptId);
    expect(delivered?.outcome).toBe('delivered');
    expect(delivered?.transitDays).toBeGreaterThanOrEqual(1);
    // Scored against the promise it was sold with (Rio's capital is an early lane for PAC, but the peak season may
    // make it a day late: what matters is the score being the delivery's distance from the promised day).
    expect(delivered?.lateDays).toBe(lateDays(dayOfIso(sold.to), delivered?.endedDay ?? 0));
    const events = eventsOf(receiver.received);
    const moving = events.filter((event) => event.data.status !== 'delivered');
    expect(moving.length).toBeGreaterThan(0);
    for (const event of moving) expect(event.data.promise).toEqual(DeliveryPromiseSchema.parse(sold));
    expect(events.find((event) => event.type === 'shipment.delivered')?.data.promise).toBeUndefined();
    const mail = smtp.received.find((m) => m.subject.includes('saiu para entrega'));
    expect(mail?.text).toMatch(/Previsão de entrega: até \S+ \d{2}\/\d{2}/);
    expect((await bff.backends.transits.scored(0)).map((r) => r.attemptId)).toContain(label.attemptId);
  }, 60_000);

  it('rests on the store’s history once its lane has enough delivered parcels (basis history, parcels counted)', async () => {
    await seedDelivered(bff.backends, {
      name: 'seed',
      cep: '20040-020',
      count: 30,
      transitDays: (i) => 3 + (i % 3),
      now: clocks.now(),
    });
    bff.promises.invalidate();
    const at = clocks.now();
    const promise = await bff.promises.promiseFor({
      destinationCep: '20040-020',
      serviceId: 'correios-pac',
      deliveryDays: 6,
      at,
    });
    expect(promise.basis).toBe('history');
    expect(promise.parcels).toBeGreaterThanOrEqual(30);
    const label = await issueLabel(bff.url, orderLabel('KEPT-2'));
    await bff.notifications.tick();
    expect(await rowOf(label.attemptId)).toMatchObject({
      promisedBasis: 'history',
      promisedTo: promise.to,
      promisedLevel: 'prefix',
    });
  }, 60_000);
});

describe('a label whose platform count cannot be had', () => {
  it('starts its history at a later round, with the promise, rather than without one', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'error502', times: 50 });
    const toBeloHorizonte = orderLabel('LATER-1');
    toBeloHorizonte.recipient = {
      ...toBeloHorizonte.recipient,
      endereco: {
        ...toBeloHorizonte.recipient.endereco,
        cep: '30130-000',
        cidade: 'Belo Horizonte',
        uf: 'MG',
      },
    };
    const label = await issueLabel(bff.url, toBeloHorizonte);
    await bff.notifications.tick();
    expect(await rowOf(label.attemptId)).toBeUndefined();
    await sandbox.control('faults', undefined, 'DELETE');
    await bff.notifications.tick();
    const row = await rowOf(label.attemptId);
    expect(row).toMatchObject({ platformDays: 6, destUf: 'MG' });
    expect(row?.promisedTo).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }, 60_000);
});

describe('a promise about to be broken', () => {
  it('is one event on the promised day’s morning while the parcel is still on the way: a webhook and an e-mail, once', async () => {
    const label = await issueLabel(bff.url, orderLabel('RISK-1'));
    await bff.notifications.tick();
    await follow(30, 6);
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'stall' });
    const row = await rowOf(label.attemptId);
    const promisedDay = dayOfIso(row?.promisedTo ?? '');
    // Up to 09:00 of the promised day (São Paulo): not yet.
    const nine = saoPauloDay(promisedDay * 86_400_000 + 43_200_000).start + 9 * 3_600_000;
    await moveTo(nine);
    const atRiskOf = () =>
      eventsOf(receiver.received).filter(
        (e) => e.type === 'shipment.promise_at_risk' && e.data.trackingCode === label.trackingCode,
      );
    expect(atRiskOf()).toEqual([]);
    await follow(3, 1);
    await follow(24, 6);
    const atRisk = atRiskOf();
    expect(atRisk).toHaveLength(1);
    expect(atRisk[0]?.data).toMatchObject({ orderId: 'RISK-1', promise: { to: row?.promisedTo } });
    const mail = smtp.received.find((m) => m.subject === 'Loja Demo: Seu pedido RISK-1 pode atrasar');
    // The promise in the shopper's words: one date ("até qua., 09/12") or a range ("entre 7 e 9/12").
    expect(mail?.text).toMatch(
      /A previsão era (até \S+ \d{2}\/\d{2}|entre \d+ e \d+\/\d{2}), e o objeto ainda está a caminho/,
    );
    expect((await rowOf(label.attemptId))?.atRiskAt).toBeGreaterThan(0);
  }, 60_000);
});

describe('a parcel returned to the sender', () => {
  it('is an outcome of the history, not a delivery: no transit time learnt, nothing scored, no promise at risk', async () => {
    const label = await issueLabel(bff.url, orderLabel('BACK-1'));
    await bff.notifications.tick();
    await follow(30, 6);
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'returned' });
    await follow(12, 3);
    const row = await rowOf(label.attemptId);
    expect(row).toMatchObject({ outcome: 'returned', transitDays: null, lateDays: null, atRiskAt: null });
    expect(row?.endedDay).toBeGreaterThan(0);
  }, 60_000);
});
