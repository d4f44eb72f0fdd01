import { readFileSync } from 'node:fs';
import { escapeHtml } from '../../shared/html.ts';
import type { BffConfig } from '../config.ts';

const TEMPLATE = readFileSync(new URL('./track.html', import.meta.url), 'utf8');

export type StoreBranding = BffConfig['store'];

/**
 * The tracking page with the store's name, logo and a link back to the store (`BFF_STORE_NAME`, `BFF_STORE_LOGO_URL`,
 * `BFF_STORE_URL`; each optional). The logo's alt text is the name shown next to it, or "Logo da loja" without one.
 */
export function renderTrackPage(store: StoreBranding): string {
  const title = store.name ? `Rastrear pedido — ${escapeHtml(store.name)}` : 'Rastrear pedido';
  return TEMPLATE.replace('{{TITLE}}', () => title).replace('{{STORE}}', () => storeHeader(store));
}

function storeHeader({ name, url, logoUrl }: StoreBranding): string {
  if (!name && !url && !logoUrl) return '';
  const logo = logoUrl
    ? `<img class="store-logo" src="${escapeHtml(logoUrl)}" alt="${name ? '' : 'Logo da loja'}" height="40">`
    : '';
  const text = name ? `<span class="store-name">${escapeHtml(name)}</span>` : '';
  const brand = logo || text ? `${logo}${text}` : '';
  const home = url ? escapeHtml(url) : undefined;
  const parts = [
    brand &&
      (home
        ? `<a class="store-brand" href="${home}">${brand}</a>`
        : `<span class="store-brand">${brand}</span>`),
    home ? `<a class="store-back" href="${home}">Voltar para a loja</a>` : '',
  ].filter(Boolean);
  return `  <header class="store">${parts.join('')}</header>`;
}

/** The origin of the logo, for the page's `img-src` (the rest of the CSP stays helmet's). */
export function logoOrigin(store: StoreBranding): string | undefined {
  return store.logoUrl ? new URL(store.logoUrl).origin : undefined;
}
