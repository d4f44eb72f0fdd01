import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { escapeHtml } from '../../shared/html.ts';

export const DEMO_DIR = new URL('../../demo/', import.meta.url).pathname;

export interface DemoSettings {
  apiUrl: string;
  publicKey: string;
  widgetUrl: string;
  trackingUrl: string;
  /** The BFF's `POST /api/promises` for the calculator (default `/api/promises`); '' where no BFF stands beside. */
  promisesUrl?: string | undefined;
  /** Where `npm start`'s outbox shows the shoppers' e-mails and the merchant's webhooks, when the BFF posts to it. */
  inboxUrl?: string | undefined;
  /** The BFF's `GET /api/shipping-rules`, for the calculator's `data-rules-url`; none: no rules. */
  rulesUrl?: string | undefined;
}

/**
 * Every surface of the kit, linked from the demo's front page (`{{SURFACES}}`): the storefront's, the shopper's, the
 * merchant's desk, the outbox of `npm start` when there is one, the agents' MCP and the sandbox.
 */
export function surfaceLinks(settings: DemoSettings): string {
  const links: [string, string][] = [
    ['product.html', 'Página de produto'],
    ['product-variants.html', 'Produto com variações (frete a partir de)'],
    ['cart.html', 'Carrinho'],
    ['checkout.html', 'Calculadora e checkouts (Shopify, Nuvemshop) lado a lado'],
    [settings.trackingUrl, 'Rastrear pedido'],
    ['/admin/labels', 'Mesa de etiquetas (lojista)'],
    ['/admin/orders', 'Pedidos das lojas (Shopify, Nuvemshop, CSV)'],
    ['/admin/approvals', 'Aprovações: as etiquetas que um agente pediu'],
    ['/admin/agents', 'Agentes conectados (OAuth) e suas regras'],
    ['/admin/promise', 'Prazos: a promessa de entrega cumprida'],
    ['/admin/notifications', 'Notificações enviadas'],
    ['/admin/stores', 'Lojas conectadas: aprovar uma instalação, desconectar, pedidos de privacidade'],
    ['/admin/rules', 'Regras de frete do lojista'],
    ...(settings.inboxUrl
      ? ([
          [`${settings.inboxUrl}/mail`, 'E-mails dos compradores'],
          [`${settings.inboxUrl}/webhooks`, 'Webhooks do lojista'],
        ] as [string, string][])
      : []),
    ['/mcp', 'MCP para agentes (o que é e como conectar)'],
    [settings.apiUrl, 'O sandbox (a plataforma emulada)'],
  ];
  return links
    .map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`)
    .join('\n      ');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/**
 * Reads a demo file, filling `{{API_URL}}`, `{{PUBLIC_KEY}}`, `{{WIDGET_URL}}`, `{{TRACKING_URL}}`, `{{PROMISES_URL}}`,
 * `{{SURFACES}}` and `{{RULES_URL}}` (empty: a storefront without a BFF, whose calculator charges the platform's
 * prices) in HTML pages.
 */
export async function readDemoFile(
  name: string,
  settings: DemoSettings,
): Promise<{ body: string; type: string } | undefined> {
  const file = normalize(join(DEMO_DIR, name || 'index.html'));
  if (!file.startsWith(DEMO_DIR)) return undefined;
  const type = TYPES[extname(file)];
  if (!type) return undefined;
  let body: string;
  try {
    body = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  if (type.startsWith('text/html')) {
    body = body
      .replaceAll('{{API_URL}}', escapeHtml(settings.apiUrl))
      .replaceAll('{{PUBLIC_KEY}}', escapeHtml(settings.publicKey))
      .replaceAll('{{WIDGET_URL}}', escapeHtml(settings.widgetUrl))
      .replaceAll('{{TRACKING_URL}}', escapeHtml(settings.trackingUrl))
      .replaceAll('{{PROMISES_URL}}', escapeHtml(settings.promisesUrl ?? '/api/promises'))
      .replaceAll('{{RULES_URL}}', escapeHtml(settings.rulesUrl ?? ''))
      .replaceAll('{{SURFACES}}', surfaceLinks(settings));
  }
  return { body, type };
}

/** A CSP as strict as a careful store's: no inline script, no eval, requests only to the platform. */
export function demoCsp(apiOrigin: string, widgetOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${widgetOrigin}`,
    `connect-src 'self' ${apiOrigin}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}
