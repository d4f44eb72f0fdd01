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
      // Chromium's headless mode builds each new window's omnibox popups (two WebUI pages, chrome://omnibox-popup
      // .top-chrome) in renderers of their own: about 0.3 s of CPU a context, run beside the page under test. On two
      // cores that starved the page's main thread (figure 2's long tasks in which it ran 2–5 ms: bench/README.md).
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  });
}

/**
 * The browser of this test process: launched once and shared by the test files the process runs (workers are reused
 * across files: vite.config.ts), since a launch costs about a second of CPU. Each caller gets its own handle, whose
 * `close()` closes the contexts and pages it opened — never the browser, nor another file's. Contexts share nothing
 * (cookies, storage, cache), so files stay as isolated as with a browser each. Playwright stops the browser when the
 * process exits; were the process killed, the browser's pipe to it closes and the browser exits too. A console error or
 * an uncaught exception on any page fails the file at that `close()` (`watchErrors`).
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

/** Console errors a test causes on purpose, per page, with why: not counted against the page. */
const expectedErrors = new WeakMap<Page, { pattern: RegExp; why: string }[]>();

/**
 * Says that `page` will log an error matching `pattern` on purpose, and `why` (the fault the test provokes: a script
 * it withholds, an answer it breaks), so it does not fail the file. Every other console error fails it.
 */
export function allowConsoleErrors(page: Page, pattern: RegExp, why: string): void {
  if (why.trim() === '') throw new Error('allowConsoleErrors: say why the page logs this error on purpose');
  expectedErrors.set(page, [...(expectedErrors.get(page) ?? []), { pattern, why }]);
}

/**
 * Watches every page of `context` (issue 47: the demo's, the desk's, the tracking page, the MCP apps, the docs'
 * recipes — whatever a test opens): an uncaught exception or a console error is recorded, unless the test expected it
 * (`allowConsoleErrors`, with why) or it is the browser's line about a request to another origin that failed (the
 * platform's faults a test injects: the calculator says so on screen, which the test checks).
 */
function watchErrors(context: BrowserContext, unexpected: string[]): void {
  const record = (page: Page | null, text: string) => {
    if (page && (expectedErrors.get(page) ?? []).some(({ pattern }) => pattern.test(text))) return;
    unexpected.push(`${page ? page.url() : '(a worker)'}: ${text}`);
  };
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    const page = message.page();
    const source = message.location().url;
    const foreign = page && source && originOf(source, page.url()) !== originOf(page.url());
    if (foreign && /^Failed to load resource/.test(message.text())) return;
    record(page, source ? `${message.text()} (${source})` : message.text());
  });
  context.on('weberror', (error) => record(error.page(), `uncaught: ${error.error().message}`));
}

/** The origin of `url` (relative to `base`), or the text itself when it is none (`about:blank`, `data:`). */
function originOf(url: string, base?: string): string {
  try {
    return new URL(url, base).origin;
  } catch {
    return url;
  }
}

function handleOf(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const unexpected: string[] = [];
  const track = <T extends BrowserContext>(context: T): T => {
    opened.add(context);
    context.once('close', () => opened.delete(context));
    watchErrors(context, unexpected);
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
          // Closed in the file's afterAll: a page's error fails the file, listed.
          if (unexpected.length > 0)
            throw new Error(
              `console errors on the pages (e2e/support/browser.ts):\n${unexpected.join('\n')}`,
            );
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
