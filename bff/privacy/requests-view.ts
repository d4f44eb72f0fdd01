import { type Html, html } from '../../shared/html.ts';
import { formatWhen } from '../desk/format.ts';
import type { StoredPrivacyRequest } from './requests.ts';

/** What the "privacy requests" section shows: the requests, newest first (`GET /admin/api/privacy/requests`). */
export interface PrivacyRequestsView {
  requests: readonly StoredPrivacyRequest[];
}

const KIND_WORDS: Record<StoredPrivacyRequest['kind'], string> = {
  data_request: 'Pedido de dados do cliente',
  customer_redact: 'Apagar dados do cliente',
  store_redact: 'Apagar dados da loja',
};

const PLATFORM_WORDS: Record<StoredPrivacyRequest['platform'], string> = {
  shopify: 'Shopify',
  nuvemshop: 'Nuvemshop',
};

function who(request: StoredPrivacyRequest): string {
  const { email, phone, identification, id } = request.customer;
  return [email, phone, identification, id && `cliente ${id}`].filter(Boolean).join(' · ') || '—';
}

function outcome(request: StoredPrivacyRequest): Html {
  if (request.kind === 'data_request')
    return html`<a href="/admin/api/privacy/requests/${encodeURIComponent(request.id)}/export" download>Exportar (JSON)</a>`;
  const erased = request.erased;
  if (!erased) return html`—`;
  return html`Apagado: ${erased.orders} pedido(s), ${erased.labels} etiqueta(s), ${erased.emails} e-mail(s)`;
}

/**
 * The "privacy requests" section of the stores page (`/admin/stores`): each LGPD / compliance request a store sent,
 * what it asked, about whom (a data request's customer; a redaction keeps nobody's data), and what was done — an
 * export link for a data request, the counts erased for a redaction. A pure function of its view (bff/desk's pages).
 */
export function privacyRequestsSection(view: PrivacyRequestsView): Html {
  const rows = view.requests.map(
    (request) => html`<tr>
<td>${formatWhen(request.receivedAt, 'pt-BR')}</td>
<td>${PLATFORM_WORDS[request.platform]} ${request.store}</td>
<td>${KIND_WORDS[request.kind]}</td>
<td>${who(request)}</td>
<td>${outcome(request)}</td>
</tr>`,
  );
  return html`<section id="privacy-requests">
<h2>Pedidos de privacidade (LGPD)</h2>
${
  rows.length === 0
    ? html`<p class="empty">Nenhum pedido das lojas até agora.</p>`
    : html`<table>
<thead><tr><th>Recebido (horário de Brasília)</th><th>Loja</th><th>Pedido</th><th>Cliente</th><th>Feito</th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}
</section>`;
}
