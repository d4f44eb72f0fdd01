import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { startBff } from '../testing.ts';
import { builtCalculatorApp } from './calculator-app.ts';
import {
  buildIntegrityManifest,
  INTEGRITY_FILE,
  IntegrityManifestSchema,
  writeIntegrityManifest,
} from './integrity.ts';
import { WIDGET_DIR, WIDGET_FILES, WIDGET_VERSION, widgetCheck } from './static.ts';

/** The calculator's second script of this build: the one its first names (bff/static/calculator-app.ts). */
const APP = builtCalculatorApp(WIDGET_DIR);

/** Computed here with node:crypto directly, not with the module under test. */
const sha384 = (bytes: Uint8Array) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('the integrity manifest written by npm run build', () => {
  it('has the sha384 of every built script, and nothing else', () => {
    const manifest = IntegrityManifestSchema.parse(
      JSON.parse(readFileSync(join(WIDGET_DIR, INTEGRITY_FILE), 'utf8')),
    );
    const scripts = readdirSync(WIDGET_DIR).filter((name) => name.endsWith('.js'));
    expect(Object.keys(manifest).sort()).toEqual(scripts.sort());
    for (const file of WIDGET_FILES) expect(scripts).toContain(file);
    for (const file of scripts) expect(manifest[file]).toBe(sha384(readFileSync(join(WIDGET_DIR, file))));
  });

  it('changes when one byte of a script changes, so a stale manifest cannot pass the check above', () => {
    const dir = mkdtempSync(join(tmpdir(), 'widget-sri-'));
    for (const file of WIDGET_FILES) copyFileSync(join(WIDGET_DIR, file), join(dir, file));
    const before = writeIntegrityManifest(dir);
    const file = join(dir, 'shipping-widget.js');
    writeFileSync(file, `${readFileSync(file, 'utf8')} `);
    const after = buildIntegrityManifest(dir);
    expect(after['shipping-widget.js']).not.toBe(before['shipping-widget.js']);
    expect(after['shipping-tracking.js']).toBe(before['shipping-tracking.js']);
    expect(Object.keys(before)).toEqual(['shipping-tracking.js', 'shipping-widget.js']);
  });

  it('refuses a manifest entry that is not a sha384 value', () => {
    expect(IntegrityManifestSchema.safeParse({ 'shipping-widget.js': 'sha256-abc' }).success).toBe(false);
    expect(IntegrityManifestSchema.safeParse({ '../x.js': sha384(new Uint8Array()) }).success).toBe(false);
  });
});

describe('GET /widget/v1/* and /widget/*', () => {
  it('serves the same bytes on both paths, matching the manifest, with headers that let SRI work cross-origin', async () => {
    const bff = await startBff(sandbox.url);
    try {
      const manifestRes = await fetch(`${bff.url}/widget/${WIDGET_VERSION}/${INTEGRITY_FILE}`, {
        headers: { origin: 'https://loja.example' },
      });
      expect(manifestRes.status).toBe(200);
      expect(manifestRes.headers.get('access-control-allow-origin')).toBe('*');
      const manifest = IntegrityManifestSchema.parse(await manifestRes.json());
      for (const file of WIDGET_FILES) {
        const versioned = await fetch(`${bff.url}/widget/${WIDGET_VERSION}/${file}`, {
          headers: { origin: 'https://loja.example' },
        });
        const plain = await fetch(`${bff.url}/widget/${file}`);
        expect(versioned.status).toBe(200);
        expect(plain.status).toBe(200);
        expect(versioned.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
        expect(versioned.headers.get('access-control-allow-origin')).toBe('*');
        expect(versioned.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
        const bytes = new Uint8Array(await versioned.arrayBuffer());
        expect(new Uint8Array(await plain.arrayBuffer())).toEqual(bytes);
        expect(sha384(bytes)).toBe(manifest[file]);
      }
      expect(APP).toBeDefined();
      const app = await fetch(`${bff.url}/widget/${WIDGET_VERSION}/${APP}`);
      expect(app.status).toBe(200);
      expect(sha384(new Uint8Array(await app.arrayBuffer()))).toBe(manifest[APP]);
      // named by its bytes: cached for good; the first script (its name stays) for a day
      expect(app.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const first = await fetch(`${bff.url}/widget/${WIDGET_VERSION}/shipping-widget.js`);
      expect(first.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
      expect((await fetch(`${bff.url}/widget/v2/shipping-widget.js`)).status).toBe(404);
      expect((await fetch(`${bff.url}/widget/v1/..%2f..%2fpackage.json`)).status).toBe(404);
    } finally {
      await bff.stop();
    }
  });
});

describe('/readyz and the widget files', () => {
  it('answers 503 when a script does not match integrity.json (a half-copied or mixed dist/widget/), 200 once it does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'widget-mixed-'));
    for (const file of [...WIDGET_FILES, APP, INTEGRITY_FILE])
      copyFileSync(join(WIDGET_DIR, file), join(dir, file));
    const check = widgetCheck(dir);
    expect(await check()).toEqual({ name: 'widget', ok: true });
    const original = readFileSync(join(dir, 'shipping-tracking.js'));
    writeFileSync(join(dir, 'shipping-tracking.js'), original.subarray(0, original.length >> 1));
    expect(await check()).toEqual({
      name: 'widget',
      ok: false,
      detail:
        'widget files do not match integrity.json: shipping-tracking.js (copy dist/widget/ whole, from one build)',
    });
    writeFileSync(join(dir, 'shipping-tracking.js'), original);
    expect(await check()).toEqual({ name: 'widget', ok: true });
    writeFileSync(join(dir, INTEGRITY_FILE), '{"shipping-widget.js": "md5-x"}');
    expect((await check()).detail).toBe('integrity.json is not a valid manifest (run npm run build)');
  });

  it('answers 503 when the widget was never built, and names the missing files', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'widget-none-'));
    const bff = await startBff(sandbox.url, {}, { widgetDir: empty });
    try {
      const res = await fetch(`${bff.url}/readyz`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { ok: boolean }).ok).toBe(false);
      expect((await fetch(`${bff.url}/widget/shipping-widget.js`)).status).toBe(404);
    } finally {
      await bff.stop();
    }
    expect(await widgetCheck(empty)()).toEqual({
      name: 'widget',
      ok: false,
      detail:
        'widget files missing: shipping-widget.js, shipping-tracking.js (run npm run build, or copy dist/widget/)',
    });
  });

  it('answers 503 when one script of the two is missing, and 200 once both are there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'widget-half-'));
    copyFileSync(join(WIDGET_DIR, 'shipping-widget.js'), join(dir, 'shipping-widget.js'));
    copyFileSync(join(WIDGET_DIR, APP), join(dir, APP));
    const bff = await startBff(sandbox.url, {}, { widgetDir: dir });
    try {
      expect((await fetch(`${bff.url}/readyz`)).status).toBe(503);
      expect((await widgetCheck(dir)()).detail).toMatch(/missing: shipping-tracking\.js \(/);
      copyFileSync(join(WIDGET_DIR, 'shipping-tracking.js'), join(dir, 'shipping-tracking.js'));
      expect((await fetch(`${bff.url}/readyz`)).status).toBe(200);
      expect(await widgetCheck(dir)()).toEqual({ name: 'widget', ok: true });
    } finally {
      await bff.stop();
    }
  });

  it('answers 503 without the calculator’s second script its first names, or with other bytes under that name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'widget-app-'));
    for (const file of WIDGET_FILES) copyFileSync(join(WIDGET_DIR, file), join(dir, file));
    // an older second script beside it does not stand in for the one the first was built with
    writeFileSync(join(dir, 'shipping-widget-app.000000000000.js'), readFileSync(join(WIDGET_DIR, APP)));
    const check = widgetCheck(dir);
    expect(await check()).toEqual({
      name: 'widget',
      ok: false,
      detail: `widget files missing: ${APP}, the calculator's second script (copy dist/widget/ whole, from one build)`,
    });
    const bytes = readFileSync(join(WIDGET_DIR, APP));
    writeFileSync(join(dir, APP), Buffer.concat([bytes, Buffer.from('\n')]));
    expect(await check()).toEqual({
      name: 'widget',
      ok: false,
      detail: `${APP} is not the one shipping-widget.js was built with (copy dist/widget/ whole, from one build)`,
    });
    writeFileSync(join(dir, APP), bytes);
    expect(await check()).toEqual({ name: 'widget', ok: true });
    writeFileSync(
      join(dir, 'shipping-widget.js'),
      'customElements.define("x", class extends HTMLElement {});',
    );
    expect((await check()).detail).toBe('shipping-widget.js names no second script (run npm run build)');
  });
});
