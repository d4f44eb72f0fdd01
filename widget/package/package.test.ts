import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCalculatorApp } from '../../bff/static/calculator-app.ts';
import { sriHash } from '../../bff/static/integrity.ts';
import { type RunningBff, startBff } from '../../bff/testing.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from '../../e2e/support/browser.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { CALCULATOR, TRACKING } from './custom-elements.ts';

/**
 * `@frete-kit/widget` as a storefront developer gets it: `npm pack` (its real `prepack`), then installed from the
 * tarball into two throwaway apps, a Vite + React 19 one and a Vite + Vue 3 one, which must typecheck (each wrong use
 * in their `Wrong` file a type error, and nothing else), build, render and quote the sandbox in Chromium through the
 * package's loader and the BFF's `/widget/v1/`. Preact's and Svelte's declarations are checked the same way.
 *
 * The apps share one install (one `npm install`, about 6 s from npm's cache), kept in the user's cache folder under
 * the tarball's hash and the apps' dependencies: a run with the same package reuses it, a new package installs anew.
 */
const WIDGET = new URL('..', import.meta.url).pathname;
const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const BUILT = new URL('../../dist/widget/', import.meta.url).pathname;
const NPM_BIN = join(new URL('../../node_modules/.bin/', import.meta.url).pathname);
/** Where the apps' installs are kept between runs (the test run's own TMPDIR is removed after it). */
const APPS_CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'frete-kit', 'widget-apps');
const WEEK_MS = 7 * 24 * 3_600_000;

/**
 * What the apps install besides the widget: the least a Vite app of each framework needs, TypeScript 5.9 (vue-tsc
 * drives TypeScript's JS API, which TypeScript 7 no longer has), and preact and svelte for their declarations.
 */
const APP_DEPENDENCIES = {
  react: '^19.2.0',
  'react-dom': '^19.2.0',
  '@types/react': '^19.2.0',
  '@types/react-dom': '^19.2.0',
  '@vitejs/plugin-react': '^6.0.0',
  vue: '^3.5.0',
  '@vitejs/plugin-vue': '^6.0.0',
  'vue-tsc': '^3.1.0',
  preact: '^11.0.0',
  svelte: '^5.0.0',
  vite: '^8.0.0',
  typescript: '~5.9.0',
};

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command without blocking this process (the sandbox and the BFF answer from it). */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      // the apps' own tools (TypeScript 5.9, vue-tsc, vite) first, then this repository's Node 24 and npm
      env: {
        ...process.env,
        PATH: `${join(cwd, 'node_modules/.bin')}:${join(apps, 'node_modules/.bin')}:${NPM_BIN}:${process.env.PATH ?? ''}`,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let tarball = '';
let apps = '';
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let store: Server;
let STORE = '';
/** The store server's Content-Security-Policy for `/loader.html`, per test. */
let loaderPolicy = '';

/** Packs the widget as `npm publish` would, into a fresh folder; returns the tarball's path. */
async function pack(): Promise<string> {
  const into = mkdtempSync(join(tmpdir(), 'frete-kit-widget-pack-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', into, '--loglevel=error'], WIDGET);
  expect(packed.code, packed.output).toBe(0);
  const [{ filename }] = JSON.parse(packed.output.slice(packed.output.indexOf('['))) as [
    { filename: string },
  ];
  return join(into, filename);
}

/**
 * The apps, in a folder of this run, over an install of the tarball kept in the user's cache and named by its hash:
 * a run with the same package (and the same apps' dependencies) reuses it, another installs anew. Installs unused for
 * a week are removed.
 */
async function installApps(tarballPath: string): Promise<string> {
  const bytes = readFileSync(tarballPath);
  const key = createHash('sha256')
    .update(bytes)
    .update(JSON.stringify(APP_DEPENDENCIES))
    .digest('hex')
    .slice(0, 16);
  const installed = join(APPS_CACHE, key);
  if (!existsSync(join(installed, 'node_modules/.installed'))) {
    mkdirSync(APPS_CACHE, { recursive: true });
    const staging = mkdtempSync(join(APPS_CACHE, `.${key}-`));
    writeFileSync(join(staging, 'widget.tgz'), bytes);
    writeFileSync(
      join(staging, 'package.json'),
      JSON.stringify({
        name: 'throwaway-storefronts',
        private: true,
        type: 'module',
        dependencies: { '@frete-kit/widget': 'file:./widget.tgz', ...APP_DEPENDENCIES },
      }),
    );
    const install = await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      staging,
    );
    expect(install.code, install.output).toBe(0);
    writeFileSync(join(staging, 'node_modules/.installed'), key);
    try {
      renameSync(staging, installed);
    } catch {
      // another run installed the same package meanwhile: use theirs
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(installed, now, now);
  for (const other of readdirSync(APPS_CACHE)) {
    const path = join(APPS_CACHE, other);
    if (now.getTime() - statSync(path).mtimeMs > WEEK_MS) rmSync(path, { recursive: true, force: true });
  }
  const work = mkdtempSync(join(tmpdir(), 'widget-apps-'));
  cpSync(FIXTURES, work, { recursive: true });
  symlinkSync(join(installed, 'node_modules'), join(work, 'node_modules'));
  return work;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

/**
 * The storefront: the apps' folder served from `localhost` (another origin than the BFF, as a real store's), plus a
 * page that only imports the loader (`/loader.html`, under `loaderPolicy`) and a folder of scripts that are not the
 * package's (`/other-version/`).
 */
function storeServer(root: string): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://store').pathname;
    if (path === '/loader.html') {
      res.writeHead(200, {
        'content-type': TYPES['.html'],
        ...(loaderPolicy ? { 'content-security-policy': loaderPolicy } : {}),
      });
      res.end(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Loja</title>
<script type="module" src="/loader.js"></script></head><body></body></html>`);
      return;
    }
    if (path === '/loader.js') {
      res.writeHead(200, { 'content-type': TYPES['.js'] });
      res.end(
        `import * as widget from '/node_modules/@frete-kit/widget/dist/index.js'; window.widget = widget;`,
      );
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (path.startsWith('/other-version/')) {
      res.writeHead(200, { 'content-type': TYPES['.js'] }).end('/* not the package’s bytes */');
      return;
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file) || !extname(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
}

beforeAll(async () => {
  expect(existsSync(join(BUILT, 'shipping-widget.js')), 'run npm run build first').toBe(true);
  tarball = await pack();
  apps = await installApps(tarball);
  [sandbox, browser] = await Promise.all([startSandbox(), launchBrowser()]);
  bff = await startBff(sandbox.url);
  store = storeServer(apps);
  await new Promise<void>((resolve) => store.listen(0, 'localhost', resolve));
  STORE = `http://localhost:${(store.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
  store?.closeAllConnections();
  await new Promise((resolve) => (store ? store.close(resolve) : resolve(undefined)));
  if (tarball) rmSync(join(tarball, '..'), { recursive: true, force: true });
  if (apps) rmSync(apps, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the built scripts with their integrity, the loader, the types and custom-elements.json, nothing else', () => {
    const dist = join(apps, 'node_modules/@frete-kit/widget/dist');
    const versionOf = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    // one version for the repository and its package: the loader's ?v= and the CHANGELOG's
    expect(versionOf(join(dist, '../package.json'))).toBe(versionOf(join(WIDGET, '../package.json')));
    const app = builtCalculatorApp(BUILT);
    expect(readdirSync(join(dist, 'scripts')).sort()).toEqual(
      ['integrity.json', 'shipping-tracking.js', 'shipping-widget.js', app].sort(),
    );
    const integrity = JSON.parse(readFileSync(join(dist, 'scripts/integrity.json'), 'utf8')) as Record<
      string,
      string
    >;
    for (const file of ['shipping-widget.js', app, 'shipping-tracking.js']) {
      const bytes = readFileSync(join(dist, 'scripts', file));
      // the very bytes the BFF serves at /widget/v1/, so the loader's integrity fits either
      expect(bytes.equals(readFileSync(join(BUILT, file))), file).toBe(true);
      expect(integrity[file]).toBe(sriHash(bytes));
      expect(bytes.toString('utf8')).not.toMatch(/mk_[a-z0-9_]/i);
    }
    const loader = readFileSync(join(dist, 'index.js'), 'utf8');
    expect(loader).toContain(integrity['shipping-widget.js']);
    expect(loader).toContain(integrity['shipping-tracking.js']);
    expect(loader).not.toContain('__WIDGET_BUILD__');
    expect(readdirSync(dist).sort()).toEqual(
      [
        'custom-elements.json',
        'elements.d.ts',
        'index.d.ts',
        'index.js',
        'preact.d.ts',
        'react.d.ts',
        'scripts',
        'svelte.d.ts',
        'types-only.js',
        'vue.d.ts',
      ].sort(),
    );
    const manifest = JSON.parse(readFileSync(join(dist, 'custom-elements.json'), 'utf8')) as {
      schemaVersion: string;
      modules: { path: string; declarations: { tagName: string }[] }[];
    };
    expect(manifest.schemaVersion).toBe('2.1.0');
    expect(manifest.modules.map((module) => [module.path, module.declarations[0]?.tagName])).toEqual([
      ['dist/scripts/shipping-widget.js', 'shipping-calculator'],
      ['dist/scripts/shipping-tracking.js', 'shipping-tracking'],
    ]);
  });

  it('describes in custom-elements.json every part, custom property and setting the widgets’ sources use', () => {
    const source = (dir: string) =>
      readdirSync(join(WIDGET, dir))
        .filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'))
        .map((file) => readFileSync(join(WIDGET, dir, file), 'utf8'))
        .join('\n');
    for (const [element, code] of [
      [CALCULATOR, source('calculator')],
      [TRACKING, source('tracking')],
    ] as const) {
      const parts = [...code.matchAll(/part="([a-z-]+)"/g)].map((match) => match[1]);
      const properties = [...code.matchAll(/var\((--shipping-[a-z-]+)/g)].map((match) => match[1]);
      const settings = [...code.matchAll(/(?:setting|getAttribute)\('([a-z-]+)'\)/g)].map(
        (match) => match[1],
      );
      expect(parts.length).toBeGreaterThan(5);
      for (const part of parts) expect(element.cssParts, `${element.tagName} part ${part}`).toContain(part);
      for (const name of properties)
        expect(element.cssProperties, `${element.tagName} ${name}`).toContain(name);
      const attributes: string[] = element.attributes.map((attribute) => attribute.name);
      for (const name of settings) expect(attributes, `${element.tagName} ${name}`).toContain(name);
    }
  });
});

/** `file(line,col): error TS…` lines of tsc's or vue-tsc's output, as `file:line`. */
function errorLines(output: string): string[] {
  return [...output.matchAll(/^([\w./-]+)\((\d+),\d+\): error TS\d+/gm)]
    .map((match) => `${match[1]}:${match[2]}`)
    .filter((line, index, all) => all.indexOf(line) === index)
    .sort();
}

/** The lines of a fixture marked as wrong uses (`data-wrong=` or `// wrong`), as `file:line`. */
function markedLines(file: string): string[] {
  return readFileSync(join(apps, file), 'utf8')
    .split('\n')
    .flatMap((line, index) => (/data-wrong=|\/\/ wrong$/.test(line) ? [`${file}:${index + 1}`] : []));
}

describe('the types, in the frameworks’ own checkers', () => {
  it('typecheck a Vite + React 19 app, and each wrong attribute or event detail in it is a type error', async () => {
    const checked = await run('tsc', ['-p', 'react/tsconfig.json'], apps);
    const wrong = markedLines('react/Wrong.tsx');
    expect(wrong.length).toBe(9);
    // tsc fails, on exactly the wrong lines: App.tsx (a real store's use) and the declarations themselves are clean
    expect(checked.code, checked.output).not.toBe(0);
    expect(errorLines(checked.output), checked.output).toEqual(wrong.sort());
  }, 120_000);

  it('typecheck a Vite + Vue 3 app with vue-tsc, and each wrong attribute or event detail in it is a type error', async () => {
    const checked = await run('vue-tsc', ['-p', 'vue/tsconfig.json'], apps);
    const wrong = markedLines('vue/Wrong.vue');
    expect(wrong.length).toBe(7);
    expect(checked.code, checked.output).not.toBe(0);
    expect(errorLines(checked.output), checked.output).toEqual(wrong.sort());
  }, 120_000);

  it('type Preact’s JSX and Svelte 5’s elements the same way', async () => {
    const checked = await run('tsc', ['-p', 'types/tsconfig.json'], apps);
    const wrong = [...markedLines('types/preact.tsx'), ...markedLines('types/svelte.ts')];
    expect(wrong.length).toBe(10);
    expect(checked.code, checked.output).not.toBe(0);
    expect(errorLines(checked.output), checked.output).toEqual(wrong.sort());
  }, 120_000);
});

/** Opens a page of the store, keeping what its console says in red. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${STORE}${path}`);
  return { page, errors };
}

describe.each(['react', 'vue'])('a Vite + %s build in Chromium', (framework) => {
  it('loads the calculator through the package’s loader, quotes the sandbox and hands the choice to the app', async () => {
    const built = await run('vite', ['build'], join(apps, framework));
    expect(built.code, built.output).toBe(0);
    const query = new URLSearchParams({ api: sandbox.url, bff: bff.url });
    const { page, errors } = await open(`/${framework}/dist/index.html?${query}`);
    try {
      const cep = page.locator('shipping-calculator input[autocomplete="postal-code"]');
      await cep.fill('20040-020');
      await cep.press('Enter');
      await expect.poll(() => page.locator('shipping-calculator .option').count()).toBeGreaterThan(0);
      const count = await page.locator('shipping-calculator .option').count();
      // the app heard shipping-rates, with its detail typed as the package says
      await expect.poll(() => page.locator('#options').textContent()).toBe(String(count));
      const first = page.locator('shipping-calculator .option').first();
      const label = (await first.locator('[part="option-label"]').textContent())?.trim() ?? '';
      await first.locator('input[type="radio"]').check();
      await expect
        .poll(() => page.locator('#choice').textContent())
        .toMatch(new RegExp(`^${label.split(' ')[0]}.* \\d`));
      // the loader injected one script, of this version, with its integrity
      const scripts = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLScriptElement>('script[src*="/widget/v1/shipping-widget.js"]')].map(
          (script) => ({ src: script.src, integrity: script.integrity }),
        ),
      );
      expect(scripts).toEqual([
        {
          src: `${bff.url}/widget/v1/shipping-widget.js?v=0.2.0`,
          integrity: sriHash(readFileSync(join(BUILT, 'shipping-widget.js'))),
        },
      ]);
      expect(errors).toEqual([]);
      await screenshot(page, `widget-package-${framework}`);
    } finally {
      await page.close();
    }
  }, 120_000);
});

interface LoadResult {
  ok?: boolean;
  same?: boolean;
  name?: string;
  code?: string;
  message?: string;
  scripts: string[];
}

/** Calls the loader in `/loader.html` with `options` (twice when `twice`), and reports what came of it. */
async function load(
  page: Page,
  loader: 'loadShippingCalculator' | 'loadShippingTracking',
  options: Record<string, unknown>,
): Promise<LoadResult> {
  await page.waitForFunction(() => 'widget' in window);
  return page.evaluate(
    async ([name, given]) => {
      const widget = (window as unknown as { widget: Record<string, (options: unknown) => Promise<unknown>> })
        .widget;
      const scripts = () =>
        [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => script.src);
      const load = widget[name] as (options: unknown) => Promise<unknown>;
      const first = load(given);
      const second = load(given);
      // A failed second call fails as the first, which is the one read below: left alone, it would be unhandled.
      second.catch(() => undefined);
      try {
        const element = await first;
        return {
          ok:
            element ===
            customElements.get(name === 'loadShippingTracking' ? 'shipping-tracking' : 'shipping-calculator'),
          same: first === second,
          scripts: scripts(),
        };
      } catch (error) {
        const { name: errorName, code, message } = error as { name: string; code: string; message: string };
        return { name: errorName, code, message, scripts: scripts() };
      }
    },
    [loader, options] as const,
  );
}

describe('loadShippingCalculator', () => {
  const keys = () => ({ apiUrl: sandbox.url, publicKey: 'pk_test_demo' });

  it('injects one versioned script for the page, and resolves with the element once it is defined', async () => {
    loaderPolicy = '';
    const { page, errors } = await open('/loader.html');
    try {
      const result = await load(page, 'loadShippingCalculator', { ...keys(), bffUrl: bff.url });
      expect(result).toMatchObject({ ok: true, same: true });
      expect(result.scripts.filter((src) => src.includes('/shipping-widget.js'))).toEqual([
        `${bff.url}/widget/v1/shipping-widget.js?v=0.2.0`,
      ]);
      const tracking = await load(page, 'loadShippingTracking', { bffUrl: bff.url });
      expect(tracking).toMatchObject({ ok: true, same: true });
      // the settings went to the script tag, where the element reads them
      const dataset = await page.evaluate(() => ({
        ...document.querySelector<HTMLScriptElement>('script[src*="/shipping-widget.js"]')?.dataset,
      }));
      expect(dataset).toEqual({ apiUrl: sandbox.url, publicKey: 'pk_test_demo' });
      // other options later are refused: the element read its settings once
      const other = await load(page, 'loadShippingCalculator', {
        ...keys(),
        publicKey: 'pk_other',
        bffUrl: bff.url,
      });
      expect(other).toMatchObject({ name: 'WidgetLoadError', code: 'conflict' });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('rejects clearly when the page’s Content-Security-Policy blocks the script, and leaves no tag behind', async () => {
    loaderPolicy = "script-src 'self'";
    const { page } = await open('/loader.html');
    allowConsoleErrors(
      page,
      /Content Security Policy/,
      "the page's policy refuses the BFF's script on purpose: the browser logs the violation, the loader says what to allow",
    );
    try {
      const result = await load(page, 'loadShippingCalculator', { ...keys(), bffUrl: bff.url });
      expect(result).toMatchObject({ name: 'WidgetLoadError', code: 'csp' });
      expect(result.message).toContain(`allow ${bff.url} in script-src`);
      expect(result.scripts.filter((src) => src.includes('shipping-widget'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('rejects other bytes (integrity), a 404 and an unreachable server each with its reason, and tries again after', async () => {
    loaderPolicy = '';
    const { page } = await open('/loader.html');
    allowConsoleErrors(
      page,
      /integrity|status of 404 .*\/missing\//,
      'other bytes and a missing folder are served on purpose: the browser logs the blocked script and the 404',
    );
    try {
      const other = await load(page, 'loadShippingCalculator', {
        ...keys(),
        scriptsUrl: `${STORE}/other-version/`,
      });
      expect(other).toMatchObject({ code: 'integrity' });
      expect(other.message).toContain('serve the same version');
      const missing = await load(page, 'loadShippingCalculator', {
        ...keys(),
        scriptsUrl: `${STORE}/missing/`,
      });
      expect(missing).toMatchObject({ code: 'http', message: expect.stringContaining('answered 404') });
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const down = await load(page, 'loadShippingCalculator', {
        ...keys(),
        bffUrl: `http://127.0.0.1:${port}`,
      });
      expect(down).toMatchObject({ code: 'network' });
      // a failure is not kept: the right server now loads it
      expect(await load(page, 'loadShippingCalculator', { ...keys(), bffUrl: bff.url })).toMatchObject({
        ok: true,
      });
    } finally {
      await page.close();
    }
  });

  it('refuses a secret key before anything is loaded', async () => {
    loaderPolicy = '';
    const { page } = await open('/loader.html');
    try {
      const result = await load(page, 'loadShippingCalculator', {
        apiUrl: sandbox.url,
        publicKey: 'mk_test_demo',
        bffUrl: bff.url,
      });
      expect(result).toMatchObject({ code: 'config' });
      expect(result.scripts.filter((src) => src.includes('shipping-widget'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
