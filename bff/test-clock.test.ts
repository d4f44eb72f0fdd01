import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/receivers.ts';
import { createBff } from './app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { eventsOf, issueLabel, orderLabel, WEBHOOK_SECRET } from './notifications/testing/harness.ts';
import { SandboxClock } from './sandbox-clock.ts';
import { type RunningBff, startBff } from './testing.ts';

/**
 * One clock for tests and demos: a BFF started with `BFF_TEST_CLOCK=sandbox` follows the sandbox's carrier clock, its
 * timers on as in production (a round every 250 ms here), so what takes business days — a stall, the 7 days a parcel
 * waits for pickup — happens in seconds when the sandbox's clock runs at two days a second.
 */
const TWO_DAYS_A_SECOND = 2 * 86_400;
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let smtp: SmtpServer;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 10_000, seconds: 60 } });
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  smtp = await startSmtp();
  // A round every 250 ms: at two days a second, a look each half day, so the two days of the pickup reminder's window
  // are always looked at (the default 2 s would be four days a look at this speed).
  bff = await startBff(
    sandbox.url,
    {
      BFF_TEST_CLOCK: 'sandbox',
      SHIPPING_RATE_LIMIT: '10000/60',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BFF_SMTP_URL: smtp.url,
      BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
      BFF_MAIL_EVENTS: 'shipment.awaiting_pickup,shipment.pickup_reminder',
    },
    { notifications: { cadenceMs: 250 } },
  );
});
afterAll(async () => {
  await bff?.stop();
  await smtp?.close();
  await receiver?.close();
  await sandbox?.close();
});

/** The sandbox's clock stopped, moved `hours`, the BFF told at once (its poll would within 250 ms). */
async function stopAndMove(hours: number): Promise<void> {
  await sandbox.control('clock', { speed: 0 });
  await sandbox.control('advance', { hours });
  await bff.sandboxClock?.poll();
}
const typesOf = (code: string) =>
  eventsOf(receiver.received)
    .filter((event) => event.data.trackingCode === code)
    .map((event) => event.type);

describe('BFF_TEST_CLOCK=sandbox', () => {
  it('follows the sandbox’s clock, never going back', async () => {
    await stopAndMove(48);
    const sandboxNow = ((await (await sandbox.control('clock', undefined, 'GET')).json()) as { now: number })
      .now;
    expect(bff.sandboxClock?.now()).toBe(sandboxNow);
    expect(sandboxNow - Date.now()).toBeGreaterThan(47 * 3_600_000);
  });

  it('sees a parcel stall in seconds: shipment.stalled after three business days of the sandbox’s time', async () => {
    const label = await issueLabel(bff.url, orderLabel('CLOCK-1'));
    await stopAndMove(30);
    await expect
      .poll(() => typesOf(label.trackingCode), { timeout: 10_000 })
      .toContain('shipment.status_changed');
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'stall' });
    const started = Date.now();
    await sandbox.control('clock', { speed: TWO_DAYS_A_SECOND });
    await expect.poll(() => typesOf(label.trackingCode), { timeout: 15_000 }).toContain('shipment.stalled');
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('counts down the 7 days a parcel waits for pickup in seconds: the notice with its last day, a reminder, the return', async () => {
    const label = await issueLabel(bff.url, orderLabel('CLOCK-2'));
    await stopAndMove(30);
    await expect
      .poll(() => typesOf(label.trackingCode), { timeout: 10_000 })
      .toContain('shipment.status_changed');
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'awaiting_pickup' });
    const started = Date.now();
    await sandbox.control('clock', { speed: TWO_DAYS_A_SECOND });
    await expect
      .poll(() => typesOf(label.trackingCode), { timeout: 20_000 })
      .toEqual(
        expect.arrayContaining(['shipment.awaiting_pickup', 'shipment.pickup_reminder', 'shipment.returned']),
      );
    expect(Date.now() - started).toBeLessThan(20_000);
    const events = eventsOf(receiver.received).filter(
      (event) => event.data.trackingCode === label.trackingCode,
    );
    const notice = events.find((event) => event.type === 'shipment.awaiting_pickup');
    const reminder = events.find((event) => event.type === 'shipment.pickup_reminder');
    expect(notice?.data.pickupBy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(reminder?.data.pickupBy).toBe(notice?.data.pickupBy);
    const order = events.map((event) => event.type);
    expect(order.indexOf('shipment.pickup_reminder')).toBeLessThan(order.indexOf('shipment.returned'));
    const mails = await smtp.waitFor(2);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Seu pedido CLOCK-2 aguarda retirada',
      'Retire seu pedido CLOCK-2: faltam poucos dias',
    ]);
    // Waiting at a unit, its last day to pick it up matters, not the delivery promise.
    expect(mails.map((mail) => mail.text).join('\n')).not.toContain('Previsão de entrega');
    expect(mails[1]?.text).toMatch(
      /Retire em Unidade de Distribuição - Rio de Janeiro\/RJ até \S+ \d{2}\/\d{2}/,
    );
  }, 40_000);
});

describe('without the test clock', () => {
  it('keeps its own clock: the sandbox’s days pass, its cadence sees the moves, and no stall is seen', async () => {
    let offset = 0;
    const own = await startBff(
      sandbox.url,
      { SHIPPING_RATE_LIMIT: '10000/60', BFF_WEBHOOK_URL: receiver.url, BFF_WEBHOOK_SECRET: WEBHOOK_SECRET },
      { now: () => Date.now() + offset, notifications: { timers: false } },
    );
    // One cadence (300 s) of the BFF's own clock between two looks, whatever the sandbox's clock does.
    const cadence = async () => {
      offset += 301_000;
      await own.notifications.tick();
    };
    try {
      expect(own.sandboxClock).toBeUndefined();
      const label = await issueLabel(own.url, orderLabel('OWN-1'));
      await own.notifications.tick();
      await stopAndMove(30);
      await cadence();
      await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'stall' });
      await stopAndMove(24 * 10);
      await cadence();
      await cadence();
      await expect.poll(() => typesOf(label.trackingCode)).toContain('shipment.status_changed');
      expect(typesOf(label.trackingCode)).not.toContain('shipment.stalled');
    } finally {
      await own.stop();
    }
  });

  it('is refused when the platform cannot tell the sandbox’s time, and a BFF cannot be built with it unconnected', async () => {
    await expect(SandboxClock.connect(bff.url)).rejects.toThrow(
      /^BFF_TEST_CLOCK=sandbox: http:\/\/127\.0\.0\.1:\d+\/_sandbox\/clock did not tell the time \(HTTP 404\)/,
    );
    await expect(SandboxClock.connect('http://127.0.0.1:9')).rejects.toThrow(/did not tell the time/);
    const config = parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_demo', BFF_TEST_CLOCK: 'sandbox' });
    expect(() => createBff({ config, backends: bff.backends })).toThrow(ConfigError);
  });
});
