import { availableParallelism } from 'node:os';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { writeAppDocuments } from './bff/mcp/apps/documents.ts';
import { currentCalculatorApp, nameCalculatorApp } from './bff/static/calculator-app.ts';
import { writeIntegrityManifest } from './bff/static/integrity.ts';
import { TEST_TAGS } from './scripts/test-tags.ts';
import LongestFirst from './testing/sequencer.ts';
import { validatorsPlugin } from './widget/validators/plugin.ts';

/**
 * Each widget bundle is one classic script (IIFE): `--mode calculator-app` for the calculator's second script (built
 * first, then named by its hash: bff/static/calculator-app.ts), `vite build` for its first (which embeds that name
 * and its integrity), `--mode tracking` for tracking.
 */
const BUNDLES = {
  production: { entry: 'widget/calculator/entry.ts', file: 'shipping-widget.js', name: 'ShippingCalculator' },
  'calculator-app': {
    entry: 'widget/calculator/app-entry.ts',
    file: 'shipping-widget-app.js',
    name: 'ShippingCalculatorApp',
  },
  tracking: { entry: 'widget/tracking/entry.ts', file: 'shipping-tracking.js', name: 'ShippingTracking' },
} as const;

/** A build step run on the output folder once a bundle is written. */
function afterWrite(name: string, step: (dir: string) => unknown): Plugin {
  return {
    name: `frete-kit:${name}`,
    apply: 'build',
    writeBundle(options) {
      if (options.dir) step(options.dir);
    },
  };
}

/**
 * The label desk's script (`--mode desk`): one ES module for the /admin pages, served by the BFF from `dist/desk/`
 * (bff/desk/pages.ts). Not a widget: no Preact, no integrity manifest, never loaded by a storefront.
 */
const DESK = {
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/desk',
    minify: true,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: { entry: 'bff/desk/client/desk.ts', formats: ['es' as const], fileName: () => 'desk.js' },
  },
};

/**
 * The MCP apps (`--mode apps`): one ES module for the four views, then one self-contained HTML document per app in
 * `dist/apps/` (bff/mcp/apps/documents.ts), which the BFF serves as `ui://` resources. Nothing is fetched at run time.
 */
const APPS = {
  plugins: [preact(), afterWrite('app-documents', writeAppDocuments)],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/apps',
    minify: true,
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'bff/mcp/apps/view/main.tsx', formats: ['es' as const], fileName: () => 'apps.js' },
  },
};

export default defineConfig(({ command, mode }) => {
  if (mode === 'desk') return DESK;
  if (mode === 'apps') return APPS;
  const bundle = mode === 'tracking' || mode === 'calculator-app' ? BUNDLES[mode] : BUNDLES.production;
  const calculator = command === 'build' && bundle === BUNDLES.production;
  return {
    plugins: [
      validatorsPlugin(),
      preact(),
      // the calculator's second script is renamed by its hash before the integrity manifest is written
      ...(mode === 'calculator-app' ? [afterWrite('calculator-app-name', nameCalculatorApp)] : []),
      // after each bundle, `dist/widget/integrity.json` is rewritten with the sha384 of every script there
      afterWrite('integrity-manifest', writeIntegrityManifest),
    ],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      ...(calculator ? { __CALCULATOR_APP__: JSON.stringify(currentCalculatorApp('dist/widget')) } : {}),
    },
    build: {
      outDir: 'dist/widget',
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: true,
      lib: { entry: bundle.entry, formats: ['iife'], name: bundle.name, fileName: () => bundle.file },
    },
    test: {
      include: ['{shared,sandbox,bff,widget,e2e,scripts,testing,bench}/**/*.test.{ts,tsx}'],
      reporters: ['default', './scripts/summary-reporter.ts'],
      // Nothing a test starts outlives its file, or the run (testing/processes.ts).
      globalSetup: ['testing/global-setup.ts'],
      // every fast-check property draws from one fixed seed unless FC_SEED says otherwise (testing/fast-check-setup.ts)
      setupFiles: ['testing/setup.ts', 'testing/fast-check-setup.ts'],
      // Most test files wait (on servers, browsers, sockets) more than they compute: one worker per core left the
      // two cores a third busy (issue 40's measurement: 390 s of CPU over 531 s). One more worker than cores keeps them
      // busy. Workers are reused across files (no isolation): each file no longer pays a process and the same imports
      // (zod, Express, the MCP SDK, our shared modules) again — the mutation runs have relied on the same for a year.
      // What a file starts, it stops (testing/setup.ts checks), and files restore what they change (TZ, env).
      maxWorkers: availableParallelism() + 1,
      isolate: false,
      sequence: { sequencer: LongestFirst },
      testTimeout: 20_000,
      // expect.poll waits for a state the code reaches on its own (a page rendered, a row settled); vitest's 1 s
      // default is a machine speed, not a rule: a stressed soak run missed it once (docs/testing.md, "A suite that does
      // not flake"). A poll still fails when the state never comes; only its wait is longer.
      expect: { poll: { timeout: 10_000 } },
      hookTimeout: 60_000,
      tags: TEST_TAGS,
    },
  };
});
