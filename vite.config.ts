import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { sriHash, writeIntegrityManifest } from './bff/static/integrity.ts';
import { TEST_TAGS } from './scripts/test-tags.ts';
import { CALCULATOR_APP_FILE } from './widget/calculator/files.ts';
import { validatorsPlugin } from './widget/validators/plugin.ts';

/**
 * Each widget bundle is one classic script (IIFE): `--mode calculator-app` for the calculator's second script (built
 * first), `vite build` for its first (which names the second by its hash), `--mode tracking` for tracking.
 */
const BUNDLES = {
  production: { entry: 'widget/calculator/entry.ts', file: 'shipping-widget.js', name: 'ShippingCalculator' },
  'calculator-app': {
    entry: 'widget/calculator/app-entry.ts',
    file: CALCULATOR_APP_FILE,
    name: 'ShippingCalculatorApp',
  },
  tracking: { entry: 'widget/tracking/entry.ts', file: 'shipping-tracking.js', name: 'ShippingTracking' },
} as const;

/** What the calculator's first script knows of its second (widget/calculator/loader.ts): read from the built file. */
function calculatorApp(): { file: string; integrity: string; version: string } {
  const path = `dist/widget/${CALCULATOR_APP_FILE}`;
  if (!existsSync(path))
    throw new Error(`${path} is missing: build it first (vite build --mode calculator-app)`);
  const bytes = readFileSync(path);
  return {
    file: CALCULATOR_APP_FILE,
    integrity: sriHash(bytes),
    version: createHash('sha256').update(bytes).digest('hex').slice(0, 12),
  };
}

/** After each bundle is written, `dist/widget/integrity.json` is rewritten with the sha384 of every script there. */
function integrityManifest(): Plugin {
  return {
    name: 'frete-kit:integrity-manifest',
    apply: 'build',
    writeBundle(options) {
      if (options.dir) writeIntegrityManifest(options.dir);
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

export default defineConfig(({ command, mode }) => {
  if (mode === 'desk') return DESK;
  const bundle = mode === 'tracking' || mode === 'calculator-app' ? BUNDLES[mode] : BUNDLES.production;
  const calculator = command === 'build' && bundle === BUNDLES.production;
  return {
    plugins: [validatorsPlugin(), preact(), integrityManifest()],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      ...(calculator ? { __CALCULATOR_APP__: JSON.stringify(calculatorApp()) } : {}),
    },
    build: {
      outDir: 'dist/widget',
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: true,
      lib: { entry: bundle.entry, formats: ['iife'], name: bundle.name, fileName: () => bundle.file },
    },
    test: {
      include: ['{shared,sandbox,bff,widget,e2e,scripts,testing}/**/*.test.{ts,tsx}'],
      reporters: ['default', './scripts/summary-reporter.ts'],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      tags: TEST_TAGS,
    },
  };
});
