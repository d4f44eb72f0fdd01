import { readFileSync } from 'node:fs';
import {
  type McpUiReadResourceResult,
  RESOURCE_MIME_TYPE,
  registerAppResource,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The apps the BFF serves, each one HTML document built by `vite build --mode apps` into `dist/apps/`. */
export const APPS = {
  quote: {
    uri: 'ui://frete-kit/quote.html',
    name: 'Shipping options',
    description: 'The quoted shipping options for a cart and CEP: service, price and delivery promise.',
  },
  preview: {
    uri: 'ui://frete-kit/label-preview.html',
    name: 'Label preview',
    description:
      'A label before it is issued: the parcel to scale, sender and recipient, declared items and value, price and ' +
      'the policy’s verdict, with the button that issues it; or the packing plan of an order in several boxes.',
  },
  label: {
    uri: 'ui://frete-kit/label.html',
    name: 'Label',
    description: 'An issued label: tracking code, pre-posting, its PDF to save and print.',
  },
  approvals: {
    uri: 'ui://frete-kit/approvals.html',
    name: 'Pending approvals',
    description: 'Labels waiting for the merchant, each to approve or reject.',
  },
} as const;
export type AppName = keyof typeof APPS;

/**
 * What every app may reach beyond its own document: nothing. The pages are self-contained (scripts and styles
 * inline, no fonts, images as inline SVG) and talk only to the host over postMessage, so no domain is declared and the
 * host's restrictive default applies (SEP-1865, "UI Resource Format": `connect-src 'none'`).
 */
export const APP_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/** Where the built documents are (default `dist/apps/`); tests may point elsewhere. */
export const APPS_DIR = new URL('../../../dist/apps/', import.meta.url).pathname;

/** The built documents, read once per process and served from memory. */
const documents = new Map<string, string>();

/** An app's HTML, or an error that says how to build it. */
export function builtAppDocument(app: AppName, dir = APPS_DIR): string {
  const path = `${dir}${app}.html`;
  const cached = documents.get(path);
  if (cached) return cached;
  let html: string;
  try {
    html = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`The ${app} app is not built (${path}): run npm run build`);
  }
  documents.set(path, html);
  return html;
}

/** Registers the four `ui://` resources on a server for one request of a client that negotiated MCP Apps. */
export function registerAppResources(server: McpServer, dir?: string): void {
  for (const [app, { uri, name, description }] of Object.entries(APPS) as [
    AppName,
    (typeof APPS)[AppName],
  ][]) {
    const meta = { ui: { csp: APP_CSP, prefersBorder: true } };
    registerAppResource(
      server,
      name,
      uri,
      { description, mimeType: RESOURCE_MIME_TYPE, _meta: meta },
      async (): Promise<McpUiReadResourceResult> => ({
        contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: builtAppDocument(app, dir), _meta: meta }],
      }),
    );
  }
}
