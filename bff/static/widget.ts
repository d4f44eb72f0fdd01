import { access } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type Router } from 'express';
import type { ReadinessCheck } from '../http/health.ts';

export const WIDGET_DIR = new URL('../../dist/widget/', import.meta.url).pathname;

/**
 * The major version of the widget's public surface (elements, attributes, events). `/widget/v1/…` keeps working as
 * long as that surface is compatible; the unversioned `/widget/…` is kept for pages embedded before it existed.
 */
export const WIDGET_VERSION = 'v1';

/** The scripts a storefront loads; the BFF is not ready without them. */
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
    setHeaders: (res) => {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'public, max-age=86400, stale-while-revalidate=604800');
    },
  });
  const router = express.Router();
  router.use(`/widget/${WIDGET_VERSION}`, serve);
  router.use('/widget', serve);
  return router;
}

/** Ready only when every widget script is on disk: without `npm run build` a storefront would load a 404. */
export function widgetCheck(dir = WIDGET_DIR): ReadinessCheck {
  return async () => {
    const missing: string[] = [];
    for (const file of WIDGET_FILES) {
      try {
        await access(join(dir, file));
      } catch {
        missing.push(file);
      }
    }
    return missing.length === 0
      ? { name: 'widget', ok: true }
      : {
          name: 'widget',
          ok: false,
          detail: `widget files missing: ${missing.join(', ')} (run npm run build, or copy dist/widget/)`,
        };
  };
}
