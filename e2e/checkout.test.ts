import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCheckoutCommand } from '../bff/checkout/registration.ts';
import { TEST_NUVEMSHOP_SECRET } from '../bff/checkout/testing.ts';
import { parseConfig } from '../bff/config.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { SANDBOX_SHOPIFY_APP_SECRET } from '../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { formatBRL } from '../shared/money.ts';
import { axeOn } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * Issue 34's first "done when", in Chromium: the same cart and CEP give the same price and the same date on the
 * product page's calculator (which quotes the platform from the browser with the public key) and at the emulated
 * Shopify and Nuvemshop checkouts (which call the BFF's callbacks, answered by its quote core with the secret key).
 * The demo page of `npm start` shows the three side by side. The shopper's clock and the BFF's are one fixed instant.
 */
const NOW = Date.parse('2026-11-23T10:00:00-03:00');
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  const env = {
    SHIPPING_RATE_LIMIT: '1000/60',
    BFF_HANDLING_DAYS: '1',
    BFF_CUTOFF: '14:00',
    BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
    BFF_SHOPIFY_SHOP: 'loja-demo.myshopify.com',
    BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
    BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/loja-demo.myshopify.com`,
    BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
    BFF_NUVEMSHOP_STORE_ID: '1001',
    BFF_NUVEMSHOP_TOKEN: 'nuvem_test_demo_000000001',
    BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
  };
  bff = await startBff(sandbox.url, env, { now: () => NOW });
  const config = parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_demo', BFF_PUBLIC_URL: bff.url, ...env });
  const services = async () => [
    { serviceId: 'correios-pac', label: 'Correios PAC' },
    { serviceId: 'correios-sedex', label: 'Correios SEDEX' },
  ];
  for (const platform of ['shopify', 'nuvemshop'] as const)
    expect((await runCheckoutCommand('register', platform, { config, services })).ok).toBe(true);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  await page.clock.setFixedTime(new Date(NOW));
});
afterEach(async () => {
  await context.close();
});

interface Shown {
  serviceId: string;
  price: string;
  /** dd/mm of the arrival date. */
  date: string;
}

/** The calculator's options as the shopper reads them (its shadow root). */
function calculatorOptions(): Promise<Shown[]> {
  return page.evaluate(() => {
    const root = document.querySelector('shipping-calculator')?.shadowRoot;
    return [...(root?.querySelectorAll('label[part="option"]') ?? [])].map((label) => ({
      serviceId: label.querySelector('input')?.value ?? '',
      price: label.querySelector('[part="option-price"]')?.textContent ?? '',
      date:
        /(\d{2}\/\d{2})/.exec(label.querySelector('[part="option-arrival"]')?.textContent ?? '')?.[1] ?? '',
    }));
  });
}

/** What the emulated checkout of `platform` shows, read from its list. */
function checkoutOptions(platform: 'shopify' | 'nuvemshop'): Promise<Shown[]> {
  return page.evaluate((which) => {
    const items = document.querySelectorAll(`article[data-platform="${which}"] li`);
    return [...items].map((item) => {
      const cents = Number((item as HTMLElement).dataset.amountCents);
      const date = (item as HTMLElement).dataset.maxDate ?? '';
      return {
        serviceId: (item as HTMLElement).dataset.code ?? '',
        price: String(cents),
        date: `${date.slice(8, 10)}/${date.slice(5, 7)}`,
      };
    });
  }, platform);
}

async function quote(cep: string): Promise<void> {
  const field = page.locator('shipping-calculator input[autocomplete="postal-code"]');
  await field.fill(cep);
  await field.press('Enter');
}

/** The checkout's centavos as the calculator writes prices: "Grátis" for zero (only free: true is zero). */
const asCalculator = (shown: Shown): Shown => ({
  ...shown,
  price: shown.price === '0' ? 'Grátis' : formatBRL(Number(shown.price) / 100),
});

describe('the product page’s calculator beside the emulated checkouts (/demo/checkout.html)', () => {
  it.each([
    ['one shirt (R$ 79,90)', 1],
    ['four shirts (R$ 319,60: free PAC)', 4],
  ])(
    'shows the same prices and dates for %s to Rio de Janeiro at Shopify and Nuvemshop',
    async (_, quantity) => {
      await page.goto(`${bff.url}/demo/checkout.html`);
      await page.locator('#quantity').fill(String(quantity));
      await quote('20040-020');
      await expect.poll(async () => (await calculatorOptions()).length).toBe(2);
      const calculator = await calculatorOptions();
      expect(calculator.every((option) => /^\d{2}\/\d{2}$/.test(option.date))).toBe(true);
      for (const platform of ['shopify', 'nuvemshop'] as const) {
        await expect
          .poll(async () => (await checkoutOptions(platform)).map(asCalculator))
          .toEqual(calculator);
        expect(
          await page.locator(`article[data-platform="${platform}"]`).getAttribute('data-source'),
        ).toMatch(/^(callback|cache)$/);
      }
      if (quantity === 4)
        expect(calculator.find((o) => o.serviceId === 'correios-pac')?.price).toBe('Grátis');
      await screenshot(page, `checkout-side-by-side-${quantity}`);
      // UPDATE_PICTURES=1 rewrites the picture of docs/checkout/quote-core.md.
      if (quantity === 4 && process.env.UPDATE_PICTURES === '1')
        await page.screenshot({
          path: new URL('../docs/checkout/side-by-side.png', import.meta.url).pathname,
        });
    },
  );

  // One audit a test, with an axe budget: the four states in one test ran four audits in the default mode (each
  // opening a blank page of its own) inside the 20 s limit, and timed out on a busy machine. The page has no frames,
  // so axe runs in the page itself (e2e/support/axe.ts).
  it.each([
    ['light', 1200],
    ['dark', 1200],
    ['light', 375],
    ['dark', 375],
  ] as const)(
    'is readable and accessible in %s, %i px wide',
    async (colorScheme, width) => {
      await page.setViewportSize({ width, height: 1000 });
      await page.emulateMedia({ colorScheme });
      await page.goto(`${bff.url}/demo/checkout.html`);
      await quote('20040-020');
      await expect.poll(async () => (await checkoutOptions('nuvemshop')).length).toBe(2);
      const { violations } = await axeOn(page).analyze();
      expect(violations.map((v) => `${colorScheme} ${width}: ${v.id}`)).toEqual([]);
      await screenshot(page, `checkout-demo-${colorScheme}-${width}`);
    },
    60_000,
  );
});

describe('the demo store, from product to checkout', () => {
  it('carries the product page’s cart to the cart and on to both checkouts; the front page links every surface', async () => {
    await page.goto(`${bff.url}/demo/`);
    const links = await page
      .locator('main a')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
    for (const surface of ['/admin/labels', '/admin/orders', '/admin/promise', '/mcp', '/track'])
      expect(links).toContain(surface);

    await page.goto(`${bff.url}/demo/product.html`);
    await page.locator('#quantity').fill('2');
    await page.getByRole('button', { name: 'Adicionar ao carrinho' }).click();
    await page.waitForURL(/\/demo\/cart\.html$/);
    await expect.poll(() => page.locator('#cart-lines tr').count()).toBe(1);
    expect(await page.locator('#cart-lines input').inputValue()).toBe('2');
    await quote('20040-020');
    await expect.poll(async () => (await calculatorOptions()).length).toBe(2);
    const inCart = await calculatorOptions();
    await page.getByRole('link', { name: 'Finalizar compra' }).click();
    await page.waitForURL(/\/demo\/checkout\.html$/);
    expect(await page.locator('h1').innerText()).toBe('Seu carrinho');
    // The CEP the calculator remembers quotes the same cart at once.
    await expect.poll(async () => (await calculatorOptions()).length).toBe(2);
    expect(await calculatorOptions()).toEqual(inCart);
    for (const platform of ['shopify', 'nuvemshop'] as const)
      await expect.poll(async () => (await checkoutOptions(platform)).map(asCalculator)).toEqual(inCart);
    // Shopify's option reads as the calculator's (shared/promise-text.ts): "Chega até qua., 02/12".
    const pac = page.locator('article[data-platform="shopify"] li[data-code="correios-pac"]');
    const calculatorWords = await page
      .locator('shipping-calculator label.option', { hasText: 'PAC' })
      .locator('[part="option-arrival"]')
      .textContent();
    expect(await pac.textContent()).toContain(calculatorWords ?? '—');
    await screenshot(page, 'demo-cart-to-checkout');
  });
});
