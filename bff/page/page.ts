import { readFileSync } from 'node:fs';
import { type Request, type Response, Router } from 'express';
import { type Locale, localeOf, negotiateLocale } from '../../shared/locale.ts';
import type { TrackingLinks } from '../orders/links.ts';
import type { OrderLookup } from '../orders/lookup.ts';
import { logoOrigin, renderTrackPage, type StoreBranding, type TrackPageView } from './track-page.ts';

const CSS = readFileSync(new URL('./track.css', import.meta.url), 'utf8');
const FAVICON = readFileSync(new URL('./favicon.svg', import.meta.url), 'utf8');

export interface PageDeps {
  store?: StoreBranding;
  /** Signed links (`/track/s/<token>`) and the order behind one; without them such links are not served. */
  links?: TrackingLinks;
  orders?: OrderLookup;
}

/** The page's language: `?lang=` (pt-BR, en, es), else the browser's `Accept-Language`, else pt-BR. */
export function pageLocale(req: Request): Locale {
  const asked = typeof req.query.lang === 'string' ? localeOf(req.query.lang) : undefined;
  return asked ?? negotiateLocale(req.headers['accept-language']) ?? 'pt-BR';
}

/**
 * `GET /track` (`?codes=…` prefills; `?lang=` or `Accept-Language` picks pt-BR, en or es): the order-tracking page
 * with `<shipping-tracking>`, branded for the store. `GET /track/s/<token>`: the page of the order a signed link names;
 * a tampered, expired or unknown token gets one 404 page that says the link is not valid, and nothing else.
 */
export function pageRoutes(deps: PageDeps = {}): Router {
  const store = deps.store ?? { name: undefined, url: undefined, logoUrl: undefined };
  const router = Router();
  const logo = logoOrigin(store);

  const send = (req: Request, res: Response, status: number, view: TrackPageView) => {
    res.setHeader('Vary', 'Accept-Language');
    const csp = res.getHeader('content-security-policy');
    // helmet allows images from 'self' and data: only; the store's logo may live on its own CDN
    if (logo && typeof csp === 'string')
      res.setHeader('content-security-policy', csp.replace(/img-src ([^;]*)/, `img-src $1 ${logo}`));
    res
      .status(status)
      .type('html')
      .send(renderTrackPage(store, pageLocale(req), view));
  };

  router.get('/track', (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    send(req, res, 200, { kind: 'lookup' });
  });
  router.get('/track/s/:token', async (req, res) => {
    // The token is a key to the order's page: never cached, never sent on as a referrer (helmet: no-referrer).
    res.setHeader('Cache-Control', 'no-store');
    const attemptId = deps.links?.verify(String(req.params.token));
    const order = attemptId ? await deps.orders?.byLabel(attemptId) : undefined;
    if (!order || order.parcels.length === 0) return send(req, res, 404, { kind: 'bad-link' });
    send(req, res, 200, {
      kind: 'order',
      orderId: order.orderId,
      codes: order.parcels.flatMap((parcel) => parcel.trackingCode ?? []),
    });
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
