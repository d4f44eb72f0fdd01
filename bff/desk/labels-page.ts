import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { ATTEMPT_STATES, type LedgerAttempt } from '../labels/ledger.ts';
import type { ListQuery } from './api.ts';
import { type Messages, stateName } from './messages.ts';
import { issuerName, labelNames, stateBadge, timeOf } from './view-parts.ts';

/** The print URL of the desk's JSON API for these attempts (one merged PDF). */
export function printHref(attemptIds: readonly string[]): string {
  return `/admin/api/labels/print?ids=${attemptIds.map(encodeURIComponent).join(',')}`;
}

export interface LabelsView {
  t: Messages;
  lang: Locale;
  query: ListQuery;
  attempts: readonly LedgerAttempt[];
  /** The cursor of the next (older) page, when there is one. */
  next: string | undefined;
  /** A contract code as the merchant knows the service (`correios-pac · 03298`). */
  serviceName: (serviceCode: string | null) => Html | string;
}

/** `/admin/labels` with the filters kept and `before` set (or dropped). */
function listHref(query: ListQuery, before: string | undefined): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.state) params.set('state', query.state);
  if (before) params.set('before', before);
  const search = params.toString();
  return `/admin/labels${search ? `?${search}` : ''}`;
}

function row(view: LabelsView, attempt: LedgerAttempt): Html {
  const { t, lang } = view;
  const names = labelNames(t, attempt.orderId, attempt.volume);
  const printable = attempt.state === 'created' && attempt.prepostagemId !== null;
  return html`<tr>
<td class="select">${
    printable
      ? html`<input type="checkbox" name="ids" value="${attempt.id}" aria-label="${t.selectLabel(names.order, names.volume)}" data-select>`
      : ''
  }</td>
<td class="order">${attempt.orderId ?? html`<span class="muted">${t.noOrder}</span>`}</td>
<td class="number volume" data-label="${t.colVolume}">${attempt.volume ?? t.none}</td>
<td class="recipient">${attempt.recipient ?? t.none}</td>
<td class="service">${view.serviceName(attempt.serviceCode)}</td>
<td class="state-cell">${stateBadge(t, attempt.state)}</td>
<td class="tracking code" data-label="${t.colTracking}">${attempt.trackingCode ?? t.none}</td>
<td class="issued" data-label="${t.fieldIssuedBy}">${issuerName(t, attempt.issuedBy)}</td>
<td class="when">${timeOf(lang, attempt.createdAt)}</td>
<td class="row-actions"><a href="/admin/labels/${attempt.id}" aria-label="${t.detailsLabel(names.order, names.volume)}">${t.details}</a>${
    printable
      ? html` <a href="${printHref([attempt.id])}" target="_blank" aria-label="${t.reprintLabel(names.order, names.volume)} ${t.newTab}">${t.reprint}</a>`
      : ''
  }</td>
</tr>`;
}

/** The ledger as the merchant searches it: filters, the rows with their print checkboxes, and paging. */
export function labelsBody(view: LabelsView): Html {
  const { t, query, attempts } = view;
  const filtered = Boolean(query.q || query.state);
  const options = ATTEMPT_STATES.map(
    (state) =>
      html`<option value="${state}"${query.state === state ? html` selected` : ''}>${stateName(t, state)}</option>`,
  );
  const table =
    attempts.length === 0
      ? html`<p class="empty">${filtered ? t.noLabelsFiltered : t.noLabels}</p>`
      : html`<form id="print-form" class="print-form" method="get" action="/admin/api/labels/print" target="_blank" data-print-form>
<div class="table-scroll" role="region" aria-labelledby="labels-caption" tabindex="0">
<table class="ledger">
<caption id="labels-caption">${t.caption(attempts.length)}</caption>
<thead><tr>
<th scope="col" class="select"><span class="visually-hidden">${t.colSelect}</span><input type="checkbox" aria-label="${t.selectAll}" data-select-all hidden></th>
<th scope="col">${t.colOrder}</th>
<th scope="col" class="number">${t.colVolume}</th>
<th scope="col">${t.fieldRecipient}</th>
<th scope="col">${t.fieldService}</th>
<th scope="col">${t.fieldState}</th>
<th scope="col">${t.colTracking}</th>
<th scope="col">${t.fieldIssuedBy}</th>
<th scope="col">${t.colWhen}</th>
<th scope="col">${t.colActions}</th>
</tr></thead>
<tbody>${attempts.map((attempt) => row(view, attempt))}</tbody>
</table>
</div>
<div class="actions">
<button class="primary" type="submit" data-print>${t.printSelected}</button>
<p class="hint" id="print-help">${t.printHelp} ${t.newTab}</p>
</div>
<p class="status" role="status" data-print-status></p>
</form>`;
  const paging =
    view.next || query.before
      ? html`<nav class="paging" aria-label="${t.pagesLabel}"><ul>${
          query.before ? html`<li><a href="${listHref(query, undefined)}">${t.newest}</a></li>` : ''
        }${view.next ? html`<li><a href="${listHref(query, view.next)}">${t.older}</a></li>` : ''}</ul></nav>`
      : '';
  return html`<div class="page-head">
<h1>${t.labelsTitle}</h1>
<a class="button primary" href="/admin/labels/new">${t.issueLink}</a>
</div>
<p class="lead">${t.labelsIntro}</p>
<form class="filters" method="get" action="/admin/labels" role="search">
<div class="field grow"><label for="q">${t.searchLabel}</label><input id="q" name="q" type="search" maxlength="160" value="${query.q ?? ''}"></div>
<div class="field"><label for="state">${t.fieldState}</label><select id="state" name="state"><option value="">${t.allStates}</option>${options}</select></div>
<div class="field buttons"><button class="secondary" type="submit">${t.filter}</button>${
    filtered ? html` <a href="/admin/labels">${t.clearFilter}</a>` : ''
  }</div>
</form>
${table}
${paging}`;
}
