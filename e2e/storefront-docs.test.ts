import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRITY_FILE, IntegrityManifestSchema } from '../bff/static/integrity.ts';
import { WIDGET_DIR } from '../bff/static/widget.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { launchBrowser } from './support/browser.ts';

/**
 * docs/storefronts.md, "A plain HTML store": the page exactly as the docs show it (only the placeholders replaced
 * by this test's BFF, sandbox, key and hash), served from another origin than the BFF, driven in Chromium.
 */
const DOC = readFileSync(new URL('../docs/storefronts.md', import.meta.url), 'utf8');
const PAGE = /<!-- tested: plain-html -->\n```html\n([\s\S]*?)\n```/.exec(DOC)?.[1] ?? '';

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let page: Page;
let html = '';
const store = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
});

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url);
  browser = await launchBrowser();
  await new Promise<void>((resolve) => store.listen(0, 'localhost', resolve));
  const manifest = IntegrityManifestSchema.parse(
    JSON.parse(readFileSync(join(WIDGET_DIR, INTEGRITY_FILE), 'utf8')),
  );
  html = PAGE.replaceAll('https://frete.your-store.example', bff.url)
    .replaceAll('https://api.platform.example', sandbox.url)
    .replaceAll('pk_live_…', 'pk_test_demo')
    .replaceAll('sha384-CALCULATOR', manifest['shipping-widget.js'] ?? '');
  page = await browser.newPage();
  await page.goto(`http://localhost:${(store.address() as AddressInfo).port}/carrinho`);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
  store.closeAllConnections();
  await new Promise((resolve) => store.close(resolve));
});

const items = () =>
  page.evaluate(() => (document.querySelector('shipping-calculator') as unknown as { items: unknown }).items);
const form = () =>
  page.evaluate(() => {
    const checkout = document.getElementById('checkout') as HTMLFormElement;
    return {
      cep: (checkout.elements.namedItem('shipping_cep') as HTMLInputElement).value,
      service: (checkout.elements.namedItem('shipping_service') as HTMLInputElement).value,
      disabled: (checkout.querySelector('button') as HTMLButtonElement).disabled,
      summary: document.getElementById('shipping-summary')?.textContent ?? '',
    };
  });

describe('docs/storefronts.md: the plain HTML store', () => {
  it('is in the docs with every placeholder this test replaces', () => {
    expect(PAGE).toContain('<shipping-calculator></shipping-calculator>');
    for (const placeholder of [
      'https://frete.your-store.example',
      'https://api.platform.example',
      'pk_live_…',
    ])
      expect(PAGE).toContain(placeholder);
    expect(PAGE).toContain('integrity="sha384-CALCULATOR" crossorigin="anonymous"');
  });

  it('hands the cart lines the page shows to the calculator, and follows a change of the cart', async () => {
    await page.waitForFunction(() => customElements.get('shipping-calculator'), undefined, {
      timeout: 30_000,
    });
    await expect.poll(items, { timeout: 10_000 }).toEqual([
      { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 },
      { name: 'Caneca', quantity: 1, unitPriceBRL: 39.9, weightKg: 0.5 },
    ]);
    await page.evaluate(() => {
      document.querySelector('[data-name="Caneca"]')?.setAttribute('data-quantity', '3');
    });
    await expect.poll(async () => ((await items()) as { quantity: number }[])[1]?.quantity).toBe(3);
  }, 60_000);

  it('fills the checkout with the chosen service, not a price, and enables it', async () => {
    expect(await form()).toMatchObject({ service: '', disabled: true });
    const cep = page.locator('shipping-calculator input[autocomplete="postal-code"]');
    await cep.fill('20040-020');
    await cep.press('Enter');
    const options = page.locator('shipping-calculator .option');
    await expect.poll(() => options.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await options.first().click();
    await expect
      .poll(async () => (await form()).service, { timeout: 10_000 })
      .toMatch(/^correios-(pac|sedex)$/);
    const filled = await form();
    expect(filled.cep.replace(/\D/g, '')).toBe('20040020');
    expect(filled.disabled).toBe(false);
    expect(filled.summary).toMatch(/(R\$\s?[\d.,]+|grátis), até \d+ dias úteis$/);
    expect(await page.evaluate(() => document.querySelector('form')?.innerHTML ?? '')).not.toMatch(/price/);
  }, 60_000);

  it('empties and disables the checkout when the widget clears the choice (rate: null on a CEP with no quote)', async () => {
    expect((await form()).disabled).toBe(false);
    const cep = page.locator('shipping-calculator input[autocomplete="postal-code"]');
    await cep.fill('00000-100');
    await cep.press('Enter');
    await expect
      .poll(form, { timeout: 30_000 })
      .toEqual({ cep: '', service: '', disabled: true, summary: 'Escolha o frete acima.' });
  }, 60_000);
});
