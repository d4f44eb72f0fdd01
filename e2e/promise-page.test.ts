import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDelivered } from '../bff/promise/testing/seed.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { axeOn } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * `/admin/promise` as the merchant acts on it, in Chromium: a late lane first with what to do, a lane on time, a lane
 * too thin to judge set apart; axe clean in light and dark, on a phone and a desktop (screenshots under
 * e2e/artifacts/, `UPDATE_PICTURES=1` writes docs/promise-page*.png).
 */
const PASSWORD = 'senha-e2e-prazos-0001';
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD });
  const now = Date.now();
  const promise = { from: '2026-12-01', to: '2026-12-03', basis: 'history' as const, parcels: 40 };
  const lane = (name: string, cep: string, count: number, lateDays: (i: number) => number) =>
    seedDelivered(bff.backends, { name, cep, count, promise, transitDays: () => 6, lateDays, now });
  await lane('rio', '20040-020', 30, (i) => (i === 0 ? 1 : -1));
  await lane('sp', '01310-100', 14, (i) => (i % 2 === 0 ? 2 : 0));
  await lane('feira', '44001-000', 3, () => 1);
  browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});

describe('the promise page (/admin/promise)', () => {
  // One width a test, its two audits (light and dark) in it (issue 50: never four audits in one test).
  for (const [device, width] of [
    ['desktop', 1280],
    ['375 px', 375],
  ] as const) {
    it(`puts the late lane first with what to do, sets the thin lane apart, and is accessible in light and dark at ${device}`, async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({
          locale: 'pt-BR',
          colorScheme,
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        try {
          await page.goto(`${bff.url}/admin/promise`);
          await page.getByLabel('Senha do lojista').fill(PASSWORD);
          await page.getByRole('button', { name: 'Entrar' }).click();
          await page.waitForURL(`${bff.url}/admin/promise`);
          const headings = await page.locator('main h2').allInnerTexts();
          expect(headings).toEqual([
            'Rotas abaixo de 95 %: o que fazer',
            'Rotas no prazo',
            'Rotas com poucas entregas para julgar (menos de 10)',
          ]);
          const late = page.locator('#late-lanes + .table-scroll tbody tr').first();
          expect(await late.innerText()).toContain('SP');
          expect(await late.innerText()).toContain('Some 2 dias úteis');
          const { violations } = await axeOn(page).analyze();
          expect(violations.map((v) => `${colorScheme} ${width}: ${v.id}`)).toEqual([]);
          await screenshot(page, `promise-page-${colorScheme}-${width}`);
          if (process.env.UPDATE_PICTURES === '1')
            await page.screenshot({
              path: new URL(`../docs/promise-page-${colorScheme}-${width}.png`, import.meta.url).pathname,
              fullPage: true,
            });
        } finally {
          await context.close();
        }
      }
    }, 60_000);
  }
});
