import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { axeOn } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * `<shipping-tracking>`'s own colors in both themes (the tracking page around it has its own theme; this checks the
 * element): AA contrast by axe on the element, every badge shown, in light and in dark.
 */
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let context: BrowserContext;
let page: Page;
// delivered, no events yet, and not found: three badges
const CODES = 'DG049186226BR,QB123456785BR,AA000000005BR';

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
  browser = await launchBrowser();
  // axe needs a page of a context it can open more pages in
  context = await browser.newContext({ viewport: { width: 800, height: 1000 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});

describe('<shipping-tracking> in light and dark', { timeout: 60_000 }, () => {
  it.each(['light', 'dark'] as const)('keeps AA contrast in %s (axe on the element)', async (colorScheme) => {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${bff.url}/track?codes=${CODES}`);
    await expect.poll(() => page.locator('shipping-tracking .card').count(), { timeout: 20_000 }).toBe(3);
    const { violations } = await axeOn(page).include('shipping-tracking').analyze();
    expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const surface = await page.evaluate(() => {
      const root = document.querySelector('shipping-tracking')?.shadowRoot?.querySelector('.tracking');
      return root ? getComputedStyle(root).backgroundColor : '';
    });
    // in dark the element paints its own surface, so a page that stays light keeps it readable
    expect(surface).toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgba(0, 0, 0, 0)');
    await screenshot(page, `tracking-element-${colorScheme}`);
  });

  it('follows data-theme over the preference', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${bff.url}/track`);
    const label = () =>
      page.evaluate(() => {
        const el = document.querySelector('shipping-tracking')?.shadowRoot?.querySelector('.label');
        return el ? getComputedStyle(el).color : '';
      });
    await expect.poll(label).toBe('rgb(230, 237, 243)');
    await page.locator('shipping-tracking').evaluate((el) => el.setAttribute('data-theme', 'light'));
    expect(await label()).toBe('rgb(31, 35, 40)');
  });
});
