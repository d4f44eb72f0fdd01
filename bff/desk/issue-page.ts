import { formatCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import type { Party } from '../../shared/labels/party.ts';
import type { Messages } from './messages.ts';
import { NEEDS_SCRIPT } from './view-parts.ts';

export interface IssueView {
  t: Messages;
  /** The sender to start from: the newest label's (the merchant edits it; the script may replace it with a saved one). */
  sender: Party | undefined;
}

/** One line of the order; the script clones it for more lines, renumbers its ids, and shows "remove" from two lines on. */
export function itemFieldset(t: Messages, n: number): Html {
  const id = (field: string) => `item-${n}-${field}`;
  const number = (field: string, label: string, attributes: Html) =>
    html`<div class="field"><label for="${id(field)}">${label}</label><input id="${id(field)}" type="number" inputmode="decimal" required data-field="${field}" ${attributes}></div>`;
  return html`<fieldset class="item" data-item>
<legend>${t.itemLegend(n)}</legend>
<div class="field wide"><label for="${id('id')}">${t.product}</label><input id="${id('id')}" type="text" required maxlength="100" autocomplete="off" data-field="id"></div>
${number('comprimento', t.length, html`min="0.1" step="0.1"`)}
${number('largura', t.width, html`min="0.1" step="0.1"`)}
${number('altura', t.height, html`min="0.1" step="0.1"`)}
${number('weightGrams', t.unitWeight, html`min="1" step="1"`)}
${number('quantity', t.quantity, html`min="1" max="999" step="1" value="1"`)}
${number('valor', t.unitValue, html`min="0" step="0.01"`)}
<div class="field remove"><button class="link" type="button" hidden${NEEDS_SCRIPT} data-remove-item>${t.removeItem(n)}</button></div>
</fieldset>`;
}

/** The fields of a sender or recipient, named by their path in the label request (`recipient.endereco.bairro`). */
export function partyFields(t: Messages, who: 'recipient' | 'sender', party: Party | undefined): Html {
  const field = (path: string, label: string, value: string | undefined, attributes: Html, wide = false) =>
    html`<div class="field${wide ? ' wide' : ''}"><label for="${who}-${path.replace(/\./g, '-')}">${label}</label><input id="${who}-${path.replace(/\./g, '-')}" name="${who}.${path}" value="${value ?? ''}" ${attributes}></div>`;
  const address = party?.endereco;
  return html`${field('nome', t.name, party?.nome, html`type="text" required maxlength="100" autocomplete="off"`, true)}
${field('cpfCnpj', t.document, party?.cpfCnpj, html`type="text" inputmode="numeric" pattern="[0-9]{11}|[0-9]{14}" maxlength="14" autocomplete="off"`)}
${field('telefone', t.phone, party?.telefone, html`type="tel" maxlength="20" autocomplete="off"`)}
${field('email', t.email, party?.email, html`type="email" maxlength="100" autocomplete="off"`, true)}
${
  who === 'sender'
    ? field(
        'endereco.cep',
        t.senderCep,
        address ? formatCep(address.cep) : undefined,
        html`type="text" inputmode="numeric" required maxlength="9" autocomplete="off"`,
      )
    : ''
}
${field('endereco.logradouro', t.street, address?.logradouro, html`type="text" required maxlength="100" autocomplete="off"`, true)}
${field('endereco.numero', t.number, address?.numero, html`type="text" required maxlength="10" autocomplete="off"`)}
${field('endereco.complemento', t.complement, address?.complemento, html`type="text" maxlength="60" autocomplete="off"`)}
${field('endereco.bairro', t.district, address?.bairro, html`type="text" required maxlength="60" autocomplete="off"`)}
${field('endereco.cidade', t.city, address?.cidade, html`type="text" required maxlength="60" autocomplete="off"`)}
${field('endereco.uf', t.uf, address?.uf, html`type="text" required minlength="2" maxlength="2" pattern="[A-Za-z]{2}" autocomplete="off" class="short"`)}`;
}

/**
 * `/admin/labels/new`: an order's items → the plan (volumes) → a quote for those volumes → a service → recipient and
 * sender → one label per volume → one PDF. The steps after the first open as the script reaches them; each step's
 * heading takes the focus, and results are read out as they come.
 */
export function issueBody(view: IssueView): Html {
  const { t } = view;
  return html`<p class="back"><a href="/admin/labels">${t.back}</a></p>
<h1>${t.issueTitle}</h1>
<p class="lead">${t.issueIntro}</p>
<noscript><p class="notice notice-error">${t.noscript}</p></noscript>
<form class="issue" data-issue-form novalidate>
<section class="step" aria-labelledby="step-items">
<h2 id="step-items" tabindex="-1">${t.stepItems}</h2>
<div class="field"><label for="order-id">${t.orderId}</label><input id="order-id" name="orderId" type="text" required maxlength="160" autocomplete="off"></div>
<fieldset class="items">
<legend>${t.itemsLegend}</legend>
<div data-items>${itemFieldset(t, 1)}</div>
<button class="secondary" type="button"${NEEDS_SCRIPT} data-add-item>${t.addItem}</button>
</fieldset>
<div class="actions"><button class="primary" type="button"${NEEDS_SCRIPT} data-plan>${t.plan}</button></div>
<div data-plan-result></div>
</section>
<section class="step" aria-labelledby="step-quote" data-step="quote" hidden>
<h2 id="step-quote" tabindex="-1">${t.stepQuote}</h2>
<div class="field"><label for="recipient-cep">${t.cep}</label><input id="recipient-cep" name="recipient.endereco.cep" type="text" inputmode="numeric" required maxlength="9" autocomplete="off"></div>
<div class="actions"><button class="primary" type="button"${NEEDS_SCRIPT} data-quote>${t.quote}</button></div>
<div data-quote-result></div>
</section>
<section class="step" aria-labelledby="step-parties" data-step="parties" hidden>
<h2 id="step-parties" tabindex="-1">${t.stepParties}</h2>
<fieldset class="party-fields">
<legend>${t.fieldRecipient}</legend>
<p class="full hint" data-recipient-cep></p>
${partyFields(t, 'recipient', undefined)}
</fieldset>
<fieldset class="party-fields">
<legend>${t.fieldSender}</legend>
${partyFields(t, 'sender', view.sender)}
<div class="check wide"><input id="remember-sender" type="checkbox" data-remember-sender><label for="remember-sender">${t.rememberSender}</label></div>
</fieldset>
<div class="actions"><button class="primary" type="submit"${NEEDS_SCRIPT} data-issue>${t.issue(1)}</button></div>
</section>
<section class="step" aria-labelledby="step-results" data-step="results" hidden>
<h2 id="step-results" tabindex="-1">${t.stepResults}</h2>
<ol class="results" data-results></ol>
<p data-results-summary></p>
<div class="actions"><a class="button primary" href="/admin/labels" target="_blank" data-print-created hidden></a><a class="button secondary" href="/admin/labels/new">${t.another}</a></div>
</section>
<p class="notice notice-error" role="alert" data-error></p>
<p class="visually-hidden" role="status" data-progress></p>
</form>`;
}
