import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Figure } from './stats.ts';

const ROOT = new URL('..', import.meta.url).pathname;

function sizes(code: Buffer) {
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The design-card libraries alone (preact + signals, ky, zod/mini), each used enough not to be shaken out. */
async function floorBundle(): Promise<Buffer> {
  const entry = `${ROOT}bench/.floor-entry.ts`;
  writeFileSync(
    entry,
    `import { h, render } from 'preact';
import { useState } from 'preact/hooks';
import { signal, computed, effect } from '@preact/signals';
import ky from 'ky';
import * as z from 'zod/mini';
const S = z.object({ a: z.string(), b: z.optional(z.array(z.number())) });
(globalThis as any).__floor = { h, render, useState, signal, computed, effect, ky, parse: (v: unknown) => S.safeParse(v) };
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
  const widget = sizes(readFileSync(`${ROOT}dist/widget/shipping-widget.js`));
  const floor = sizes(await floorBundle());
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return {
    id: 1,
    figure: 'widget bundle raw / gzip / brotli',
    value: `${kb(widget.raw)} / ${kb(widget.gzip)} / ${kb(widget.brotli)}`,
    comparedWith: `libraries alone ${kb(floor.raw)} / ${kb(floor.gzip)} / ${kb(floor.brotli)} (widget ${(widget.gzip / floor.gzip).toFixed(2)}× the floor, gzip)`,
    goal: '≤ 24 KB gzip (aim 20 KB)',
    met: widget.gzip <= 24 * 1024,
    data: { widget, floor },
  };
}
