import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { builtCalculatorApp } from '../bff/static/calculator-app.ts';
import type { Figure } from './stats.ts';

const ROOT = new URL('..', import.meta.url).pathname;

function sizes(code: Buffer) {
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/**
 * The libraries the widgets ship, alone (preact + @preact/signals-core), each used enough not to be shaken out. zod is
 * not among them any more: the widgets check shapes with validators generated from the zod schemas at build time.
 */
async function floorBundle(): Promise<Buffer> {
  const entry = `${ROOT}bench/.floor-entry.ts`;
  writeFileSync(
    entry,
    `import { h, render } from 'preact';
import { signal, computed, effect } from '@preact/signals-core';
(globalThis as any).__floor = { h, render, signal, computed, effect };
`,
  );
  try {
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      root: ROOT,
      build: {
        write: false,
        target: 'es2022',
        lib: { entry, formats: ['iife'], name: 'Floor', fileName: () => 'floor.js' },
      },
    });
    const output = (Array.isArray(result) ? result[0] : result) as {
      output: { type: string; code?: string }[];
    };
    const chunk = output.output.find((item) => item.type === 'chunk');
    return Buffer.from(chunk?.code ?? '');
  } finally {
    rmSync(entry, { force: true });
  }
}

export async function measureSize(): Promise<Figure> {
  // The calculator is two scripts: the first paints the form, the second (loaded after that paint) is the calculator.
  const first = sizes(readFileSync(`${ROOT}dist/widget/shipping-widget.js`));
  const second = sizes(readFileSync(`${ROOT}dist/widget/${builtCalculatorApp(`${ROOT}dist/widget`)}`));
  const widget = {
    raw: first.raw + second.raw,
    gzip: first.gzip + second.gzip,
    brotli: first.brotli + second.brotli,
  };
  const tracking = sizes(readFileSync(`${ROOT}dist/widget/shipping-tracking.js`));
  const floor = sizes(await floorBundle());
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const three = (s: { raw: number; gzip: number; brotli: number }) =>
    `${kb(s.raw)} / ${kb(s.gzip)} / ${kb(s.brotli)}`;
  return {
    id: 1,
    figure:
      'widget bundles raw / gzip / brotli: the calculator (its two scripts together); the tracking element',
    value: `${three(widget)} (first script ${kb(first.gzip)} gzip, second ${kb(second.gzip)}); ${three(tracking)}`,
    comparedWith: `preact + @preact/signals-core alone ${three(floor)} (calculator ${(widget.gzip / floor.gzip).toFixed(2)}× the floor, gzip)`,
    goal: 'calculator ≤ 18 KB gzip; tracking ≤ 15 KB gzip',
    met: widget.gzip <= 18 * 1024 && tracking.gzip <= 15 * 1024,
    data: { widget, first, second, tracking, floor },
  };
}
