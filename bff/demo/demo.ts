import { Router } from 'express';
import type { BffConfig } from '../config.ts';
import { demoCsp, readDemoFile } from './pages.ts';

/**
 * `/demo/`: the demo storefront (product and cart pages with the calculator), wired to the configured platform URL
 * and public key. Without `SHIPPING_PUBLIC_KEY` it explains what is missing.
 */
export function demoRoutes(config: BffConfig): Router {
  const router = Router();
  router.get('/demo{/*path}', async (req, res, next) => {
    if (req.originalUrl === '/demo') return res.redirect(301, '/demo/');
    if (!config.publicKey) {
      res
        .status(503)
        .type('text/plain')
        .send('The demo pages need SHIPPING_PUBLIC_KEY (pk_…) to quote from the browser.');
      return;
    }
    const name = req.path.slice('/demo/'.length);
    const file = await readDemoFile(name, {
      apiUrl: config.apiUrl,
      publicKey: config.publicKey,
      widgetUrl: '/widget/shipping-widget.js',
      trackingUrl: '/track',
      inboxUrl: demoInboxOf(config),
      // the merchant's shipping rules, from this BFF (docs/shipping-rules.md)
      rulesUrl: '/api/shipping-rules',
    });
    if (!file) return next();
    res.setHeader('Content-Security-Policy', demoCsp(new URL(config.apiUrl).origin, "'self'"));
    res.setHeader('Cache-Control', 'no-cache');
    res.type(file.type).send(file.body);
  });
  return router;
}

/**
 * The outbox of `npm start` (scripts/demo/inbox.ts), which takes the webhooks at `<its origin>/hooks` on loopback:
 * its origin, so the demo's front page links its e-mails and webhooks; undefined for any other webhook endpoint.
 */
function demoInboxOf(config: BffConfig): string | undefined {
  const url = config.notifications.webhookUrl;
  if (!url) return undefined;
  const parsed = new URL(url);
  return parsed.pathname === '/hooks' && parsed.hostname === '127.0.0.1' ? parsed.origin : undefined;
}
