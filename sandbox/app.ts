import express, { type Express } from 'express';
import { ABOUT_PAGE_HEADERS, aboutPageHtml, wantsPage } from '../shared/about-page.ts';
import { buildOpenApiDocument } from '../shared/openapi.ts';
import { cepRoutes } from './cep/viacep.ts';
import { checkoutPlatformRoutes } from './checkouts/routes.ts';
import { controlRoutes } from './control/routes.ts';
import { sandboxErrorHandler, sandboxMethodNotAllowed, sandboxNotFound } from './http/errors.ts';
import { requestId } from './http/request-id.ts';
import { mcpRoutes } from './mcp/server.ts';
import { onboardingRoutes } from './partners/routes.ts';
import { restRoutes } from './rest/routes.ts';
import { type SandboxOptions, SandboxState } from './state.ts';

/** The sandbox's front page, for a browser (sandbox/README.md opens with the same). */
const SANDBOX_FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Sandbox</title><rect width="32" height="32" rx="6" fill="#57606a"/><path d="M7 11l9-4 9 4v10l-9 4-9-4z" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/></svg>';

const SANDBOX_PAGE = {
  title: 'frete-kit sandbox',
  lead: 'The shipping platform and the stores’ platforms (Shopify, Nuvemshop), emulated for development and tests: no account, no real labels. An API, not a website.',
  lines: [
    { text: 'REST API (spec 4.1–4.3), with a key of sandbox/README.md:', code: 'POST /v1/rates' },
    { text: 'The OpenAPI document:', code: '/openapi.json' },
    { text: 'MCP for agents (POST):', code: '/mcp' },
    { text: 'Control API (clock, faults, tracking scenarios; loopback only):', code: '/_sandbox/' },
    { text: 'The demo store, served by the BFF of npm start:', code: 'http://127.0.0.1:4000/demo/' },
  ],
};

export type { SandboxOptions };

/** The sandbox app and its state (tests reach the state only through HTTP; it is here for embedding). */
export interface Sandbox {
  app: Express;
  state: SandboxState;
}

/**
 * Builds the emulated platform: REST `/v1/*`, `/openapi.json`, MCP at `/mcp` with its OAuth, the control API. Does not listen.
 * @example const { app } = createSandbox(); const server = app.listen(0, '127.0.0.1');
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const state = new SandboxState(options);
  const app = express();
  app.disable('x-powered-by');
  // Spec 4: only documented endpoints exist, spelled exactly (the routers below are strict too).
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('etag', false);
  app.use(requestId);

  const openapi = JSON.stringify(buildOpenApiDocument(state.publicUrl));
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });
  app.all('/openapi.json', sandboxMethodNotAllowed('GET'));

  app.use(state.oauth.routes());
  app.use(restRoutes(state));
  app.use(mcpRoutes(state));
  app.use(onboardingRoutes(state.partners));
  app.use(checkoutPlatformRoutes(state.checkouts));
  app.use(cepRoutes(state.cep));
  app.use(controlRoutes(state));
  // A browser opening the printed URL reads what this is (shared/about-page.ts); API clients keep the JSON 404.
  app.get('/', (req, res, next) => {
    if (!wantsPage(req.headers.accept)) return next();
    res.writeHead(200, ABOUT_PAGE_HEADERS).end(aboutPageHtml(SANDBOX_PAGE));
  });
  // The sandbox's pages (the OAuth login, the partner onboarding, the one above) are opened in a browser, which asks
  // for an icon: without one it logs a 404 on each. A grey box, not the kit's blue: the tab says which server it is.
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(SANDBOX_FAVICON);
  });
  app.use(sandboxNotFound);
  app.use(sandboxErrorHandler(options.logger));
  return { app, state };
}
