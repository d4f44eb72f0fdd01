import express, { type RequestHandler, type Response, type Router } from 'express';
import { pageHeaders } from '../../shared/security/page-headers.ts';
import { sandboxMethodNotAllowed } from '../http/errors.ts';
import { strictRouter } from '../http/router.ts';
import type { MerchantDesk } from './desk.ts';
import { readFields, validateForm } from './form.ts';
import { donePage, formPage, keysPage, notFoundPage, ONBOARDING_CSS } from './page.ts';

/**
 * No script at all, styles from our own file, posts only to ourselves, never framed, never kept by a browser or a
 * proxy (the keys page). The form needs no CSRF token: it acts on no cookie or session, only on the secret token in
 * its own URL, which another site's page does not know.
 */
function html(res: Response, status: number, body: string): void {
  res
    .status(status)
    .set({ 'Content-Type': 'text/html; charset=utf-8', ...pageHeaders() })
    .send(body);
}

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

function merchantOf(desk: MerchantDesk, token: unknown) {
  return typeof token === 'string' && TOKEN.test(token) ? desk.withToken(token) : undefined;
}

/** A small form: a few fields, no nesting (`extended: false`), refused beyond 8 kB. */
const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 30 });

/** `GET|POST /onboarding/:token`: the page where a merchant a partner created finishes the configuration. */
export function onboardingRoutes(desk: MerchantDesk): Router {
  const router = strictRouter();

  router.get('/onboarding.css', (_req, res) => {
    res.type('text/css').set('Cache-Control', 'public, max-age=300').send(ONBOARDING_CSS);
  });

  router.get('/onboarding/:token', (req, res) => {
    const merchant = merchantOf(desk, req.params.token);
    if (!merchant) return html(res, 404, notFoundPage());
    if (merchant.status === 'active') return html(res, 200, donePage(merchant.name));
    html(res, 200, formPage(merchant.name, undefined));
  });

  router.post('/onboarding/:token', formBody, (req, res) => {
    const merchant = merchantOf(desk, req.params.token);
    if (!merchant) return html(res, 404, notFoundPage());
    if (merchant.status === 'active') return html(res, 409, donePage(merchant.name));
    const fields = readFields(req.body);
    const result = validateForm(fields);
    if (!result.ok) return html(res, 400, formPage(merchant.name, fields, result.errors));
    const keys = desk.complete(merchant, result.choices);
    if (!keys) return html(res, 409, donePage(merchant.name));
    html(res, 201, keysPage(merchant.name, merchant.merchantId, keys));
  });
  router.all('/onboarding/:token', sandboxMethodNotAllowed('GET, POST'));

  return router;
}
