import { readFileSync } from 'node:fs';
import { Router } from 'express';

const PAGE = readFileSync(new URL('./track.html', import.meta.url), 'utf8');
const CSS = readFileSync(new URL('./track.css', import.meta.url), 'utf8');

/** `GET /track` (`?codes=…` prefills): the order-tracking page with `<shipping-tracking>`. */
export function pageRoutes(): Router {
  const router = Router();
  router.get('/track', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  router.get('/track.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(CSS);
  });
  return router;
}
