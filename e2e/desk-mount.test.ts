import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_SCRIPT_PATH } from '../bff/desk/layout.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * A desk page before its script has mounted (a slow phone, a starved CI machine): the buttons the script gives their
 * action are rendered disabled, so a tap is refused visibly instead of lost, and Playwright's click waits for them by
 * itself. The script's response is held behind a gate the test opens, so "before" is a state, not a race.
 */
const PASSWORD = 'senha-e2e-montagem-0001';
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD });
  browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});

describe('a desk page before its script has mounted', () => {
  it('shows its script buttons disabled until the script runs, then a click made meanwhile acts; the logout form works throughout', async () => {
    const context = await browser.newContext({
      locale: 'pt-BR',
      colorScheme: 'light',
      viewport: { width: 375, height: 812 },
    });
    let requested!: () => void;
    const scriptAsked = new Promise<void>((resolve) => {
      requested = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.route(`${bff.url}${DESK_SCRIPT_PATH}`, async (route) => {
      requested();
      await released;
      await route.continue();
    });
    const page = await context.newPage();
    try {
      await page.goto(`${bff.url}/admin/labels/new`);
      await page.getByLabel('Senha do lojista').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await scriptAsked;
      const add = page.getByRole('button', { name: 'Adicionar item' });
      await add.waitFor();
      const items = page.locator('[data-item]');

      // Held: every control the script binds is announced as unavailable; the plain form's button is not.
      expect(await page.locator('body[data-mounted]').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Adicionar item', disabled: true }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Escolher as caixas', disabled: true }).count()).toBe(1);
      expect(await page.locator('[data-needs-script]').count()).toBe(5);
      expect(await page.locator('[data-needs-script]:enabled').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Sair' }).isEnabled()).toBe(true);
      await screenshot(page, 'desk-before-mount-375-light');

      // A click asked for now waits for the button (before, it landed on a button without its action and was lost).
      const clicked = add.click();
      expect(await items.count()).toBe(1);
      release();
      await clicked;
      await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(2);
      expect(await page.locator('body[data-mounted]').count()).toBe(1);
      expect(await page.locator('[data-needs-script]:disabled').count()).toBe(0);
    } finally {
      release();
      await context.close();
    }
  }, 60_000);

  it('disables every button that only the script makes act, and no button of a form that works without it', async () => {
    const context = await browser.newContext({ locale: 'pt-BR' });
    // The script is never answered: each page stays as it is before its script runs.
    await context.route(`${bff.url}${DESK_SCRIPT_PATH}`, () => new Promise<void>(() => {}));
    const page = await context.newPage();
    try {
      await page.goto(`${bff.url}/admin/orders`, { waitUntil: 'commit' });
      await page.getByLabel('Senha do lojista').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      const seen: Record<string, string[]> = {};
      for (const path of ['/admin/orders', '/admin/labels/new', '/admin/labels', '/admin/agents']) {
        await page.goto(`${bff.url}${path}`, { waitUntil: 'commit' });
        await page.waitForFunction(() => document.readyState === 'interactive' && document.body !== null);
        // A button needs the script when it is not a submit, or submits a form with nowhere to go without it.
        seen[path] = await page.evaluate(() =>
          [...document.querySelectorAll('button')]
            .filter((button) => {
              const needsScript = button.type !== 'submit' || !button.form?.hasAttribute('action');
              return needsScript !== button.disabled;
            })
            .map((button) => `${button.textContent?.trim()} (${button.disabled ? 'disabled' : 'enabled'})`),
        );
      }
      expect(seen).toEqual({
        '/admin/orders': [],
        '/admin/labels/new': [],
        '/admin/labels': [],
        '/admin/agents': [],
      });
    } finally {
      await context.close();
    }
  }, 60_000);
});
