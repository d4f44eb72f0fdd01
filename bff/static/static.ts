import { access, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import express, { type Router } from 'express';
import type { ReadinessCheck } from '../http/health.ts';
import { appNamedBy, isCalculatorApp } from './calculator-app.ts';
import { INTEGRITY_FILE, type IntegrityManifest, IntegrityManifestSchema, sriHash } from './integrity.ts';

export const WIDGET_DIR = new URL('../../dist/widget/', import.meta.url).pathname;

/**
 * The major version of the widget's public surface (elements, attributes, events). `/widget/v1/…` keeps working as
 * long as that surface is compatible; the unversioned `/widget/…` is kept for pages embedded before it existed.
 */
export const WIDGET_VERSION = 'v1';

/**
 * The scripts a storefront's tags load; the BFF is not ready without them, nor without the calculator's second
 * script that `shipping-widget.js` names (bff/static/calculator-app.ts).
 */
export const WIDGET_FILES = ['shipping-widget.js', 'shipping-tracking.js'] as const;

/**
 * `/widget/v1/*` and `/widget/*`: the built bundles, loadable by any storefront: classic scripts with a
 * cross-origin resource policy and CORS that allow it (so `<script integrity crossorigin="anonymous">` works from
 * another origin), cached for a day and revalidated in the background for a week.
 */
export function widgetRoutes(dir = WIDGET_DIR): Router {
  const serve = express.static(dir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, path) => {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Access-Control-Allow-Origin', '*');
      // the calculator's second script is named by its bytes: a name always means the same file
      res.setHeader(
        'Cache-Control',
        isCalculatorApp(basename(path))
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=86400, stale-while-revalidate=604800',
      );
    },
  });
  const router = express.Router();
  router.use(`/widget/${WIDGET_VERSION}`, serve);
  router.use('/widget', serve);
  return router;
}

/**
 * Ready only when every widget script is on disk (the calculator's second script too, the very one its first was
 * built with) and, when `integrity.json` is there, each script is the one it names: a half-copied or mismatched
 * `dist/widget/` would make every storefront's `integrity` tag refuse the script.
 * Hashes are recomputed only when a file's size or modification time changes.
 */
export function widgetCheck(dir = WIDGET_DIR): ReadinessCheck {
  const hashes = new Map<string, { stamp: string; hash: string }>();
  const hashOf = async (file: string): Promise<string> => {
    const info = await stat(join(dir, file));
    const stamp = `${info.size}:${info.mtimeMs}`;
    const known = hashes.get(file);
    if (known?.stamp === stamp) return known.hash;
    const hash = sriHash(await readFile(join(dir, file)));
    hashes.set(file, { stamp, hash });
    return hash;
  };
  return async () => {
    const detail = await widgetProblem(dir, hashOf);
    return detail ? { name: 'widget', ok: false, detail } : { name: 'widget', ok: true };
  };
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** What keeps the widget scripts from being served as built, if anything. */
async function widgetProblem(
  dir: string,
  hashOf: (file: string) => Promise<string>,
): Promise<string | undefined> {
  const missing: string[] = [];
  for (const file of WIDGET_FILES) if (!(await exists(join(dir, file)))) missing.push(file);
  if (missing.length > 0)
    return `widget files missing: ${missing.join(', ')} (run npm run build, or copy dist/widget/)`;
  let manifest: IntegrityManifest | undefined;
  try {
    manifest = IntegrityManifestSchema.parse(JSON.parse(await readFile(join(dir, INTEGRITY_FILE), 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return `${INTEGRITY_FILE} is not a valid manifest (run npm run build)`;
  }
  const app = await calculatorAppCheck(dir, hashOf);
  if (app || !manifest) return app;
  const mismatched: string[] = [];
  for (const file of WIDGET_FILES) {
    if (manifest[file] !== (await hashOf(file))) mismatched.push(file);
  }
  return mismatched.length === 0
    ? undefined
    : `widget files do not match ${INTEGRITY_FILE}: ${mismatched.join(', ')} (copy dist/widget/ whole, from one build)`;
}

/**
 * What is wrong with the calculator's second script, if anything: `shipping-widget.js` names one that is not on
 * disk, or not the bytes it was built with (the browser would refuse it: every calculator says "unavailable").
 */
async function calculatorAppCheck(
  dir: string,
  hashOf: (file: string) => Promise<string>,
): Promise<string | undefined> {
  const first = await readFile(join(dir, 'shipping-widget.js'), 'utf8');
  const app = appNamedBy(first);
  if (!app) return 'shipping-widget.js names no second script (run npm run build)';
  if (!(await exists(join(dir, app))))
    return `widget files missing: ${app}, the calculator's second script (copy dist/widget/ whole, from one build)`;
  return first.includes(await hashOf(app))
    ? undefined
    : `${app} is not the one shipping-widget.js was built with (copy dist/widget/ whole, from one build)`;
}
