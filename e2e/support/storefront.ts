import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { demoCsp, readDemoFile } from '../../bff/demo/pages.ts';

const DIST = new URL('../../dist/widget/', import.meta.url).pathname;

export interface Storefront {
  /** On `localhost`, so the sandbox on 127.0.0.1 is another origin: CORS is real. */
  url: string;
  close(): Promise<void>;
}

/** A static server for the demo pages and the built widget, with a strict CSP. */
export async function startStorefront(options: {
  apiUrl: string;
  publicKey: string;
  trackingUrl?: string;
}): Promise<Storefront> {
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/widget/')) {
      try {
        const body = await readFile(join(DIST, path.slice('/widget/'.length).replace(/\.\./g, '')));
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    if (path === '/favicon.ico') {
      // A store has one: no browser line about a missing icon on the demo pages (e2e/support/browser.ts).
      res.writeHead(204).end();
      return;
    }
    const file = await readDemoFile(path.replace(/^\/demo\/?/, '').replace(/^\//, ''), {
      apiUrl: options.apiUrl,
      publicKey: options.publicKey,
      widgetUrl: `${origin}/widget/shipping-widget.js`,
      trackingUrl: options.trackingUrl ?? '/track',
      // No BFF beside this store: the calculator works its dates out itself.
      promisesUrl: '',
    });
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, {
        'content-type': file.type,
        'content-security-policy': demoCsp(new URL(options.apiUrl).origin, origin),
      })
      .end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/demo/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
