import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { axeOn } from './support/axe.ts';
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
/** The tracking-code field (the element's first form; the second looks an order up). */
const codeInput = () => page.locator('shipping-tracking input').first();

async function expectAccessible(state: string): Promise<void> {
  const { violations } = await axeOn(page).analyze();
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
    expect(await card.locator('.next').innerText()).toBe('Não recebeu? Fale com a loja.');
    expect(await card.locator('.event').count()).toBeGreaterThan(3);
    // the carrier's clock reading, "20/11/2026 às 01:34": the same digits, no conversion to the browser's zone
    const [, y, mo, d, h, mi] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(firstTimestamp) ?? [];
    expect(await card.locator('.event-time').first().innerText()).toBe(`${d}/${mo}/${y} às ${h}:${mi}`);
    // carrier codes only in the details view, folded away
    expect(await card.locator('.timeline').innerText()).not.toMatch(/\b(BDE|RO|PO|OEC)\b/);
    expect(await card.locator('details').getAttribute('open')).toBeNull();
    expect(await card.locator('details li').first().isVisible()).toBe(false);
    await card.locator('details summary').click();
    expect(await card.locator('details li').first().innerText()).toContain('BDE/01');
    await expectAccessible('delivered');
  });

  it('shows an object in transit as not delivered, with origin → destination', async () => {
    await page.goto(`${bff.url}/track?codes=SW371675211BR`);
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().locator('.badge').innerText()).toBe('Em trânsito');
    expect(await cards().first().locator('.next').innerText()).toContain('a caminho');
    expect(await cards().first().innerText()).toContain('→');
    await expectAccessible('in-transit');
  });

  it('shows "no events yet" for a found object without events, never delivered', async () => {
    await page.goto(`${bff.url}/track?codes=QB123456785BR`);
    await expect.poll(() => cards().count()).toBe(1);
    const text = await cards().first().innerText();
    expect(await cards().first().locator('.badge').innerText()).toBe('Aguardando postagem');
    expect(text).toContain('ainda não foi postado');
    expect(text).not.toContain('Entregue');
    await expectAccessible('no-events');
  });

  it('shows a not-found message for an unknown code', async () => {
    await page.goto(`${bff.url}/track`);
    await codeInput().fill('AA000000005BR');
    await codeInput().press('Enter');
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().locator('.badge').innerText()).toBe('Não encontrado');
    expect(await cards().first().innerText()).toContain('Confira o código');
    await expectAccessible('not-found');
  });

  it('shows a parcel returned to the sender as returned, with what to do, never "in progress"', async () => {
    await page.goto(`${bff.url}/track?codes=JT202600011BR`);
    await expect.poll(() => cards().count()).toBe(1);
    const card = cards().first();
    expect(await card.locator('.badge').innerText()).toBe('Devolvido ao remetente');
    expect(await card.locator('.headline').innerText()).toBe('Objeto devolvido ao remetente');
    expect(await card.locator('.next').innerText()).toContain('voltou para a loja');
    // the history tells the whole story: absent recipient, awaiting pickup, returned
    const timeline = await card.locator('.timeline').innerText();
    expect(timeline).toContain('Carteiro não atendido');
    expect(timeline).toContain('aguardando retirada');
    await expectAccessible('returned');
  });

  it('speaks English with lang="en"', async () => {
    await page.goto(`${bff.url}/track`);
    await page.locator('shipping-tracking').evaluate((el) => el.setAttribute('lang', 'en'));
    await codeInput().fill('JT202600011BR');
    await codeInput().press('Enter');
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().locator('.badge').innerText()).toBe('Returned to sender');
    expect(await cards().first().locator('.event-time').first().innerText()).toMatch(
      /^\d{4}-\d\d-\d\d at \d\d:\d\d$/,
    );
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
    await codeInput().fill('DG049186225BR');
    await page.locator('shipping-tracking button[type=submit]').first().click();
    await expect
      .poll(() => page.locator('shipping-tracking .field-error').first().innerText())
      .toContain('Código inválido');
    expect(await codeInput().getAttribute('aria-invalid')).toBe('true');
    expect(requests).toBe(0);
    const after = (
      (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
        stores: Record<string, Record<string, number>>;
      }
    ).stores['loja-demo']?.['POST /v1/tracking'];
    expect(after).toBe(before);
    await expectAccessible('invalid');
  });

  it('flags the order form’s empty fields, then a CEP that is not 8 digits, and asks nothing', async () => {
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/orders/lookup')) requests += 1;
    });
    await page.goto(`${bff.url}/track`);
    const order = page.locator('shipping-tracking [part~="order-input"]');
    const cep = page.locator('shipping-tracking [part~="cep-input"]');
    const submit = page.locator('shipping-tracking [part~="order-button"]');
    const error = page.locator('shipping-tracking [part="error"]').nth(1);
    const flagged = async () => [
      await order.getAttribute('aria-invalid'),
      await cep.getAttribute('aria-invalid'),
    ];
    await submit.click();
    await expect.poll(() => error.innerText()).toBe('Digite o número do pedido e o CEP de entrega.');
    expect(await flagged()).toEqual(['true', 'true']);
    // the field still empty is the one flagged
    await order.fill('PED-1001');
    await submit.click();
    await expect.poll(() => error.innerText()).toBe('Digite o número do pedido e o CEP de entrega.');
    expect(await flagged()).toEqual(['false', 'true']);
    await cep.fill('2004');
    await submit.click();
    await expect.poll(() => error.innerText()).toBe('O CEP tem 8 dígitos (ex.: 01310-100).');
    expect(await flagged()).toEqual(['false', 'true']);
    expect(await cep.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(requests).toBe(0);
    await expectAccessible('order-form-errors');
  });

  it('shows several codes at once, on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${bff.url}/track?codes=DG049186226BR,SW371675211BR,QB123456785BR,JT202600011BR`);
    await expect.poll(() => cards().count()).toBe(4);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectAccessible('mobile');
  });

  it('carries the store name, logo and link back on a branded BFF, with a favicon and no console error', async () => {
    // The demo's name and link back, as `npm start` sets them (its screenshot is the README's docs/tracking.png);
    // the logo from another origin, to check the page's CSP lets it in.
    const branded = await startBff(sandbox.url, {
      BFF_STORE_NAME: 'Loja Demo',
      BFF_STORE_URL: `${bff.url}/demo/`,
      BFF_STORE_LOGO_URL: `${bff.url}/favicon.svg`,
    });
    try {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('response', (response) => {
        if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${branded.url}/track?codes=DG049186226BR`);
      await expect.poll(() => cards().count()).toBe(1);
      expect(await page.title()).toBe('Rastrear pedido — Loja Demo');
      expect(await page.locator('.store-name').innerText()).toBe('Loja Demo');
      // (the configuration drops a URL's trailing slash; /demo answers with a redirect to /demo/)
      expect(await page.locator('.store-back').getAttribute('href')).toBe(`${bff.url}/demo`);
      // the logo (another origin) loaded under the page's CSP
      await expect
        .poll(() => page.locator('.store-logo').evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const favicon = await page.evaluate(() =>
        document.querySelector('link[rel=icon]')?.getAttribute('href'),
      );
      expect((await page.request.get(`${branded.url}${favicon}`)).status()).toBe(200);
      expect(errors).toEqual([]);
      await expectAccessible('branded');
    } finally {
      await branded.stop();
    }
  });
});
