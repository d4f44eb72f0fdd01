import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRITY_FILE, IntegrityManifestSchema } from '../bff/static/integrity.ts';
import { WIDGET_DIR } from '../bff/static/static.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { RatesResponseSchema } from '../shared/quote.ts';
import { allowConsoleErrors, launchBrowser } from './support/browser.ts';

/**
 * docs/storefronts.md, every block marked `<!-- tested: name -->`, exactly as the docs show them (only the
 * placeholders replaced by this test's BFF, sandbox, key and hashes): the pages and the two script files served
 * from another origin than the BFF under the docs' own Content-Security-Policy, driven in Chromium; the checkout
 * server's code run in Node against the real BFF. Any CSP violation fails the test.
 */
const DOC = readFileSync(new URL('../docs/storefronts.md', import.meta.url), 'utf8');
function block(name: string): string {
  const found = new RegExp(
    `<!-- tested: ${name.replace('.', '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(DOC);
  if (!found?.[1]) throw new Error(`docs/storefronts.md has no block marked "tested: ${name}"`);
  return found[1];
}
const CHECKOUT_TOKEN = 'checkout-token-for-the-docs-test';
const SHIRT = { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 };
const MUG = { name: 'Caneca', quantity: 1, unitPriceBRL: 39.9, weightKg: 0.5 };

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let page: Page;
let storeOrigin = '';
let files: Record<string, { type: string; body: string }> = {};
let csp = '';
/** The cart as the store's server knows it (the page shows the same lines). */
let serverCart = [SHIRT, MUG];
let shippingToCharge: (choice: {
  cep: string;
  items: unknown[];
  serviceId: string;
}) => Promise<
  { ok: true; price: number; label: string; deliveryDays: number } | { ok: false; reason: string }
>;
const violations: string[] = [];

const store = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'POST' && path === '/checkout') {
    // The store's checkout server: the browser sent a CEP and a service; the price comes from the BFF.
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    const verdict = await shippingToCharge({
      cep: form.get('shipping_cep') ?? '',
      items: serverCart,
      serviceId: form.get('shipping_service') ?? '',
    }).catch((error: Error) => ({ ok: false as const, reason: error.message }));
    const text = verdict.ok
      ? `Frete cobrado: ${verdict.price.toFixed(2)}`
      : `Escolha o frete de novo: ${verdict.reason}`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp })
      .end(`<!doctype html><title>Pedido</title><p id="charged">${text}</p>`);
    return;
  }
  const file = files[path];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file.type, 'content-security-policy': csp }).end(file.body);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => store.listen(0, 'localhost', resolve));
  storeOrigin = `http://localhost:${(store.address() as AddressInfo).port}`;
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, {
    BFF_CHECKOUT_TOKENS: CHECKOUT_TOKEN,
    BFF_ALLOWED_ORIGINS: storeOrigin,
  });
  browser = await launchBrowser();
  const manifest = IntegrityManifestSchema.parse(
    JSON.parse(readFileSync(join(WIDGET_DIR, INTEGRITY_FILE), 'utf8')),
  );
  const fill = (text: string) =>
    text
      .replaceAll('https://frete.your-store.example', bff.url)
      .replaceAll('https://api.platform.example', sandbox.url)
      .replaceAll('pk_live_…', 'pk_test_demo')
      .replaceAll('sha384-CALCULATOR', manifest['shipping-widget.js'] ?? '')
      .replaceAll('sha384-TRACKING', manifest['shipping-tracking.js'] ?? '');
  csp = fill(block('csp'));
  const html = 'text/html; charset=utf-8';
  const js = 'text/javascript; charset=utf-8';
  files = {
    '/carrinho': { type: html, body: fill(block('plain-html')) },
    '/rastreio': { type: html, body: fill(block('tracking-html')) },
    '/js/frete-cart.js': { type: js, body: block('frete-cart.js') },
    '/js/frete-checkout.js': { type: js, body: block('frete-checkout.js') },
    // a store has its icon: without one the browser logs a 404 on each page
    '/favicon.ico': {
      type: 'image/svg+xml',
      body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#2da44e"/></svg>',
    },
    // the instrument's check: the old recipe's inline script, which this policy must refuse
    '/inline': { type: html, body: '<!doctype html><title>x</title><script>document.title = "ran"</script>' },
  };
  // The checkout server's code, as the docs show it, run in Node with its token.
  const dir = mkdtempSync(join(tmpdir(), 'storefront-docs-'));
  writeFileSync(join(dir, 'checkout-server.mjs'), fill(block('checkout-server.mjs')));
  process.env.FRETE_CHECKOUT_TOKEN = CHECKOUT_TOKEN;
  ({ shippingToCharge } = await import(join(dir, 'checkout-server.mjs')));
  page = await browser.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${storeOrigin}/carrinho`);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
  delete process.env.FRETE_CHECKOUT_TOKEN;
  store.closeAllConnections();
  await new Promise((resolve) => store.close(resolve));
});
afterEach(() => {
  expect(violations).toEqual([]);
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
const cepField = () => page.locator('shipping-calculator input[autocomplete="postal-code"]');
const options = () => page.locator('shipping-calculator .option');

/** What the platform quotes now for a cart, asked directly with the secret key. */
async function platformPrice(cep: string, cart: unknown[], serviceId: string): Promise<number | undefined> {
  const res = await fetch(`${sandbox.url}/v1/rates`, {
    method: 'POST',
    headers: { authorization: 'Bearer mk_test_demo', 'content-type': 'application/json' },
    body: JSON.stringify({ destinationCep: cep, items: cart }),
  });
  const rate = RatesResponseSchema.parse(await res.json()).rates.find((r) => r.serviceId === serviceId);
  return rate && (rate.free ? 0 : rate.price);
}

describe('docs/storefronts.md under its own strict CSP', () => {
  it('has every tested block, with every placeholder this test replaces, and no inline script anywhere', () => {
    const page = block('plain-html');
    expect(page).toContain('<shipping-calculator></shipping-calculator>');
    for (const placeholder of [
      'https://frete.your-store.example',
      'https://api.platform.example',
      'pk_live_…',
    ])
      expect(page).toContain(placeholder);
    expect(page).toContain('integrity="sha384-CALCULATOR" crossorigin="anonymous"');
    expect(block('tracking-html')).toContain('integrity="sha384-TRACKING" crossorigin="anonymous"');
    expect(block('csp')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    // every <script> in every block of the docs (html, the Twig and PHP recipes too) has a src: no recipe needs
    // 'unsafe-inline'
    const blocks = [...DOC.matchAll(/^ *```(\w+)\n([\s\S]*?)\n *```/gm)].map((match) => [
      match[1],
      match[2] ?? '',
    ]);
    expect(blocks.filter(([lang]) => lang === 'html').length).toBeGreaterThanOrEqual(5);
    expect(blocks.map(([lang]) => lang)).toEqual(expect.arrayContaining(['twig', 'php', 'js']));
    for (const [, code] of blocks) expect(code).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('refuses an inline script, so the checks of this file can fail', async () => {
    const canary = await browser.newPage();
    const seen: string[] = [];
    canary.on('console', (message) => void seen.push(message.text()));
    allowConsoleErrors(
      canary,
      /Content Security Policy/,
      'the inline script is refused on purpose: the browser logs the violation this test waits for',
    );
    await canary.goto(`${storeOrigin}/inline`);
    await expect.poll(() => seen.join('\n')).toMatch(/Content Security Policy/);
    expect(await canary.title()).toBe('x');
    await canary.close();
  });

  it('hands the cart lines the page shows to the calculator, and follows a change of the cart', async () => {
    await page.waitForFunction(() => customElements.get('shipping-calculator'), undefined, {
      timeout: 30_000,
    });
    await expect.poll(items, { timeout: 10_000 }).toEqual([SHIRT, MUG]);
    await page.evaluate(() => {
      document.querySelector('[data-name="Caneca"]')?.setAttribute('data-quantity', '3');
    });
    await expect.poll(async () => ((await items()) as { quantity: number }[])[1]?.quantity).toBe(3);
    serverCart = [SHIRT, { ...MUG, quantity: 3 }];
  }, 60_000);

  it('fills the checkout with the chosen service, not a price, and the server charges what the BFF verified', async () => {
    expect(await form()).toMatchObject({ service: '', disabled: true });
    await cepField().fill('20040-020');
    await cepField().press('Enter');
    await expect.poll(() => options().count(), { timeout: 30_000 }).toBe(2);
    await options().nth(1).click(); // SEDEX: never free, so the price is a real number to compare
    await expect.poll(async () => (await form()).service, { timeout: 10_000 }).toBe('correios-sedex');
    const filled = await form();
    expect(filled.cep.replace(/\D/g, '')).toBe('20040020');
    expect(filled.disabled).toBe(false);
    expect(filled.summary).toMatch(/R\$\s?[\d.,]+, até \d+ dias úteis$/);
    expect(await page.evaluate(() => document.querySelector('form')?.innerHTML ?? '')).not.toMatch(/price/);
    await page.locator('#checkout button').click();
    await page.waitForURL(`${storeOrigin}/checkout`);
    const expected = await platformPrice('20040020', serverCart, 'correios-sedex');
    expect(expected).toBeGreaterThan(0);
    expect(await page.locator('#charged').textContent()).toBe(`Frete cobrado: ${expected?.toFixed(2)}`);
    await page.goBack();
  }, 60_000);

  it('charges nothing for a service the shopper edited into the form: the BFF says it is not offered', async () => {
    await expect.poll(() => options().count(), { timeout: 30_000 }).toBe(2);
    await options().first().click();
    await expect.poll(async () => (await form()).service, { timeout: 10_000 }).toBe('correios-pac');
    // what a shopper with the browser's tools could do: another service, a made-up one
    await page.evaluate(() => {
      const checkout = document.getElementById('checkout') as HTMLFormElement;
      (checkout.elements.namedItem('shipping_service') as HTMLInputElement).value = 'correios-mini';
    });
    await page.locator('#checkout button').click();
    await page.waitForURL(`${storeOrigin}/checkout`);
    expect(await page.locator('#charged').textContent()).toBe('Escolha o frete de novo: service_unavailable');
    await page.goBack();
  }, 60_000);

  it('empties and disables the checkout when the widget clears the choice (rate: null on a CEP with no quote)', async () => {
    await expect.poll(() => options().count(), { timeout: 30_000 }).toBe(2);
    await options().first().click();
    await expect.poll(async () => (await form()).disabled, { timeout: 10_000 }).toBe(false);
    await cepField().fill('00000-100');
    await cepField().press('Enter');
    await expect
      .poll(form, { timeout: 30_000 })
      .toEqual({ cep: '', service: '', disabled: true, summary: 'Escolha o frete acima.' });
  }, 60_000);

  it('hands an emptied cart over as [] (the calculator clears its options and says "adicione itens")', async () => {
    await cepField().fill('20040-020');
    await cepField().press('Enter');
    await expect.poll(() => options().count(), { timeout: 30_000 }).toBe(2);
    await options().first().click();
    await expect.poll(async () => (await form()).disabled, { timeout: 10_000 }).toBe(false);
    await page.evaluate(() => {
      for (const line of document.querySelectorAll('[data-cart-line]')) line.remove();
    });
    await expect.poll(items, { timeout: 10_000 }).toEqual([]);
    await expect.poll(form, { timeout: 10_000 }).toMatchObject({ service: '', disabled: true });
    expect(await options().count()).toBe(0);
    expect(await page.locator('shipping-calculator .results').innerText()).toContain('Adicione itens');
  }, 60_000);

  it('runs the tracking element from the store origin (its origin in BFF_ALLOWED_ORIGINS)', async () => {
    const tracking = await browser.newPage();
    tracking.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await tracking.goto(`${storeOrigin}/rastreio`);
    const input = tracking.locator('shipping-tracking input[id$="-codes"]');
    await expect.poll(() => input.count(), { timeout: 30_000 }).toBe(1);
    await input.fill('DG049186226BR');
    await input.press('Enter');
    await expect.poll(() => tracking.locator('shipping-tracking .card').count(), { timeout: 30_000 }).toBe(1);
    expect(await tracking.locator('shipping-tracking .badge').textContent()).toBe('Entregue');
    await tracking.close();
  }, 60_000);
});
