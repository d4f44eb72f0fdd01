import { formatCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import type { Party } from '../../shared/labels/party.ts';
import type { Locale } from '../../shared/locale.ts';
import { serviceName } from '../../shared/service-name.ts';
import type { Preset } from '../orders/order-store.ts';
import { AFTER_LABEL_REVIEWS, type OrderView } from '../orders/to-ship.ts';
import { formatMoney, formatWeight } from './format.ts';
import { partyFields } from './issue-page.ts';
import type { Messages } from './messages.ts';
import type { OrderMessages } from './order-messages.ts';
import { NEEDS_SCRIPT, notice } from './view-parts.ts';

export interface OrdersView {
  t: Messages;
  o: OrderMessages;
  lang: Locale;
  orders: readonly (OrderView & { price?: number })[];
  /** `to_ship` (new and partly labelled, the default) or every order. */
  filter: OrderPageFilter;
  sender: Party | undefined;
  presets: readonly Preset[];
  /** Today's created labels of orders (ledger ids): the print link stays on the page after a reload. */
  printable?: readonly string[] | undefined;
}

/** The page's lists: to ship, every order, and apart those the store called off or that are picked up. */
export const ORDER_PAGE_FILTERS = ['to_ship', 'all', 'cancelled', 'not_shipped'] as const;
export type OrderPageFilter = (typeof ORDER_PAGE_FILTERS)[number];

/** An order is selectable when its labels can go out now: not yet all labelled, nothing to review, a plan. */
export function ready(order: OrderView): boolean {
  const blocking = order.needsReview.some((review) => !AFTER_LABEL_REVIEWS.includes(review.reason));
  return (order.state === 'new' || order.state === 'partly_labelled') && !blocking && 'volumes' in order.plan;
}

function reviews(o: OrderMessages, order: OrderView): Html | '' {
  if (order.needsReview.length === 0) return '';
  const items = order.needsReview.map(
    (review) =>
      html`<li>${o.field[review.field] ?? review.field}: ${o.reason[review.reason] ?? review.reason}${review.detail ? html` <span class="muted">(${review.detail})</span>` : ''}</li>`,
  );
  return html`<ul class="reviews">${items}</ul><a href="/admin/orders/${encodeURIComponent(order.orderId)}" aria-label="${o.reviewLabel(order.orderId)}">${o.review}</a>`;
}

function tracking(o: OrderMessages, order: OrderView): Html | '' {
  const back = order.trackingBack;
  if (!back) return '';
  const text = o.tracking[back.state] ?? back.state;
  const error = 'error' in back && back.error ? html` <span class="muted">${back.error}</span>` : '';
  const resend =
    back.state === 'failed' || back.state === 'waiting'
      ? html` <button class="link" type="button"${NEEDS_SCRIPT} data-resend-tracking="${order.orderId}">${o.resend}</button>`
      : '';
  return html`<p class="tracking-back tracking-${back.state}" data-tracking-back>${text}${error}${resend}</p>`;
}

function row(view: OrdersView, order: OrderView & { price?: number }): Html {
  const { o, lang } = view;
  const address = order.recipient.endereco;
  const items = order.items.map(
    (item) =>
      html`<li>${item.quantity}× ${item.name}${item.ordered ? html` <span class="muted">(${item.quantity}/${item.ordered})</span>` : ''}${item.weightGrams ? html` <span class="muted">${formatWeight(item.weightGrams, lang)}</span>` : ''}</li>`,
  );
  const plan =
    'volumes' in order.plan
      ? o.planVolumes(order.plan.volumes.length)
      : (o.refusedWhy[order.plan.reason] ?? o.noPlan);
  const labels = order.labels
    .filter((label) => label.state === 'created')
    .map((label) => html`<li class="code">${label.volume}: ${label.trackingCode ?? '—'}</li>`);
  return html`<tr data-order="${order.orderId}">
<td class="select">${ready(order) ? html`<input type="checkbox" value="${order.orderId}" aria-label="${o.selectOrder(order.orderId)}" data-select-order>` : ''}</td>
<td class="order">${order.orderId}<span class="muted"> ${o.source[order.source] ?? order.source}</span></td>
<td class="recipient">${order.recipient.nome || '—'}<span class="muted"> ${address.cidade}/${address.uf} · ${formatCep(address.cep)}</span>${reviews(o, order)}</td>
<td class="items"><ul>${items}</ul></td>
<td class="service">${order.serviceId ? serviceName(order.serviceId) : '—'}</td>
<td class="number">${plan}</td>
<td class="number">${order.price === undefined ? '—' : formatMoney(order.price, lang)}</td>
<td class="state-cell"><span class="state order-${order.state}">${o.orderState[order.state] ?? order.state}</span></td>
<td class="labels">${labels.length > 0 ? html`<ul>${labels}</ul>` : ''}${tracking(o, order)}</td>
</tr>`;
}

/**
 * `/admin/orders`: the orders to ship (docs/orders.md, "What the desk shows") — each with its recipient, items, plan,
 * price, state, labels and whether the tracking went back to the store — a selection issued in one action and printed
 * in one more; the sender of the labels; the CSV import with its preview and line-by-line report.
 */
/** The print of today's order labels: shown from the server, so a reload keeps it; issuing points it at the batch. */
function printLink(view: OrdersView): Html {
  const ids = view.printable ?? [];
  if (ids.length === 0)
    return html`<a class="button primary" href="/admin/labels" target="_blank" data-print-orders hidden></a>`;
  const href = `/admin/api/labels/print?ids=${ids.map(encodeURIComponent).join(',')}`;
  return html`<a class="button primary" href="${href}" target="_blank" data-print-orders>${view.o.printToday(ids.length)}</a>`;
}

export function ordersBody(view: OrdersView): Html {
  const { o, orders } = view;
  const table =
    orders.length === 0
      ? html`<p class="empty">${o.noOrders}</p>`
      : html`<div class="table-scroll" role="region" aria-labelledby="orders-caption" tabindex="0">
<table class="ledger orders">
<caption id="orders-caption">${o.caption(orders.length)}</caption>
<thead><tr>
<th scope="col" class="select"><span class="visually-hidden">${view.t.colSelect}</span><input type="checkbox" aria-label="${o.selectAll}" data-select-all-orders hidden></th>
<th scope="col">${o.colOrder}</th>
<th scope="col">${o.colRecipient}</th>
<th scope="col">${o.colItems}</th>
<th scope="col">${o.colService}</th>
<th scope="col" class="number">${o.colVolumes}</th>
<th scope="col" class="number">${o.colPrice}</th>
<th scope="col">${o.colState}</th>
<th scope="col">${o.colLabels}</th>
</tr></thead>
<tbody>${orders.map((order) => row(view, order))}</tbody>
</table>
</div>`;
  const filters = ORDER_PAGE_FILTERS.map(
    (filter) =>
      html`<li><a href="/admin/orders${filter === 'to_ship' ? '' : `?state=${filter}`}"${view.filter === filter ? html` aria-current="page"` : ''}>${filter === 'all' ? o.allOrders : filter === 'to_ship' ? o.toShip : (o.orderState[filter] ?? filter)}</a></li>`,
  );
  return html`<div class="page-head"><h1>${o.ordersTitle}</h1></div>
<p class="lead">${o.ordersIntro}</p>
<noscript><p class="notice notice-error">${view.t.noscript}</p></noscript>
<nav class="paging" aria-label="${o.filterLabel}"><ul>${filters}</ul></nav>
<form class="orders-form" data-orders-form novalidate>
<div data-orders-table>${table}</div>
<details class="sender"${view.sender ? '' : html` open`}>
<summary>${o.senderLegend}${view.sender ? html`: ${view.sender.nome}, ${formatCep(view.sender.endereco.cep)}` : ''}</summary>
<fieldset class="party-fields">
<legend class="visually-hidden">${o.senderLegend}</legend>
${partyFields(view.t, 'sender', view.sender)}
<div class="check wide"><input id="remember-sender" type="checkbox" data-remember-sender><label for="remember-sender">${o.rememberSender}</label></div>
</fieldset>
</details>
<div class="actions">
<button class="primary" type="submit"${NEEDS_SCRIPT} data-issue-orders>${o.issueSelected}</button>
${printLink(view)}
<a class="button secondary" href="/admin/orders" data-refresh hidden>${o.refresh}</a>
</div>
<p class="hint" data-print-help hidden>${o.printHelp}</p>
<p class="status" role="status" data-orders-status></p>
<ul class="results" data-orders-results></ul>
</form>
<section class="import" aria-labelledby="import-title">
<h2 id="import-title">${o.importTitle}</h2>
<p>${o.importIntro} <a href="/admin/api/orders/import/template" download>${o.template}</a></p>
<form data-import-form novalidate>
<div class="field"><label for="import-file">${o.fileLabel}</label><input id="import-file" type="file" accept=".csv,text/csv" data-import-file></div>
<div class="actions"><button class="secondary" type="button"${NEEDS_SCRIPT} data-import-preview>${o.preview}</button><button class="primary" type="button"${NEEDS_SCRIPT} data-import-now>${o.importNow}</button></div>
<p class="status" role="status" data-import-status></p>
<ul class="results" data-import-results></ul>
</form>
</section>
${presetsSection(view)}`;
}

/** The products' saved weights and sizes, and the form that saves one (`POST /admin/api/products`). */
function presetsSection(view: OrdersView): Html {
  const { o, lang } = view;
  const rows = view.presets.map(
    (preset) =>
      html`<li><span class="code">${preset.key}</span>${preset.weightGrams ? html` · ${formatWeight(preset.weightGrams, lang)}` : ''}${
        preset.dimensions
          ? html` · ${preset.dimensions.comprimento} × ${preset.dimensions.largura} × ${preset.dimensions.altura} cm`
          : ''
      }</li>`,
  );
  const number = (id: string, label: string, attributes: Html) =>
    html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${id}" type="number" inputmode="decimal" ${attributes}></div>`;
  return html`<section class="presets" aria-labelledby="presets-title">
<h2 id="presets-title">${o.presetsTitle}</h2>
<p>${o.presetsIntro}</p>
${rows.length > 0 ? html`<ul data-presets>${rows}</ul>` : html`<p class="empty" data-presets>${o.noPresets}</p>`}
<form class="issue" data-preset-form novalidate>
<div class="field wide"><label for="preset-key">${o.presetKey}</label><input id="preset-key" name="key" type="text" required maxlength="200" autocomplete="off"></div>
${number('preset-weight', o.presetWeight, html`min="1" step="1"`)}
${number('preset-length', o.presetLength, html`min="0.1" step="0.1"`)}
${number('preset-width', o.presetWidth, html`min="0.1" step="0.1"`)}
${number('preset-height', o.presetHeight, html`min="0.1" step="0.1"`)}
<div class="actions"><button class="secondary" type="submit"${NEEDS_SCRIPT} data-save-preset>${o.presetSave}</button></div>
<p class="status" role="status" data-preset-status></p>
</form>
</section>`;
}

export interface OrderReviewView {
  t: Messages;
  o: OrderMessages;
  order: OrderView;
  done: boolean;
}

/** `/admin/orders/<orderId>`: what to review, the address as the store wrote it, the recipient's fields to correct. */
export function orderReviewBody(view: OrderReviewView): Html {
  const { t, o, order } = view;
  const recipient = {
    ...order.recipient,
    endereco: { ...order.recipient.endereco, cep: formatCep(order.recipient.endereco.cep) },
  } as Party;
  return html`<p class="back"><a href="/admin/orders">${o.back}</a></p>
<h1>${o.reviewTitle(order.orderId)}</h1>
${notice(view.done ? o.saved : undefined)}
<p class="lead">${o.reviewIntro}</p>
${reviews(o, order)}
${order.rawAddress ? html`<p><strong>${o.asWritten}:</strong> <span class="code">${order.rawAddress}</span></p>` : ''}
<form class="issue" data-review-form data-order-id="${order.orderId}" novalidate>
<fieldset class="party-fields">
<legend>${t.fieldRecipient}</legend>
<div class="field"><label for="recipient-endereco-cep">${t.cep}</label><input id="recipient-endereco-cep" name="recipient.endereco.cep" value="${recipient.endereco.cep}" type="text" inputmode="numeric" required maxlength="9" autocomplete="off" data-cep></div>
${partyFields(t, 'recipient', recipient)}
</fieldset>
<div class="field"><label for="service-id">${t.fieldService}</label><input id="service-id" name="serviceId" value="${order.serviceId ?? ''}" type="text" maxlength="60" autocomplete="off"></div>
<div class="check wide"><input id="confirm" type="checkbox" name="confirm" data-confirm><label for="confirm">${o.confirm}</label></div>
<div class="actions"><button class="primary" type="submit"${NEEDS_SCRIPT} data-save-review>${o.save}</button></div>
<p class="notice notice-error" role="alert" data-error></p>
</form>`;
}
