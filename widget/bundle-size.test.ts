import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../dist/widget/', import.meta.url).pathname;
/** The budget of the calculator bundle, all libraries included (the aim is 20 KB). */
const BUDGET_GZIP_BYTES = 24 * 1024;

describe('the calculator bundle', () => {
  it('is one classic script within 24 KB gzip, with no secret key and no eval', () => {
    const file = `${DIST}shipping-widget.js`;
    expect(existsSync(file), 'run npm run build first').toBe(true);
    const source = readFileSync(file);
    expect(gzipSync(source, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
    const text = source.toString('utf8');
    expect(text).not.toMatch(/mk_[a-z0-9_]/i);
    expect(text).not.toMatch(/\beval\(|new Function\(/);
    expect(text).not.toMatch(/^\s*(import|export)\s/m);
    // Nothing global but the custom elements: one anonymous IIFE, no named export.
    expect(text.startsWith('(function(){')).toBe(true);
  });
});
