import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../dist/widget/', import.meta.url).pathname;
/** Budgets, all libraries included (gzip, level 9): issue 28 brought the calculator from 24,040 B to under 18 KB. */
const BUDGETS = { 'shipping-widget.js': 18 * 1024, 'shipping-tracking.js': 15 * 1024 };

describe.each(Object.entries(BUDGETS))('the bundle %s', (file, budget) => {
  it(`is one classic script within ${budget / 1024} KB gzip, with no secret key, no eval and no zod`, () => {
    const path = `${DIST}${file}`;
    expect(existsSync(path), 'run npm run build first').toBe(true);
    const source = readFileSync(path);
    expect(gzipSync(source, { level: 9 }).length).toBeLessThanOrEqual(budget);
    const text = source.toString('utf8');
    expect(text).not.toMatch(/mk_[a-z0-9_]/i);
    expect(text).not.toMatch(/\beval\(|new Function\(/);
    expect(text).not.toMatch(/^\s*(import|export)\s/m);
    // the shapes are checked by validators generated from the zod schemas at build time, not by zod itself
    expect(text).not.toMatch(/zod|ZodError|\$ZodType/i);
    // Nothing global but the custom elements: one anonymous IIFE, no named export.
    expect(text.startsWith('(function(){')).toBe(true);
  });
});
