import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRITY_FILE, IntegrityManifestSchema } from '../bff/static/integrity.ts';
import { WIDGET_DIR } from '../bff/static/static.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { allowConsoleErrors, launchBrowser } from './support/browser.ts';

/**
 * A storefront on another origin than the BFF (as a Nuvemshop or Tray store is): a real server on `localhost`
 * (Chromium's Private Network Access forbids a page of unknown address space from loading from 127.0.0.1; in
 * production the store and the BFF are both public HTTPS origins). It answers every path with `storeHtml`.
 */
let storeHtml = '';
const store = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(storeHtml);
});
let STORE = '';

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
const manifest = () =>
  IntegrityManifestSchema.parse(JSON.parse(readFileSync(join(WIDGET_DIR, INTEGRITY_FILE), 'utf8')));

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
  browser = await launchBrowser();
  await new Promise<void>((resolve) => store.listen(0, 'localhost', resolve));
  STORE = `http://localhost:${(store.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
  store.closeAllConnections();
  await new Promise((resolve) => store.close(resolve));
});

/**
 * Opens a store page whose tags are exactly docs/storefronts.md's snippet ("1. The tags"), with the given integrity
 * values; `before` runs on the page before it loads.
 */
async function storePage(
  integrity: { calculator: string; tracking: string },
  before: (page: Page) => void = () => undefined,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  before(page);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  storeHtml = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Loja</title>
<script src="${bff.url}/widget/v1/shipping-widget.js" integrity="${integrity.calculator}" crossorigin="anonymous"
        data-api-url="${sandbox.url}" data-public-key="pk_test_demo" async></script>
<script src="${bff.url}/widget/v1/shipping-tracking.js" integrity="${integrity.tracking}" crossorigin="anonymous"
        data-bff-url="${bff.url}" async></script>
</head><body>
<shipping-calculator items='[{"name":"Camiseta","quantity":1,"unitPriceBRL":79.9,"weightKg":0.3}]'></shipping-calculator>
</body></html>`;
  await page.goto(`${STORE}/produto`);
  return { page, errors };
}

const defined = (page: Page, name: string) => page.evaluate((tag) => Boolean(customElements.get(tag)), name);

describe('the storefronts.md snippet with integrity and crossorigin="anonymous", on another origin', () => {
  it('loads both scripts from /widget/v1/ with the hashes of integrity.json, and the calculator quotes', async () => {
    const hashes = manifest();
    const { page, errors } = await storePage({
      calculator: hashes['shipping-widget.js'] ?? '',
      tracking: hashes['shipping-tracking.js'] ?? '',
    });
    try {
      await page.waitForFunction(
        () => customElements.get('shipping-calculator') && customElements.get('shipping-tracking'),
        undefined,
        { timeout: 30_000 },
      );
      const cep = page.locator('shipping-calculator input[autocomplete="postal-code"]');
      await cep.fill('20040-020');
      await cep.press('Enter');
      await expect
        .poll(() => page.locator('shipping-calculator .option').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('blocks a script whose bytes do not match the integrity value, so the check above can fail', async () => {
    const hashes = manifest();
    const { page, errors } = await storePage(
      {
        calculator: hashes['shipping-tracking.js'] ?? '', // the other file's hash
        tracking: hashes['shipping-tracking.js'] ?? '',
      },
      (page) =>
        allowConsoleErrors(
          page,
          /integrity/,
          "the calculator's tag carries the other file's hash on purpose: the browser blocks it and logs why",
        ),
    );
    try {
      await page.waitForFunction(() => customElements.get('shipping-tracking'), undefined, {
        timeout: 30_000,
      });
      await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toMatch(/integrity/i);
      expect(await defined(page, 'shipping-calculator')).toBe(false);
    } finally {
      await page.close();
    }
  }, 60_000);
});
