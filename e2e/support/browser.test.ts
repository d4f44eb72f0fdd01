import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowConsoleErrors, launchBrowser } from './browser.ts';

/** A page that is not the demo's, logging one console error and throwing one uncaught exception. */
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><title>Pedidos</title><link rel="icon" href="data:,"><script>console.error("boom"); setTimeout(() => { throw new Error("bang"); });</script>',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/orders`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the console-error rule of the browser tests', () => {
  it('fails the file on a console error or an uncaught exception on any page, not only the demo’s', async () => {
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'Pedidos');
    // The exception is thrown a task after the error: a round trip through the page lets it arrive.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    await expect(browser.close()).rejects.toThrow(
      `console errors on the pages (e2e/support/browser.ts):\n${url}: boom (${url})\n${url}: uncaught: bang`,
    );
  });

  it('lets a test allow the errors it provokes on purpose, saying why, on that page only', async () => {
    const browser = await launchBrowser();
    const allowed = await browser.newPage();
    allowConsoleErrors(allowed, /boom|bang/, 'this test logs both on purpose');
    await allowed.goto(url);
    await allowed.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    await expect(browser.close()).resolves.toBeUndefined();
    expect(() => allowConsoleErrors(allowed, /boom/, ' ')).toThrow(/say why/);
  });
});

describe('the browser the tests share', () => {
  it('builds no omnibox popup for a new context: nothing of chrome://…top-chrome loads beside the pages', async () => {
    const browser = await launchBrowser();
    const cdp = await browser.newBrowserCDPSession();
    const loaded = new Set<string>();
    cdp.on('Tracing.dataCollected', ({ value }) => {
      for (const event of value as { args?: unknown }[])
        for (const host of JSON.stringify(event.args ?? {}).match(/chrome:\/\/[a-z.-]+/g) ?? [])
          loaded.add(host);
    });
    // Browser-wide, from before the contexts exist: the popups are built when a context's window is, in renderers of
    // their own (e2e/support/browser.ts). Without the flag, each of these contexts loaded chrome://omnibox-popup.top-chrome.
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['loading'] },
      transferMode: 'ReportEvents',
    });
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.setContent('<p>Pedidos</p><input>');
      // the window's popups are built after its first page, not before: a second beside it is when they loaded
      await page.waitForTimeout(1_000);
      await context.close();
    }
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    expect([...loaded].filter((host) => host.endsWith('top-chrome'))).toEqual([]);
    await browser.close();
  });
});
