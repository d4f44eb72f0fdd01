import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  nuvemshopBody,
  nuvemshopItem,
  postNuvemshop,
  postShopify,
  shopifyBody,
  shopifyItem,
  TEST_NUVEMSHOP_SECRET,
  TEST_SHOPIFY_SECRET,
} from '../bff/checkout/testing.ts';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from '../bff/notifications/testing/harness.ts';
import { seedDelivered } from '../bff/promise/testing/seed.ts';
import { RateVerifyResponseSchema } from '../bff/rates/verify.ts';
import { type RunningBff, startBff, TEST_AGENTS } from '../bff/testing.ts';
import { McpClients } from '../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { AcpFulfillmentOptionsSchema, UcpFulfillmentOptionsSchema } from '../shared/checkouts/agentic.ts';
import { NuvemshopRatesAnswerSchema } from '../shared/checkouts/nuvemshop.ts';
import { ShopifyRatesAnswerSchema } from '../shared/checkouts/shopify.ts';
import { DeliveryPromiseSchema } from '../shared/delivery-promise.ts';
import { PromisesResponseSchema } from '../shared/promise-lookup.ts';
import { arrivalText, promiseDates, shortDate, weekdayDate } from '../shared/promise-text.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/receivers.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * The same promise wherever the kit shows a date, read side by side for one cart and CEP (PAC to Rio de Janeiro, a
 * lane with history): the calculator in Chromium (its `promises-url`), the BFF's `POST /api/promises`, the promise
 * the label records, the tracking page's "Previsão de entrega", the shopper's e-mail and the merchant's webhook, and
 * the quote core's surfaces: `/api/rates/verify`, MCP `get_shipping_rates`, the Shopify and Nuvemshop callbacks and
 * the ACP and UCP options.
 */
const CHECKOUT = 'promise-checkout-token-0001';
const clients = new McpClients();
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
      BFF_CHECKOUT_TOKENS: CHECKOUT,
      BFF_SHOPIFY_SECRET: TEST_SHOPIFY_SECRET,
      BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
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
  await clients.closeAll();
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

  it('gives the same dates through the quote core: verify, MCP, Shopify, Nuvemshop, ACP and UCP', async () => {
    const cep = '20040-020';
    const items = [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }];
    const asked = await fetch(`${bff.url}/api/promises`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cep, rates: [{ serviceId: 'correios-pac', deliveryDays: 6 }] }),
    });
    const promise = PromisesResponseSchema.parse(await asked.json()).promises[0]?.promise;
    expect(promise).toMatchObject({ basis: 'history' });
    const checkout = { authorization: `Bearer ${CHECKOUT}`, 'content-type': 'application/json' };
    const verified = RateVerifyResponseSchema.parse(
      await (
        await fetch(`${bff.url}/api/rates/verify`, {
          method: 'POST',
          headers: checkout,
          body: JSON.stringify({ cep, items, serviceId: 'correios-pac' }),
        })
      ).json(),
    );
    const client = await clients.connect(`${bff.url}/mcp`, TEST_AGENTS[0]?.token ?? '');
    const called = await clients.call(client, 'get_shipping_rates', { destinationCep: cep, items });
    const mcp = z
      .object({ rates: z.array(z.object({ serviceId: z.string(), promise: DeliveryPromiseSchema })) })
      .parse(called.structuredContent);
    const mcpText = called.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    const shopify = ShopifyRatesAnswerSchema.parse(
      await (
        await postShopify(
          bff.url,
          shopifyBody(
            cep,
            items.map((i) => shopifyItem(i)),
          ),
        )
      ).json(),
    ).rates.find((rate) => rate.service_code === 'correios-pac');
    const nuvemshop = NuvemshopRatesAnswerSchema.parse(
      await (
        await postNuvemshop(
          bff.url,
          nuvemshopBody(
            '20040020',
            items.map((i) => nuvemshopItem(i)),
            true,
          ),
        )
      ).json(),
    ).rates.find((rate) => rate.code === 'correios-pac');
    const options = async (protocol: string) =>
      (
        await fetch(`${bff.url}/checkout/fulfillment-options`, {
          method: 'POST',
          headers: checkout,
          body: JSON.stringify({ protocol, items, address: { postal_code: cep } }),
        })
      ).json();
    const acp = AcpFulfillmentOptionsSchema.parse(await options('acp')).fulfillment_options.find(
      (option) => option.id === 'correios-pac',
    );
    const ucp = UcpFulfillmentOptionsSchema.parse(await options('ucp')).options.find(
      (option) => option.id === 'correios-pac',
    );
    const day = (text: string | null | undefined) => text?.slice(0, 10);
    expect({
      verify: verified.available ? verified.rate.promise : undefined,
      mcp: mcp.rates.find((rate) => rate.serviceId === 'correios-pac')?.promise,
      shopify: [day(shopify?.min_delivery_date), day(shopify?.max_delivery_date)],
      nuvemshop: [day(nuvemshop?.min_delivery_date), day(nuvemshop?.max_delivery_date)],
      acp: [day(acp?.earliest_delivery_time), day(acp?.latest_delivery_time)],
      ucp: [day(ucp?.earliest_fulfillment_time), day(ucp?.latest_fulfillment_time)],
    }).toEqual({
      verify: promise,
      mcp: promise,
      shopify: [promise?.from, promise?.to],
      nuvemshop: [promise?.from, promise?.to],
      acp: [promise?.from, promise?.to],
      ucp: [promise?.from, promise?.to],
    });
    // The same words: the calculator's (shared/promise-text.ts) in Shopify's description and, in English, in the
    // agent's text.
    if (!promise) throw new Error('no promise');
    expect(shopify?.description?.startsWith(arrivalText(promise, 'pt-BR'))).toBe(true);
    expect(mcpText).toContain(`arrives ${promiseDates(promise, 'en', weekdayDate)} (São Paulo dates)`);
  });
});
