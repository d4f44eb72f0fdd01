import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { formatWhen } from '../desk/format.ts';
import type { StoredPrivacyRequest } from './requests.ts';

/** What the "privacy requests" section shows: the requests, newest first (`GET /admin/api/privacy/requests`). */
export interface PrivacyRequestsView {
  requests: readonly StoredPrivacyRequest[];
  /** The merchant's language (the desk's three); default pt-BR. */
  lang?: Locale;
}

const PT_BR = {
  title: 'Privacidade',
  heading: 'Pedidos de privacidade (LGPD)',
  empty: 'Nenhum pedido das lojas até agora.',
  colReceived: 'Recebido (horário de Brasília)',
  colStore: 'Loja',
  colKind: 'Pedido',
  colCustomer: 'Cliente',
  colDone: 'Feito',
  kinds: {
    data_request: 'Pedido de dados do cliente',
    customer_redact: 'Apagar dados do cliente',
    store_redact: 'Apagar dados da loja',
  } satisfies Record<StoredPrivacyRequest['kind'], string>,
  customer: (id: string) => `cliente ${id}`,
  exportJson: 'Exportar (JSON)',
  erased: (orders: number, labels: number, emails: number) =>
    `Apagado: ${orders} pedido(s), ${labels} etiqueta(s), ${emails} e-mail(s)`,
};
export type PrivacyMessages = typeof PT_BR;

const EN: PrivacyMessages = {
  title: 'Privacy',
  heading: 'Privacy requests (LGPD)',
  empty: 'No request from the stores so far.',
  colReceived: 'Received (Brasília time)',
  colStore: 'Store',
  colKind: 'Request',
  colCustomer: 'Customer',
  colDone: 'Done',
  kinds: {
    data_request: "Customer's data request",
    customer_redact: "Erase the customer's data",
    store_redact: "Erase the store's data",
  },
  customer: (id: string) => `customer ${id}`,
  exportJson: 'Export (JSON)',
  erased: (orders: number, labels: number, emails: number) =>
    `Erased: ${orders} order(s), ${labels} label(s), ${emails} e-mail(s)`,
};

const ES: PrivacyMessages = {
  title: 'Privacidad',
  heading: 'Solicitudes de privacidad (LGPD)',
  empty: 'Ninguna solicitud de las tiendas hasta ahora.',
  colReceived: 'Recibido (hora de Brasilia)',
  colStore: 'Tienda',
  colKind: 'Solicitud',
  colCustomer: 'Cliente',
  colDone: 'Hecho',
  kinds: {
    data_request: 'Solicitud de datos del cliente',
    customer_redact: 'Borrar datos del cliente',
    store_redact: 'Borrar datos de la tienda',
  },
  customer: (id: string) => `cliente ${id}`,
  exportJson: 'Exportar (JSON)',
  erased: (orders: number, labels: number, emails: number) =>
    `Borrado: ${orders} pedido(s), ${labels} etiqueta(s), ${emails} e-mail(s)`,
};

/** The section's words in the desk's three languages (as the other pages' catalogs). */
export const PRIVACY_MESSAGES: Record<Locale, PrivacyMessages> = { 'pt-BR': PT_BR, en: EN, es: ES };

const PLATFORM_WORDS: Record<StoredPrivacyRequest['platform'], string> = {
  shopify: 'Shopify',
  nuvemshop: 'Nuvemshop',
};

function who(request: StoredPrivacyRequest, t: PrivacyMessages): string {
  const { email, phone, identification, id } = request.customer;
  return [email, phone, identification, id && t.customer(id)].filter(Boolean).join(' · ') || '—';
}

function outcome(request: StoredPrivacyRequest, t: PrivacyMessages): Html {
  if (request.kind === 'data_request')
    return html`<a href="/admin/api/privacy/requests/${encodeURIComponent(request.id)}/export" download>${t.exportJson}</a>`;
  const erased = request.erased;
  if (!erased) return html`—`;
  return html`${t.erased(erased.orders, erased.labels, erased.emails)}`;
}

/**
 * The "privacy requests" section of the stores page (`/admin/stores`) and of `/admin/privacy`: each LGPD / compliance
 * request a store sent, what it asked, about whom (a data request's customer; a redaction keeps nobody's data), and
 * what was done — an export link for a data request, the counts erased for a redaction — in the merchant's language,
 * times in Brasília time as the desk's other pages. A pure function of its view (bff/desk's pages).
 */
export function privacyRequestsSection(view: PrivacyRequestsView): Html {
  const lang = view.lang ?? 'pt-BR';
  const t = PRIVACY_MESSAGES[lang];
  const rows = view.requests.map(
    (request) => html`<tr>
<td>${formatWhen(request.receivedAt, lang)}</td>
<td>${PLATFORM_WORDS[request.platform]} <span class="domain">${request.store}</span></td>
<td>${t.kinds[request.kind]}</td>
<td>${who(request, t)}</td>
<td>${outcome(request, t)}</td>
</tr>`,
  );
  return html`<section id="privacy-requests">
<h2>${t.heading}</h2>
${
  rows.length === 0
    ? html`<p class="empty">${t.empty}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="privacy-requests-caption" tabindex="0">
<table>
<caption id="privacy-requests-caption">${t.heading}</caption>
<thead><tr><th scope="col">${t.colReceived}</th><th scope="col">${t.colStore}</th><th scope="col">${t.colKind}</th><th scope="col">${t.colCustomer}</th><th scope="col">${t.colDone}</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>`
}
</section>`;
}
