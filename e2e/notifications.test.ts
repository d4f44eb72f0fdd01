import { mkdir, writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from '../bff/notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import {
  type SmtpServer,
  startSmtp,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/receivers.ts';
import { axeOn } from './support/axe.ts';
import { ARTIFACTS, allowConsoleErrors, launchBrowser, screenshot } from './support/browser.ts';

/**
 * What the shopper sees, in Debian's Chromium: the status e-mail as a mail client renders its HTML, the signed link in
 * it opening the order's page, and the tracking page in both colour schemes, on a phone and a desktop, checked by axe
 * (WCAG AA contrast included) in each.
 */
const ADMIN_PASSWORD = 'senha-do-lojista-e2e-avisos';

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
  browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await receiver?.close();
  await smtp?.close();
  await sandbox?.close();
});

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await axeOn(page).analyze();
  expect(
    violations.map((v) => `${state}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await screenshot(page, state);
}

const cards = (page: Page) => page.locator('shipping-tracking .card');

describe('the shopper, in a browser', () => {
  it('reads the status e-mail and opens the order page from its signed link', async () => {
    bff = await startBff(
      sandbox.url,
      {
        BFF_SMTP_URL: smtp.url,
        BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
        BFF_WEBHOOK_URL: receiver.url,
        BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
        BFF_STORE_NAME: 'Loja Demo',
        BFF_STORE_URL: 'https://loja-demo.example',
        BFF_ADMIN_PASSWORD: ADMIN_PASSWORD,
      },
      { now: clocks.now, notifications: { timers: false } },
    );
    const label = await issueLabel(bff.url, orderLabel('PED-1001'));
    await bff.notifications.tick();
    await clocks.advance(30);
    await bff.notifications.tick();
    const [mail] = await smtp.waitFor(1);
    const [webhook] = await receiver.waitFor(1);
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(
      `${ARTIFACTS}webhook-body.json`,
      `${JSON.stringify(JSON.parse(webhook?.body ?? '{}'), null, 2)}\n`,
    );

    const context = await browser.newContext({ viewport: { width: 640, height: 900 }, locale: 'pt-BR' });
    const page = await context.newPage();
    try {
      // The HTML part, as a mail client shows it (no network: the store's logo URL is not reachable here).
      await page.setContent(mail?.html ?? '', { waitUntil: 'domcontentloaded' });
      expect(await page.locator('h1').innerText()).toMatch(
        /^Seu pedido PED-1001 (foi postado|está a caminho)$/,
      );
      await screenshot(page, 'notification-email');
      const href = await page.locator('a', { hasText: 'Acompanhar o pedido' }).getAttribute('href');
      expect(href).toMatch(/\/track\/s\//);

      await page.goto(href ?? '');
      await expect.poll(() => cards(page).count()).toBe(1);
      expect(await page.locator('h1').innerText()).toBe('Pedido PED-1001');
      expect(await cards(page).first().locator('.code').innerText()).toBe(label.trackingCode);
      await expectAccessible(page, 'tracking-signed-link');

      // A link that was tampered with says so, and shows nothing of the order.
      allowConsoleErrors(
        page,
        /status of 404 .*\/track\/s\/.*xyz\)$/,
        'the link is tampered with on purpose: its page answers 404, which the browser logs',
      );
      await page.goto(`${href?.slice(0, -3)}xyz`);
      expect(await page.locator('h1').innerText()).toBe('Link inválido ou expirado');
      expect(await page.content()).not.toContain('PED-1001');
    } finally {
      await context.close();
    }
  }, 60_000);

  // One width a test, its two audits (light and dark) in it (issue 50: never four audits in one test).
  for (const [device, viewport] of [
    ['a phone', { width: 375, height: 900 }],
    ['a desktop', { width: 1280, height: 900 }],
  ] as const) {
    it(`lists the e-mail and the webhook on the desk, accessibly, light and dark, on ${device}`, async () => {
      const context = await browser.newContext({ viewport, locale: 'pt-BR' });
      const page = await context.newPage();
      try {
        await page.goto(`${bff.url}/admin/notifications`);
        await page.getByLabel('Senha do lojista').fill(ADMIN_PASSWORD);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL(`${bff.url}/admin/notifications`);
        expect(await page.locator('main').innerText()).toContain('PED-1001');
        // Nothing wider than the screen, the table included: on a phone each delivery is a card (it scrolled sideways).
        const overflow = await page.evaluate(() => {
          const table = document.querySelector('main table');
          return [document.documentElement, table].map((box) =>
            box ? box.scrollWidth > box.clientWidth : true,
          );
        });
        expect(overflow, `${viewport.width} px: the page, the table`).toEqual([false, false]);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await expectAccessible(page, `desk-notifications-listed-${colorScheme}-${viewport.width}`);
        }
      } finally {
        await context.close();
      }
    }, 60_000);
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const [device, viewport] of [
      ['375', { width: 375, height: 900 }],
      ['desktop', { width: 1280, height: 900 }],
    ] as const) {
      it(`finds an order by number and CEP, flags one bad code without blocking the others (${colorScheme}, ${device})`, async () => {
        const context = await browser.newContext({ colorScheme, viewport, locale: 'pt-BR' });
        const page = await context.newPage();
        try {
          await page.goto(`${bff.url}/track?codes=DG049186226BR,DG049186225BR,JT202600011BR`);
          await expect.poll(() => cards(page).count()).toBe(3);
          expect(await cards(page).nth(1).locator('.badge').innerText()).toBe('Código inválido');
          expect(await cards(page).nth(0).locator('.badge').innerText()).toBe('Entregue');
          expect(await cards(page).nth(2).locator('.badge').innerText()).toBe('Devolvido ao remetente');
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth > window.innerWidth,
          );
          expect(overflow).toBe(false);
          await expectAccessible(page, `tracking-codes-${colorScheme}-${device}`);

          await page.locator('shipping-tracking input').nth(1).fill('PED-1001');
          allowConsoleErrors(
            page,
            /status of 404 .*\/api\/orders\/lookup\)$/,
            'the order is looked up with a wrong CEP on purpose: the lookup answers 404, which the browser logs',
          );
          await page.locator('shipping-tracking input').nth(2).fill('20040-021');
          await page.locator('shipping-tracking button[type=submit]').nth(1).click();
          await expect
            .poll(() => page.locator('shipping-tracking .message').innerText())
            .toContain('Não encontramos um pedido');
          await page.locator('shipping-tracking input').nth(2).fill('20040-020');
          await page.locator('shipping-tracking button[type=submit]').nth(1).click();
          await expect.poll(() => page.locator('shipping-tracking .order-heading').count()).toBe(1);
          expect(await page.locator('shipping-tracking .order-heading').innerText()).toBe('Pedido PED-1001');
          await expect.poll(() => cards(page).count()).toBe(1);
          await expectAccessible(page, `tracking-order-${colorScheme}-${device}`);
        } finally {
          await context.close();
        }
      }, 60_000);
    }
  }

  it('speaks the browser language: English from Accept-Language, Spanish from ?lang=es', async () => {
    const context = await browser.newContext({ locale: 'en-US', colorScheme: 'dark' });
    const page = await context.newPage();
    try {
      await page.goto(`${bff.url}/track?codes=SW371675211BR`);
      expect(await page.locator('h1').innerText()).toBe('Track your order');
      await expect.poll(() => cards(page).count()).toBe(1);
      expect(await cards(page).first().locator('.badge').innerText()).toBe('In transit');
      expect(await page.locator('shipping-tracking button[type=submit]').nth(1).innerText()).toBe(
        'Find order',
      );
      await page.goto(`${bff.url}/track?lang=es&codes=SW371675211BR`);
      expect(await page.locator('h1').innerText()).toBe('Seguir tu pedido');
      await expect.poll(() => cards(page).count()).toBe(1);
      expect(await cards(page).first().locator('.badge').innerText()).toBe('En tránsito');
      await expectAccessible(page, 'tracking-es-dark');
    } finally {
      await context.close();
    }
  }, 30_000);
});
