import { formatCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import { type AgentLabelInput, AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
import type { Locale } from '../../shared/locale.ts';
import type { ApprovalLimits } from '../labels/approvals.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import type { Approval } from '../policies/approval-store.ts';
import { formatDimensions, formatMoney, formatWeight } from './format.ts';
import type { Messages } from './messages.ts';
import {
  definitions,
  labelNames,
  NEEDS_SCRIPT,
  notice,
  partyBlock,
  readStored,
  stateBadge,
  timeOf,
} from './view-parts.ts';

export interface ApprovalsPageView {
  t: Messages;
  lang: Locale;
  pending: readonly Approval[];
  decided: readonly Approval[];
  /** The ledger attempt each approved label was issued as, by approval id. */
  issued: ReadonlyMap<string, LedgerAttempt>;
  /** What each pending approval's agent may still issue today, by approval id. */
  limits: ReadonlyMap<string, ApprovalLimits>;
  serviceName: (serviceCode: string | null) => Html | string;
  done?: string | undefined;
}

/** "PED-9, volume 1, pedida por careful": how an approval is named in its heading and its buttons. */
function approvalName(t: Messages, approval: Approval, request: AgentLabelInput | undefined): string {
  if (request?.orderId === undefined) return t.approvalNoOrder(approval.issuedBy);
  const names = labelNames(t, request.orderId, request.volume);
  return t.approvalHeading(names.order, names.volume, approval.issuedBy);
}

/** "resta 1 etiqueta, R$ 10,00 de valor declarado": what the agent may still issue today, or that it has no limit. */
function limitsText(view: ApprovalsPageView, limits: ApprovalLimits | undefined): string {
  const { t, lang } = view;
  const parts = [
    limits?.labels === undefined ? '' : t.labelsLeft(limits.labels),
    limits?.declaredValue === undefined ? '' : t.valueLeft(formatMoney(limits.declaredValue, lang)),
  ].filter(Boolean);
  return parts.length === 0 ? t.noAgentLimits : parts.join(', ');
}

function pendingCard(view: ApprovalsPageView, approval: Approval): Html {
  const { t, lang } = view;
  const request = readStored(AgentLabelInputSchema, approval.request);
  const name = approvalName(t, approval, request);
  const heading = `approval-${approval.id}`;
  const limits = view.limits.get(approval.id);
  const over = limits?.over && (t.limitName[limits.over] ?? limits.over);
  return html`<li class="card" data-approval="${approval.id}">
<h3 id="${heading}">${name}</h3>
${over ? html`<p class="notice notice-error" data-over-limit>${t.overLimitWarning(over)}</p>` : ''}
${
  request
    ? definitions([
        [t.fieldRecipient, partyBlock(request.recipient)],
        [t.fieldService, view.serviceName(request.serviceCode ?? null)],
        [t.fieldWeight, formatWeight(request.weightGrams, lang)],
        [t.fieldDimensions, formatDimensions(request.dimensions, lang)],
        [t.fieldDeclaredValue, formatMoney(approval.declaredValueCents / 100, lang)],
        [
          t.quotedPrice,
          approval.quotedPriceCents === null
            ? t.notQuoted
            : formatMoney(approval.quotedPriceCents / 100, lang),
        ],
        [t.askedBy, approval.issuedBy],
        [t.agentLimits, limitsText(view, limits)],
        [t.askedAt, timeOf(lang, approval.createdAt)],
        [t.expiresAt, timeOf(lang, approval.expiresAt)],
      ])
    : html`<pre class="raw">${approval.request}</pre>`
}
<div class="actions">
<button class="primary" type="button"${NEEDS_SCRIPT} data-approve="${approval.id}" aria-label="${t.approveLabel(name)}">${t.approve}</button>
<button class="secondary" type="button"${NEEDS_SCRIPT} data-reject="${approval.id}" aria-label="${t.rejectLabel(name)}">${t.reject}</button>
<button class="danger" type="button" hidden${NEEDS_SCRIPT} data-approve-over="${approval.id}" aria-label="${t.approveOverLimitLabel(name)}">${t.approveOverLimit}</button>
</div>
</li>`;
}

function decidedRow(view: ApprovalsPageView, approval: Approval): Html {
  const { t, lang } = view;
  const request = readStored(AgentLabelInputSchema, approval.request);
  const attempt = view.issued.get(approval.id);
  const names = labelNames(t, request?.orderId, request?.volume);
  const destination = request
    ? `${request.recipient.nome}, ${request.recipient.endereco.cidade}/${request.recipient.endereco.uf} (CEP ${formatCep(request.recipient.endereco.cep)})`
    : t.none;
  return html`<tr>
<td class="when">${timeOf(lang, approval.decidedAt ?? approval.expiresAt)}</td>
<td>${approval.issuedBy}</td>
<td>${request?.orderId === undefined ? html`<span class="muted">${t.noOrder}</span>` : `${names.order} · ${names.volume}`}</td>
<td>${destination}</td>
<td>${approval.overLimit ? t.approvedOverLimit : (t.approvalState[approval.state] ?? approval.state)}</td>
<td>${
    attempt
      ? html`<a href="/admin/labels/${attempt.id}">${attempt.prepostagemId ?? t.details}</a> ${stateBadge(t, attempt.state)}`
      : t.none
  }</td>
</tr>`;
}

/** Pending approvals in full, with approve and reject; then the decided ones and the labels they became. */
export function approvalsBody(view: ApprovalsPageView): Html {
  const { t } = view;
  return html`<h1>${t.approvalsTitle}</h1>
${notice(view.done)}
<p class="lead">${t.approvalsIntro}</p>
<section aria-labelledby="pending">
<h2 id="pending">${t.pendingHeading(view.pending.length)}</h2>
${
  view.pending.length === 0
    ? html`<p class="empty">${t.nonePending}</p>`
    : html`<ul class="cards">${view.pending.map((approval) => pendingCard(view, approval))}</ul>`
}
<p class="status" role="status" data-approval-status></p>
</section>
<section aria-labelledby="decided">
<h2 id="decided">${t.decidedHeading}</h2>
${
  view.decided.length === 0
    ? html`<p class="empty">${t.noneDecided}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="decided-caption" tabindex="0">
<table>
<caption id="decided-caption">${t.decidedCaption}</caption>
<thead><tr><th scope="col">${t.fieldSettledAt}</th><th scope="col">${t.askedBy}</th><th scope="col">${t.colOrder}</th><th scope="col">${t.destination}</th><th scope="col">${t.fieldState}</th><th scope="col">${t.colLabel}</th></tr></thead>
<tbody>${view.decided.map((approval) => decidedRow(view, approval))}</tbody>
</table>
</div>`
}
</section>`;
}
