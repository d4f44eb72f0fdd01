import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 800, height: 1000 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

const cards = () => page.locator('shipping-tracking .card');

async function expectAccessible(state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${state}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await screenshot(page, `tracking-${state}`);
}

describe('the tracking page (/track)', () => {
  it('prefills ?codes= and shows a delivered object with its badge and timeline, timestamps as given', async () => {
    const api = (await (await bff.track(['DG049186226BR'])).json()) as {
      results: { events: { timestamp: string }[] }[];
    };
    const firstTimestamp = api.results[0]?.events[0]?.timestamp ?? '';
    await page.goto(`${bff.url}/track?codes=DG049186226BR`);
    await expect.poll(() => cards().count()).toBe(1);
    const card = cards().first();
    expect(await card.locator('.badge').innerText()).toBe('Entregue');
    expect(await card.locator('.headline').innerText()).toContain('entregue');
    expect(await card.locator('.event').count()).toBeGreaterThan(3);
    // exactly as given: the same wall-clock digits, no conversion to the browser's zone
    expect(await card.locator('.event-time').first().innerText()).toBe(firstTimestamp.replace('T', ' '));
    await expectAccessible('delivered');
  });

  it('shows an object in transit as not delivered, with origin → destination', async () => {
    await page.goto(`${bff.url}/track?codes=SW371675211BR`);
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().locator('.badge').innerText()).toBe('Em andamento');
    expect(await cards().first().innerText()).toContain('→');
    await expectAccessible('in-transit');
  });

  it('shows "no events yet" for a found object without events, never delivered', async () => {
    await page.goto(`${bff.url}/track?codes=QB123456785BR`);
    await expect.poll(() => cards().count()).toBe(1);
    const text = await cards().first().innerText();
    expect(text).toContain('Ainda sem movimentação');
    expect(text).not.toContain('Entregue');
    await expectAccessible('no-events');
  });

  it('shows a not-found message for an unknown code', async () => {
    await page.goto(`${bff.url}/track`);
    await page.locator('shipping-tracking input').fill('AA000000005BR');
    await page.locator('shipping-tracking input').press('Enter');
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().innerText()).toContain('não encontrado');
    await expectAccessible('not-found');
  });

  it('flags an invalid code (bad check digit) before any request', async () => {
    const before = (
      (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
        stores: Record<string, Record<string, number>>;
      }
    ).stores['loja-demo']?.['POST /v1/tracking'];
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/tracking')) requests += 1;
    });
    await page.goto(`${bff.url}/track`);
    await page.locator('shipping-tracking input').fill('DG049186225BR');
    await page.locator('shipping-tracking button[type=submit]').click();
    await expect
      .poll(() => page.locator('shipping-tracking .field-error').innerText())
      .toContain('Código inválido');
    expect(await page.locator('shipping-tracking input').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toBe(0);
    const after = (
      (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
        stores: Record<string, Record<string, number>>;
      }
    ).stores['loja-demo']?.['POST /v1/tracking'];
    expect(after).toBe(before);
    await expectAccessible('invalid');
  });

  it('shows several codes at once, on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${bff.url}/track?codes=DG049186226BR,SW371675211BR,QB123456785BR,JT202600011BR`);
    await expect.poll(() => cards().count()).toBe(4);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectAccessible('mobile');
  });
});
