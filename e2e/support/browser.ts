import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

let shared: Promise<Browser> | undefined;

/** Debian's Chromium, headless, with the flags this closed network needs. */
function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * The browser of this test process: launched once and shared by the test files the process runs (workers are reused
 * across files: vite.config.ts), since a launch costs about a second of CPU. Each caller gets its own handle, whose
 * `close()` closes the contexts and pages it opened — never the browser, nor another file's. Contexts share nothing
 * (cookies, storage, cache), so files stay as isolated as with a browser each. Playwright stops the browser when the
 * process exits; were the process killed, the browser's pipe to it closes and the browser exits too.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!shared || !(await shared.catch(() => undefined))?.isConnected()) shared = launch();
  return handleOf(await shared);
}

/**
 * Closes the browser this process launched, for a program that is not a test process (the bench): nothing ends it
 * for it, and Chromium's pipe to it would keep its event loop alive — `npm run bench` stayed running, Chromium
 * beside it, for an hour after its table. A test file never calls it (the browser is shared by the files).
 */
export async function closeSharedBrowser(): Promise<void> {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close();
}

function handleOf(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const track = <T extends BrowserContext>(context: T): T => {
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext')
        return async (...args: Parameters<Browser['newContext']>) => track(await target.newContext(...args));
      if (property === 'newPage')
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          track(page.context());
          return page;
        };
      if (property === 'close')
        return async () => {
          await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Keeps a screenshot of a state under e2e/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}
