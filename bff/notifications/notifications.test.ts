import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../testing/receivers.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { Clocks, eventsOf, issueLabel, orderLabel, WEBHOOK_SECRET } from './testing/harness.ts';

/**
 * The shopper and the merchant hear of a parcel's moves: a real BFF, the sandbox's carrier moved by its clock, a real
 * SMTP server (smtp-server, every message parsed as a mail client would) and a webhook receiver that checks each
 * request with the Standard Webhooks reference library.
 */
let sandbox: RunningSandbox;
let smtp: SmtpServer;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;

const ENV = (receiverUrl: string, smtpUrl: string) => ({
  SHIPPING_RATE_LIMIT: '1000/60',
  BFF_SMTP_URL: smtpUrl,
  BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
  BFF_WEBHOOK_URL: receiverUrl,
  BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
  BFF_STORE_NAME: 'Loja Demo',
  BFF_STORE_URL: 'https://loja-demo.example',
  BFF_STORE_LOGO_URL: 'https://loja-demo.example/logo.png',
  BFF_ADMIN_PASSWORD: 'admin-password-for-tests',
});

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 1000, seconds: 60 } });
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
  smtp.received.length = 0;
  smtp.refuse.clear();
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  clocks = new Clocks(sandbox);
  bff = await startBff(sandbox.url, ENV(receiver.url, smtp.url), {
    now: clocks.now,
    random: () => 0.5,
    notifications: { timers: false },
  });
});
afterEach(async () => {
  await bff.stop();
  await receiver.close();
});

/** Moves both clocks `hours` at a time, with a watcher cadence after each step, until `done` or `limit` hours. */
async function follow(hours: number, step: number, until?: () => boolean): Promise<void> {
  for (let moved = 0; moved < hours; moved += step) {
    await clocks.advance(step);
    await bff.notifications.tick();
    if (until?.()) return;
  }
}

describe('the shopper and the merchant hear of every change, once and in order', () => {
  it('e-mails the shopper and signs webhooks from issue to delivery, each event once, in order', async () => {
    const label = await issueLabel(bff.url, orderLabel('PED-1001'));
    // The first look finds a new label without events: its first status, not news.
    expect(await bff.notifications.tick()).toMatchObject({ looked: 1, events: 0 });
    await follow(24 * 21, 3, () => eventsOf(receiver.received).some((e) => e.type === 'shipment.delivered'));

    const events = eventsOf(receiver.received);
    expect(receiver.received.every((webhook) => webhook.answered === 200)).toBe(true);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('shipment.status_changed');
    expect(types.slice(-2)).toEqual(['shipment.out_for_delivery', 'shipment.delivered']);
    expect(events.map((event) => event.data.status)).toEqual(
      expect.arrayContaining(['posted', 'in-transit', 'out-for-delivery', 'delivered']),
    );
    // One event per change: no status twice in a row, every webhook-id once.
    for (let i = 1; i < events.length; i++)
      expect(events[i]?.data.status).not.toBe(events[i - 1]?.data.status);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events.map((event) => event.timestamp)).toEqual([...events.map((e) => e.timestamp)].sort());
    for (const event of events) {
      expect(event.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(event.data).toMatchObject({
        orderId: 'PED-1001',
        volume: 1,
        trackingCode: label.trackingCode,
        prepostagemId: label.prepostagemId,
      });
      expect(event.data.trackingUrl).toMatch(new RegExp(`^${bff.url}/track/s/[\\w-]+\\.[\\w-]{22}$`));
    }

    // The shopper got one e-mail per event, in pt-BR, naming the store and the status, with the code and the link.
    const mails = await smtp.waitFor(events.length);
    expect(mails.map((mail) => mail.to)).toEqual(events.map(() => ['maria@cliente.example']));
    const out = mails.at(-2);
    expect(out?.from).toBe('"Loja Demo" <pedidos@loja-demo.example>');
    expect(out?.subject).toBe('Loja Demo: Seu pedido PED-1001 saiu para entrega');
    expect(out?.text).toContain('Olá, Maria,');
    expect(out?.text).toContain('Chega hoje: tenha alguém no endereço para receber.');
    expect(out?.text).toContain(label.trackingCode);
    expect(out?.html).toContain('Acompanhar o pedido');
    expect(out?.html).toContain('https://loja-demo.example/logo.png');
    expect(mails.at(-1)?.subject).toBe('Loja Demo: Seu pedido PED-1001 foi entregue');

    // The link in the e-mail opens the order's page.
    const link = /(http:\/\/127\.0\.0\.1:\d+\/track\/s\/\S+)/.exec(out?.text ?? '')?.[1];
    expect(link).toBe(events.at(-2)?.data.trackingUrl);
    const page = await fetch(link ?? '');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Pedido PED-1001</h1>');
    expect(html).toContain(`codes="${label.trackingCode}"`);

    // Delivered: the label is no longer watched, so later cadences spend nothing on it.
    const delivered = await bff.notifications.watches.get(label.attemptId ?? '');
    expect(delivered?.done).toBe(true);
    expect(await bff.notifications.tick()).toMatchObject({ looked: 0, events: 0 });
  }, 60_000);

  it('reports a stall once, as the merchant hears it, and not to the shopper by default', async () => {
    const label = await issueLabel(bff.url, orderLabel('PED-2002'));
    await bff.notifications.tick();
    await follow(30, 6);
    const before = receiver.received.length;
    expect(before).toBeGreaterThan(0);
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'stall' });
    const mailsBefore = smtp.received.length;
    await follow(24 * 14, 12);
    const after = eventsOf(receiver.received.slice(before));
    expect(after.map((event) => event.type)).toEqual(['shipment.stalled']);
    expect(after[0]?.data.status).toMatch(/posted|in-transit/);
    expect(after[0]?.data.lastEvent).toBeDefined();
    expect(smtp.received.length).toBe(mailsBefore);
  }, 60_000);

  it('tells the shopper in Spanish that the parcel waits at the post office, then that it went back', async () => {
    const label = await issueLabel(bff.url, orderLabel('PED-3003', { locale: 'es' }));
    await bff.notifications.tick();
    await follow(30, 6);
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'awaiting_pickup' });
    await follow(3, 3);
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'returned' });
    await follow(3, 3);
    const types = eventsOf(receiver.received).map((event) => event.type);
    expect(types.slice(-2)).toEqual(['shipment.awaiting_pickup', 'shipment.returned']);
    const mails = await smtp.waitFor(types.length);
    const pickup = mails.at(-2);
    expect(pickup?.subject).toBe('Loja Demo: Tu pedido PED-3003 espera retiro');
    // The last day to pick it up: 7 days after the carrier's "awaiting pickup" event (shared/pickup.ts).
    expect(pickup?.text).toMatch(
      /Retíralo en Unidade de Distribuição - Rio de Janeiro\/RJ hasta el \S+ \d{2}\/\d{2} con un documento con foto/,
    );
    expect(pickup?.text).toMatch(/\/track\/s\/\S+\?lang=es/);
    expect(mails.at(-1)?.subject).toBe('Loja Demo: Tu pedido PED-3003 volvió a la tienda');
    expect((await bff.notifications.watches.get(label.attemptId ?? ''))?.done).toBe(true);
  }, 60_000);
});

describe('deliveries that fail', () => {
  it('retries a webhook with backoff and the same webhook-id until the endpoint takes it', async () => {
    receiver.answer = (n) => (n < 2 ? 503 : 200);
    await issueLabel(bff.url, orderLabel('PED-4004'));
    await bff.notifications.tick();
    await follow(30, 30);
    expect(receiver.received).toHaveLength(1);
    const [log] = await bff.notifications.outbox.list({ state: 'retrying' });
    expect(log).toMatchObject({ channel: 'webhook', tries: 1, lastError: 'the endpoint answered HTTP 503' });
    // Not before its backoff (30 s, half of it jittered: 22.5 s with random 0.5)…
    clocks.offsetMs += 20_000;
    await bff.notifications.dispatcher.drain();
    expect(receiver.received).toHaveLength(1);
    // …and again after it, doubling.
    clocks.offsetMs += 5_000;
    await bff.notifications.dispatcher.drain();
    clocks.offsetMs += 60_000;
    await bff.notifications.dispatcher.drain();
    expect(receiver.received.map((webhook) => webhook.answered)).toEqual([503, 503, 200]);
    expect(new Set(receiver.received.map((webhook) => webhook.id)).size).toBe(1);
    expect(new Set(receiver.received.map((webhook) => webhook.body)).size).toBe(1);
    expect(await bff.notifications.outbox.get(log?.id ?? '')).toMatchObject({ state: 'sent', tries: 3 });
  }, 30_000);

  it('gives up after 24 h, and "send again" from the desk delivers the same event', async () => {
    receiver.answer = () => 500;
    await issueLabel(bff.url, orderLabel('PED-5005'));
    await bff.notifications.tick();
    await follow(30, 30);
    for (let hour = 0; hour < 26; hour++) {
      clocks.offsetMs += 3_600_000;
      await bff.notifications.dispatcher.drain();
    }
    const [failed] = await bff.notifications.outbox.list({ state: 'failed' });
    expect(failed?.channel).toBe('webhook');
    expect(failed?.tries).toBeGreaterThan(8);
    const tried = receiver.received.length;
    clocks.offsetMs += 3_600_000 * 5;
    await bff.notifications.dispatcher.drain();
    expect(receiver.received).toHaveLength(tried);

    receiver.answer = () => 200;
    await bff.notifications.outbox.resend(failed?.id ?? '', clocks.now());
    await bff.notifications.dispatcher.drain();
    expect(receiver.received.at(-1)).toMatchObject({ id: failed?.eventId, answered: 200 });
    expect((await bff.notifications.outbox.get(failed?.id ?? ''))?.state).toBe('sent');
  }, 30_000);

  it('fails an e-mail at once when the mail server refuses the address for good, the webhook unaffected', async () => {
    smtp.refuse.add('maria@cliente.example');
    await issueLabel(bff.url, orderLabel('PED-6006'));
    await bff.notifications.tick();
    await follow(30, 30);
    const log = await bff.notifications.outbox.list();
    expect(log.find((d) => d.channel === 'email')).toMatchObject({
      state: 'failed',
      tries: 1,
      lastError: 'the mail server answered 550 to RCPT TO',
    });
    expect(log.find((d) => d.channel === 'webhook')?.state).toBe('sent');
  }, 30_000);
});
