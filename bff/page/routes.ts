import { readFileSync } from 'node:fs';
import { Router } from 'express';
import { logoOrigin, renderTrackPage, type StoreBranding } from './track-page.ts';

const CSS = readFileSync(new URL('./track.css', import.meta.url), 'utf8');
const FAVICON = readFileSync(new URL('./favicon.svg', import.meta.url), 'utf8');

/** `GET /track` (`?codes=…` prefills): the order-tracking page with `<shipping-tracking>`, branded for the store. */
export function pageRoutes(
  store: StoreBranding = { name: undefined, url: undefined, logoUrl: undefined },
): Router {
  const router = Router();
  const page = renderTrackPage(store);
  const logo = logoOrigin(store);
  router.get('/track', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    const csp = res.getHeader('content-security-policy');
    // helmet allows images from 'self' and data: only; the store's logo may live on its own CDN
    if (logo && typeof csp === 'string')
      res.setHeader('content-security-policy', csp.replace(/img-src ([^;]*)/, `img-src $1 ${logo}`));
    res.type('html').send(page);
  });
  router.get('/track.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(CSS);
  });
  // A favicon, so no browser logs a 404 on the tracking page (and the demo pages).
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type('image/svg+xml').send(FAVICON);
  });
  return router;
}
