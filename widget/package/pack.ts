/**
 * `npm pack` / `npm publish` of `@frete-kit/widget` (its `prepack`): fills `widget/dist/` from the root build. It builds
 * nothing itself — run `npm run build` first — so that packing never rewrites `dist/widget/` under a running BFF or
 * test. The package holds:
 *
 * - `dist/scripts/`: `shipping-widget.js`, the second script it names, `shipping-tracking.js` (the very bytes the BFF
 *   serves at `/widget/v1/`) and their `integrity.json`;
 * - `dist/index.js` + `index.d.ts`: the loader (`loader.ts`, types stripped), with this version and the scripts'
 *   integrity written in;
 * - `dist/elements.d.ts`, `react.d.ts`, `preact.d.ts`, `vue.d.ts`, `svelte.d.ts`: the types;
 * - `dist/custom-elements.json`: the Custom Elements Manifest.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { builtCalculatorApp } from '../../bff/static/calculator-app.ts';
import { sriHash } from '../../bff/static/integrity.ts';
import { customElementsManifest } from './custom-elements.ts';

const HERE = new URL('.', import.meta.url).pathname;
const WIDGET = join(HERE, '..');
const ROOT = join(WIDGET, '..');
const BUILT = join(ROOT, 'dist/widget');
const OUT = join(WIDGET, 'dist');
const TSC = join(ROOT, 'node_modules/.bin/tsc');

/** The files of one build: the calculator's two scripts and the tracking one (older second scripts stay behind). */
function builtScripts(): string[] {
  try {
    return ['shipping-widget.js', builtCalculatorApp(BUILT), 'shipping-tracking.js'];
  } catch {
    throw new Error(`${BUILT} has no build of the widgets: run npm run build at the repository's root first`);
  }
}

export function pack(): void {
  const scripts = builtScripts();
  const version = (JSON.parse(readFileSync(join(WIDGET, 'package.json'), 'utf8')) as { version: string })
    .version;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'scripts'), { recursive: true });
  const integrity: Record<string, string> = {};
  for (const file of scripts) {
    const bytes = readFileSync(join(BUILT, file));
    writeFileSync(join(OUT, 'scripts', file), bytes);
    integrity[file] = sriHash(bytes);
  }
  writeFileSync(join(OUT, 'scripts/integrity.json'), `${JSON.stringify(integrity, null, 2)}\n`);

  const build = JSON.stringify({
    version,
    integrity: {
      'shipping-widget.js': integrity['shipping-widget.js'],
      'shipping-tracking.js': integrity['shipping-tracking.js'],
    },
  });
  const loader = stripTypeScriptTypes(readFileSync(join(HERE, 'loader.ts'), 'utf8'), { mode: 'transform' });
  if (!loader.includes('const BUILD = __WIDGET_BUILD__;'))
    throw new Error('loader.ts no longer reads __WIDGET_BUILD__');
  writeFileSync(
    join(OUT, 'index.js'),
    loader.replace('const BUILD = __WIDGET_BUILD__;', `const BUILD = ${build};`),
  );

  const declarations = spawnSync(
    TSC,
    [
      '--ignoreConfig',
      '--declaration',
      '--emitDeclarationOnly',
      '--outDir',
      OUT,
      '--rootDir',
      HERE,
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--lib',
      'es2024,dom',
      '--strict',
      '--skipLibCheck',
      '--types',
      'node',
      join(HERE, 'loader.ts'),
      join(HERE, 'elements.ts'),
    ],
    { encoding: 'utf8' },
  );
  if (declarations.status !== 0)
    throw new Error(`tsc could not write the declarations:\n${declarations.stdout}`);
  renameSync(join(OUT, 'loader.d.ts'), join(OUT, 'index.d.ts'));
  for (const framework of ['react', 'preact', 'vue', 'svelte'])
    copyFileSync(join(HERE, `${framework}.d.ts`), join(OUT, `${framework}.d.ts`));
  // `import '@frete-kit/widget/react'` (not only `import type`) must not break a bundle: the subpaths resolve to this
  writeFileSync(join(OUT, 'types-only.js'), 'export {};\n');
  writeFileSync(join(OUT, 'custom-elements.json'), `${JSON.stringify(customElementsManifest(), null, 2)}\n`);
}

if (import.meta.main) pack();
