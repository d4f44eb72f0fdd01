import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from '../bff/notifications/testing/harness.ts';
import { seedDelivered } from '../bff/promise/testing/seed.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { PromisesResponseSchema } from '../shared/promise-lookup.ts';
import { promiseDates, shortDate, weekdayDate } from '../shared/promise-text.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/servers.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * The same promise wherever the kit shows a date, read side by side for one cart and CEP (PAC to Rio de Janeiro, a
 * lane with history): the calculator in Chromium (its `promises-url`), the BFF's `POST /api/promises`, the promise
 * the label records, the tracking page's "Previsão de entrega", the shopper's e-mail and the merchant's webhook. The
 * quote core's surfaces (checkout adapters, `get_shipping_rates`) read the same `promiseFor` once wired.
 */
let sandbox: RunningSandbox;
let smtp: SmtpServer;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  smtp = await startSmtp();
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    {
      BFF_SMTP_URL: smtp.url,
      BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BFF_STORE_NAME: 'Loja Demo',
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { now: clocks.now, notifications: { timers: false } },
  );
  // Forty delivered parcels on the lane: four to six business days where the platform quotes six.
  await seedDelivered(bff.backends, {
    name: 'history',
    cep: '20040-020',
    count: 40,
    transitDays: (i) => 4 + (i % 3),
    now: clocks.now(),
  });
  browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await receiver?.close();
  await smtp?.close();
  await sandbox?.close();
});

describe('one promise, every surface', () => {
  it('shows the same dates in the calculator, the API, the label, the tracking page, the e-mail and the webhook', async () => {
    const answer = await fetch(`${bff.url}/api/promises`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cep: '20040-020', rates: [{ serviceId: 'correios-pac', deliveryDays: 6 }] }),
    });
    const promise = PromisesResponseSchema.parse(await answer.json()).promises[0]?.promise;
    expect(promise).toMatchObject({ basis: 'history', parcels: 40 });
    if (!promise) throw new Error('no promise');

    // The calculator on the demo product page: it quotes the platform, then asks the BFF (data-promises-url).
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${bff.url}/demo/product.html`);
    const input = page.locator('shipping-calculator input').first();
    await input.fill('20040-020');
    await input.press('Enter');
    const pac = page.locator('shipping-calculator label.option', { hasText: 'PAC' });
    await expect
      .poll(() => pac.locator('[part="option-arrival"]').textContent())
      .toBe(`Chega ${promiseDates(promise, 'pt-BR', weekdayDate)}`);
    expect(await pac.locator('[part="option-arrival"]').getAttribute('data-basis')).toBe('history');
    await screenshot(page, 'promise-calculator-375');

    // The label records the promise it is sold with: the same dates.
    const label = await issueLabel(
      bff.url,
      orderLabel('SAME-1', { serviceCode: undefined, serviceId: 'correios-pac' }),
    );
    await bff.notifications.tick();
    const row = (await bff.backends.transits.of([label.attemptId ?? ''])).get(label.attemptId ?? '');
    expect({ from: row?.promisedFrom, to: row?.promisedTo, basis: row?.promisedBasis }).toEqual({
      from: promise.from,
      to: promise.to,
      basis: 'history',
    });

    // The tracking page.
    await page.goto(`${bff.url}/track?codes=${label.trackingCode}`);
    await expect
      .poll(() => page.locator('shipping-tracking [part="promise"]').textContent())
      .toBe(`Previsão de entrega: ${promiseDates(promise, 'pt-BR', shortDate)}`);
    await screenshot(page, 'promise-tracking-375');
    await context.close();

    // The e-mail and the webhook of its posting.
    await clocks.advance(30);
    await bff.notifications.tick();
    const [mail] = await smtp.waitFor(1);
    expect(mail?.text).toContain(`Previsão de entrega: ${promiseDates(promise, 'pt-BR', weekdayDate)}`);
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body ?? '{}').data.promise).toEqual({ ...promise });
  }, 60_000);
});
