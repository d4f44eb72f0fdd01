import { formatCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import { type GenerateLabelInput, GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import type { Locale } from '../../shared/locale.ts';
import type { HistoryEntry } from '../labels/decisions.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import { formatDimensions, formatMoney, formatWeight, formatWhen } from './format.ts';
import { printHref } from './labels-page.ts';
import type { Messages } from './messages.ts';
import {
  definitions,
  issuerName,
  labelNames,
  NEEDS_SCRIPT,
  notice,
  partyBlock,
  readStored,
  stateBadge,
  timeOf,
} from './view-parts.ts';

export interface AttemptView {
  t: Messages;
  lang: Locale;
  attempt: LedgerAttempt;
  /** For an unknown attempt: the platform's recent attempts, or null when they could not be read. */
  history?: readonly HistoryEntry[] | null | undefined;
  serviceName: (serviceCode: string | null) => Html | string;
  /** What the page says first after an action (`?done=`). */
  done?: string | undefined;
}

function requestFacts(view: AttemptView, request: GenerateLabelInput | undefined): Html {
  const { t, lang, attempt } = view;
  if (!request) return html`<pre class="raw">${attempt.request}</pre>`;
  const declared = html`<ul class="plain">${request.declaredItems.map(
    (item) => html`<li>${item.quantidade} × ${item.conteudo} (${formatMoney(item.valor, lang)})</li>`,
  )}</ul>`;
  return definitions([
    [t.fieldRecipient, partyBlock(request.recipient)],
    [t.fieldService, view.serviceName(request.serviceCode)],
    [t.fieldWeight, formatWeight(request.weightGrams, lang)],
    [t.fieldDimensions, formatDimensions(request.dimensions, lang)],
    [t.fieldDeclared, declared],
    [t.fieldDeclaredValue, formatMoney(declaredValueCents(request.declaredItems) / 100, lang)],
    [t.fieldSender, partyBlock(request.sender)],
    [t.fieldIssuedBy, issuerName(t, attempt.issuedBy)],
    [t.fieldCreatedAt, timeOf(lang, attempt.createdAt)],
  ]);
}

function answerFacts(view: AttemptView): Html {
  const { t, lang, attempt } = view;
  // An open attempt is not settled; its note says in English what `why` says in the merchant's words.
  const open = attempt.state === 'unknown' || attempt.state === 'pending';
  const why =
    attempt.state === 'unknown' && attempt.unknownWhy
      ? (t.unknownWhy[attempt.unknownWhy] ?? attempt.unknownWhy)
      : null;
  return definitions([
    [t.fieldState, stateBadge(t, attempt.state)],
    [t.fieldPrepostagem, attempt.prepostagemId],
    [t.fieldTracking, attempt.trackingCode],
    [t.fieldStatus, attempt.status],
    [t.fieldReason, attempt.reason],
    [t.fieldSupportCode, attempt.supportCode],
    [
      t.fieldSettledBy,
      open || attempt.settledBy === null ? null : (t.settledBy[attempt.settledBy] ?? attempt.settledBy),
    ],
    [t.fieldSettledAt, open || attempt.settledAt === null ? null : timeOf(lang, attempt.settledAt)],
    [t.fieldNote, why ? null : attempt.note],
    [t.fieldUnknownWhy, why],
  ]);
}

/** The recipient a platform attempt names, from its evidence (what was sent), when it is readable. */
function evidenceRecipient(entry: HistoryEntry): string | undefined {
  const request = entry.attempt.evidence.request;
  if (typeof request !== 'object' || request === null) return undefined;
  const recipient = (request as { recipient?: { nome?: unknown; endereco?: { cep?: unknown } } }).recipient;
  const name = typeof recipient?.nome === 'string' ? recipient.nome : undefined;
  const cep = typeof recipient?.endereco?.cep === 'string' ? recipient.endereco.cep : undefined;
  return [name, cep && `CEP ${formatCep(cep)}`].filter(Boolean).join(', ') || undefined;
}

function historyEntry(view: AttemptView, entry: HistoryEntry, index: number): Html {
  const { t, lang } = view;
  const { attempt } = entry;
  const claimable =
    attempt.outcome === 'created' &&
    attempt.prepostagemId !== undefined &&
    entry.sameRequest &&
    !entry.boundElsewhere;
  const heading = `history-${index}`;
  return html`<li class="card${entry.sameRequest ? ' same' : ''}">
<h3 id="${heading}">${t.historyEntry(formatWhen(attempt.createdAt, lang, true))}</h3>
${definitions([
  [t.fieldOutcome, t.outcome[attempt.outcome] ?? attempt.outcome],
  [t.fieldPrepostagem, attempt.prepostagemId],
  [t.fieldTracking, attempt.trackingCode],
  [t.fieldRecipient, evidenceRecipient(entry)],
  [t.fieldReason, attempt.reason],
  [t.fieldSameRequest, entry.sameRequest ? t.yes : t.no],
  [t.fieldBoundElsewhere, entry.boundElsewhere ? t.yes : t.no],
  [t.fieldSupportCode, attempt.supportCode],
])}
${
  claimable
    ? html`<button class="primary" type="button"${NEEDS_SCRIPT} data-resolve-created="${attempt.prepostagemId}" aria-describedby="${heading}">${t.ours} <span class="code">(${attempt.prepostagemId})</span></button>`
    : ''
}
</li>`;
}

function decisionSection(view: AttemptView): Html {
  const { t } = view;
  const history =
    view.history === null
      ? html`<p class="notice notice-error">${t.historyError}</p>`
      : view.history && view.history.length > 0
        ? html`<ol class="history">${view.history.map((entry, i) => historyEntry(view, entry, i))}</ol>`
        : html`<p>${t.historyEmpty}</p>`;
  return html`<section class="column" aria-labelledby="platform-history">
<h2 id="platform-history">${t.history}</h2>
<p>${t.historyIntro}</p>
${history}
<h2 id="decide">${t.decide}</h2>
<p>${t.unknownAdvice}</p>
<form class="decision" data-resolve-not-created>
<fieldset>
<legend>${t.notCreatedLegend}</legend>
<div class="check"><input id="not-created-confirm" type="checkbox" required><label for="not-created-confirm">${t.notCreatedConfirm}</label></div>
<p class="hint">${t.notCreatedHelp}</p>
<button class="secondary" type="submit"${NEEDS_SCRIPT}>${t.notCreated}</button>
</fieldset>
</form>
<details class="forced">
<summary>${t.forcedSummary}</summary>
<p>${t.forcedIntro}</p>
<form class="decision" data-resolve-forced>
<div class="field"><label for="forced-id">${t.forcedId}</label><input id="forced-id" name="prepostagemId" required maxlength="40" autocomplete="off" class="code"></div>
<div class="field"><label for="forced-tracking">${t.forcedTracking}</label><input id="forced-tracking" name="trackingCode" maxlength="20" autocomplete="off" class="code"></div>
<div class="field"><label for="forced-reason">${t.forcedReason}</label><textarea id="forced-reason" name="force" required minlength="10" maxlength="500" rows="3"></textarea></div>
<button class="secondary" type="submit"${NEEDS_SCRIPT}>${t.forcedSubmit}</button>
</form>
</details>
<p class="status" role="status" data-resolve-status></p>
</section>`;
}

function resendSection(view: AttemptView): Html {
  const { t } = view;
  return html`<section aria-labelledby="resend">
<h2 id="resend">${t.resendHeading}</h2>
<p>${t.resendIntro}</p>
<button class="primary" type="button"${NEEDS_SCRIPT} data-resend>${t.resend}</button>
<p class="status" role="status" data-resend-status></p>
</section>`;
}

/** One attempt: what we asked, what the platform answered, and for an unknown one its history beside it and the decision. */
export function attemptBody(view: AttemptView): Html {
  const { t, attempt } = view;
  const names = labelNames(t, attempt.orderId, attempt.volume);
  const title = attempt.orderId === null ? t.attemptNoOrder : t.attemptTitle(names.order, names.volume);
  // The stored request, read with the platform's schema (a row the schema does not read is shown as it is).
  const request = readStored(GenerateLabelInputSchema, attempt.request);
  const printable = attempt.state === 'created' && attempt.prepostagemId !== null;
  return html`<p class="back"><a href="/admin/labels">${t.back}</a></p>
<h1>${title}</h1>
${notice(view.done)}
<div class="side-by-side${attempt.state === 'unknown' ? ' with-history' : ''}" data-attempt="${attempt.id}">
<section class="column" aria-labelledby="our-request">
<h2 id="our-request">${t.ourRequest}</h2>
${requestFacts(view, request)}
<h2 id="platform-answer">${t.platformAnswer}</h2>
${answerFacts(view)}
${
  printable
    ? html`<p><a class="button primary" href="${printHref([attempt.id])}" target="_blank">${t.reprint} <span class="visually-hidden">${t.newTab}</span></a></p>`
    : ''
}
</section>
${attempt.state === 'unknown' ? decisionSection(view) : ''}
</div>
${attempt.state === 'not_sent' ? resendSection(view) : ''}`;
}
