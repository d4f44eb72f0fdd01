import express, { Router } from 'express';

export const WIDGET_DIR = new URL('../../dist/widget/', import.meta.url).pathname;

/**
 * `/widget/*`: the built bundles, loadable by any storefront: classic scripts with a cross-origin resource policy
 * and CORS that allow it, cached for a day and revalidated in the background for a week.
 */
export function widgetRoutes(dir = WIDGET_DIR): Router {
  const router = Router();
  router.use(
    '/widget',
    express.static(dir, {
      index: false,
      fallthrough: true,
      setHeaders: (res) => {
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cache-Control', 'public, max-age=86400, stale-while-revalidate=604800');
      },
    }),
  );
  return router;
}
