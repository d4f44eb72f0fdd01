import { readFileSync } from 'node:fs';
import { escapeHtml } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import type { BffConfig } from '../config.ts';
import { PAGE_TEXTS, type PageTexts } from './page-texts.ts';

const TEMPLATE = readFileSync(new URL('./track.html', import.meta.url), 'utf8');

export type StoreBranding = BffConfig['store'];

/** What the page shows: the lookup forms; an order (or one parcel) from a signed link; or a link that is not valid. */
export type TrackPageView =
  | { kind: 'lookup' }
  | { kind: 'order'; orderId: string | undefined; codes: string[] }
  | { kind: 'bad-link' };

/**
 * The tracking page in one language, with the store's name, logo and a link back to the store (`BFF_STORE_NAME`,
 * `BFF_STORE_LOGO_URL`, `BFF_STORE_URL`; each optional). The logo's alt text is the name shown next to it, or "Logo da
 * loja" without one. The element gets the page's language, and from a signed link the order's codes.
 */
export function renderTrackPage(
  store: StoreBranding,
  locale: Locale = 'pt-BR',
  view: TrackPageView = { kind: 'lookup' },
): string {
  const t = PAGE_TEXTS[locale];
  const [heading, lead] =
    view.kind === 'bad-link'
      ? [t.badLinkTitle, t.badLinkLead]
      : view.kind === 'lookup'
        ? [t.title, t.lead]
        : view.orderId
          ? [t.order(view.orderId), t.orderLead]
          : [t.parcel, t.parcelLead];
  const title = store.name ? `${escapeHtml(heading)} — ${escapeHtml(store.name)}` : escapeHtml(heading);
  const attrs = [
    locale === 'pt-BR' ? '' : ` lang="${locale}"`,
    view.kind === 'order' ? ` codes="${escapeHtml(view.codes.join(','))}"` : '',
  ].join('');
  return TEMPLATE.replace('<html lang="pt-BR">', () => `<html lang="${locale}">`)
    .replace('{{TITLE}}', () => title)
    .replace('{{STORE}}', () => storeHeader(store, t))
    .replace('{{H1}}', () => escapeHtml(heading))
    .replace('{{LEAD}}', () => escapeHtml(lead))
    .replace('<shipping-tracking>', () => `<shipping-tracking${attrs}>`);
}

function storeHeader({ name, url, logoUrl }: StoreBranding, t: PageTexts): string {
  if (!name && !url && !logoUrl) return '';
  const logo = logoUrl
    ? `<img class="store-logo" src="${escapeHtml(logoUrl)}" alt="${name ? '' : escapeHtml(t.logoAlt)}" height="40">`
    : '';
  const text = name ? `<span class="store-name">${escapeHtml(name)}</span>` : '';
  const brand = `${logo}${text}`;
  const home = url ? escapeHtml(url) : undefined;
  const parts = [
    brand &&
      (home
        ? `<a class="store-brand" href="${home}">${brand}</a>`
        : `<span class="store-brand">${brand}</span>`),
    home ? `<a class="store-back" href="${home}">${escapeHtml(t.back)}</a>` : '',
  ].filter(Boolean);
  return `  <header class="store">${parts.join('')}</header>`;
}

/** The origin of the logo, for the page's `img-src` (the rest of the CSP stays helmet's). */
export function logoOrigin(store: StoreBranding): string | undefined {
  return store.logoUrl ? new URL(store.logoUrl).origin : undefined;
}
