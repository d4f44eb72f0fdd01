import type { PreviewLabelOutput } from './labels/agent-label.ts';
import type { Attempt } from './labels/diagnosis.ts';
import type { LabelRecord } from './labels/label.ts';
import { formatBRL } from './money.ts';
import { ATTEMPT_HISTORY_DAYS } from './platform-limits.ts';
import { arrivalText, sameDatesNote } from './promise-text.ts';
import type { McpRate } from './quote.ts';
import type { TrackingResult } from './tracking.ts';
import type { TrackingLookupResult } from './tracking-lookup.ts';

/**
 * What an AI agent reads in a tool result's text, for both MCP servers (the sandbox's, emulating the platform, and
 * the BFF's): one wording per situation, built only from structured data (never a key, never upstream internals).
 * Pure: the servers add the structured JSON and their own transport.
 */

type Reasoned = { reason?: string | undefined; actionUrl?: string | undefined };

/** Singular or plural, for counts ("1 option", "2 options"). */
export function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`;
}

/** Words of the carrier or the platform, quoted as theirs (they are in Portuguese; ours are English). */
export function carrierWords(text: string): string {
  return `the carrier says, in Portuguese: "${text}"`;
}

/** The reason of a result: ` (reason: x; the merchant must act at actionUrl)`, or nothing. */
export function reasonText(value: Reasoned): string {
  if (!value.reason) return '';
  return ` (reason: ${value.reason}${value.actionUrl ? '; the merchant must act at actionUrl' : ''})`;
}

/** A rate as a quote answers it: the BFF's carry their delivery promise (São Paulo dates), the platform's do not. */
type PromisedRate = McpRate & { promise?: { from: string; to: string } | undefined };

/**
 * One line per option: `PAC (PAC) R$ 21,50, up to 6 business days`; with the store's promise, in the words every
 * surface uses (shared/promise-text.ts): `PAC (PAC) R$ 21,50, arrives Dec 3–5 (São Paulo dates)`, and where a cheaper
 * option promises the same dates, that too. When the store's shipping rules changed what the shopper pays, the
 * platform's price beside it (what the label costs the store).
 */
export function rateLine(rate: PromisedRate, rates: readonly PromisedRate[] = []): string {
  const platform = rate.platformPrice;
  const charged = rate.free === true ? 0 : rate.price;
  const ruled =
    typeof platform === 'number' && platform !== charged
      ? ` (the platform's price, what its label costs the store: ${formatBRL(platform)})`
      : '';
  const head = `${rate.label} (${rate.code}) ${rate.free === true ? 'free' : formatBRL(rate.price)}${ruled}`;
  if (!rate.promise) return `${head}, up to ${plural(rate.deliveryDays, 'business day')}`;
  const same = sameDatesNote(rate, rates, 'en');
  return `${head}, ${lowerFirst(arrivalText(rate.promise, 'en'))} (São Paulo dates)${same ? ` — ${same}` : ''}`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** A quote in one line: its options, or "no quote" (never free shipping: spec 2.2) with the reason. */
export function ratesSummary(output: { rates: PromisedRate[] } & Reasoned): string {
  if (output.rates.length === 0) return `No quote available; this is not free shipping${reasonText(output)}.`;
  return `${plural(output.rates.length, 'option')}: ${output.rates.map((rate) => rateLine(rate, output.rates)).join('; ')}.`;
}

/** A refusal that the merchant must fix (plan, key, store): no result, and the reason. */
export function refusalSummary(what: 'quote' | 'tracking', value: Reasoned): string {
  return `No ${what}: the platform refused the request${reasonText(value)}.`;
}

/** What a late parcel's line adds: the promise it broke (shared/parcel-story.ts). */
function lateText(result: TrackingLookupResult): string {
  if (!result.late || !result.promise) return '';
  return ` — LATE: promised by ${result.promise.to} (São Paulo) and still on its way`;
}

/** One line per tracking code: found or not, delivered or not, the last status; late when past its promise. */
export function trackingLine(result: TrackingResult | TrackingLookupResult): string {
  if (!result.found) return `${result.code}: not found${result.message ? ` — ${result.message}` : ''}`;
  const status = result.lastStatus;
  const late = 'late' in result ? lateText(result) : '';
  if (!status) return `${result.code}: found, no events yet (not delivered)${late}`;
  return `${result.code}: ${result.delivered ? 'delivered' : 'not delivered'} — ${status.description}${status.timestamp ? ` (${status.timestamp})` : ''}${late}`;
}

/** The stalled codes of an answer: the watcher saw no news for days and the shopper was told (`stalled: true`). */
function stalledText(results: readonly TrackingLookupResult[]): string {
  const stalled = results.filter((r) => r.stalled && !r.late);
  if (stalled.length === 0) return '';
  return `; ${stalled.length} STALLED, no carrier news for days (${stalled.map((r) => r.code).join(', ')}): the store was told and follows it up with the carrier`;
}

/** A tracking answer in one line: the counts (stale ones too). `trackingLine` gives the detail of each code. */
export function trackingSummary(results: readonly TrackingLookupResult[]): string {
  const delivered = results.filter((r) => r.delivered).length;
  const missing = results.filter((r) => !r.found).length;
  const stale = results.filter((r) => r.stale).length;
  const late = results.filter((r) => r.late);
  return [
    `${plural(results.length, 'code')}: ${delivered} delivered, ${results.length - delivered - missing} not delivered, ${missing} not found`,
    late.length > 0
      ? `; ${late.length} LATE, still on the way after the promised last day (${late.map((r) => `${r.code} promised by ${r.promise?.to}`).join(', ')}): the shopper may ask the store, which follows it up with the carrier`
      : '',
    stalledText(results),
    stale > 0 ? `; ${stale} last known (could not refresh, marked stale)` : '',
    '.',
  ].join('');
}

/** What a `generate_label` record says: created (or returned again), PDF or how to get it, or nothing created. */
export function labelSummary(record: LabelRecord, replayed = false): string {
  if (!record.prepostagemId) {
    return `No pre-posting was created${record.status ? ` (${carrierWords(record.status)})` : ''}${reasonText(record)}.`;
  }
  const head = `${replayed ? 'Already issued (returned again, nothing new was created)' : 'Pre-posting created'}: ${record.prepostagemId}, tracking code ${record.trackingCode}.`;
  // spec 3.2: the PDF comes from get_label_pdf; never repeat generate_label to get it.
  const pdf = record.labelPdfBase64
    ? 'The label PDF is in labelPdfBase64.'
    : `The PDF is not ready yet: call get_label_pdf with prepostagemId ${record.prepostagemId}. Do NOT call generate_label again for it: that would create another pre-posting.`;
  return `${head} ${pdf}${reasonText(record)}`;
}

/** What `get_label_pdf` says: the PDF is attached, or why there is none. */
export function labelPdfSummary(
  prepostagemId: string,
  output: { status?: string | undefined; labelPdfBase64?: string | undefined } & Reasoned,
): string {
  if (output.labelPdfBase64) return `Label PDF of ${prepostagemId} (application/pdf, 10 × 15 cm).`;
  return `No PDF for ${prepostagemId}${output.status ? ` (${carrierWords(output.status)})` : ''}${reasonText(output)}.`;
}

/** The label PDF as an embedded MCP resource (spec 4.4.4), beside `labelPdfBase64`. */
export function labelPdfResource(prepostagemId: string, blob: string) {
  return {
    type: 'resource' as const,
    resource: { uri: `label:///${encodeURIComponent(prepostagemId)}.pdf`, mimeType: 'application/pdf', blob },
  };
}

/** One line per attempt of `diagnose_label_issue`, with the action to take. */
export function attemptLine(a: Attempt): string {
  return (
    `- ${a.createdAt} ${a.source}${a.orderId ? ` order ${a.orderId}` : ''}: ${a.outcome}${a.reason ? ` (reason: ${a.reason})` : ''}` +
    `${a.prepostagemId ? ` pre-posting ${a.prepostagemId}` : ''} — supportCode ${a.supportCode}; action: ${a.action}`
  );
}

/**
 * A diagnosis in one line: how many attempts and what the latest one needs; none is not proof that no label exists
 * (spec 4.4.5). `attemptLine` gives the detail of each.
 */
export function diagnosisSummary(attempts: readonly Attempt[], bySupportCode = false): string {
  const latest = attempts[0];
  if (!latest) {
    return (
      `${bySupportCode ? 'No attempt with that support code' : 'No label attempts'} in the last ${ATTEMPT_HISTORY_DAYS} days; ` +
      'absence of a record does not prove that no label was created.'
    );
  }
  return `${plural(attempts.length, 'attempt')}, most recent first; the latest (${latest.createdAt}) ${latest.outcome}${latest.reason ? ` (reason: ${latest.reason})` : ''}, supportCode ${latest.supportCode}: ${latest.action}`;
}

/** What an agent does after `not_sent`: one wording, in the instructions and in the answer. */
const RESEND_WHEN_NOT_SENT = 'send the same request again once the platform answers';

/**
 * The `status` of a `generate_label` whose answer was lost after it was sent (`reason: outcome_unknown`): when it was
 * sent, why it is still unknown (`because`, from the ledger), what the agent does and how the merchant settles it.
 */
export function outcomeUnknownStatus(unknown: {
  sentAt: number;
  because: string;
  attemptId: string;
}): string {
  return (
    `The answer to this request was lost after it was sent (at ${new Date(unknown.sentAt).toISOString()}): the pre-posting may or may not exist. ` +
    'Do not resend with a new key. Calling generate_label again with the same input checks the platform history first and never creates a second label while the outcome is unknown. ' +
    `Still unknown because ${unknown.because}. If it stays unknown, ask the merchant to settle attempt ${unknown.attemptId} in the label desk (/admin/labels), after checking the carrier's panel.`
  );
}

/** The `status` of a `generate_label` that never reached the platform (`reason: not_sent`): nothing was created. */
export function notSentStatus(): string {
  const resend = `${RESEND_WHEN_NOT_SENT.charAt(0).toUpperCase()}${RESEND_WHEN_NOT_SENT.slice(1)}`;
  return `The request did not reach the platform (connection refused, DNS, TLS, or an error answered before the tool ran): no pre-posting was created. ${resend}.`;
}

/** The one-line summary of an unsettled label answer: `Outcome UNKNOWN (reason: outcome_unknown). <status>`. */
export function unsettledLabelSummary(answer: {
  reason: 'outcome_unknown' | 'not_sent';
  status: string;
}): string {
  const head = answer.reason === 'outcome_unknown' ? 'Outcome UNKNOWN' : 'Not sent';
  return `${head} (reason: ${answer.reason}). ${answer.status}`;
}

/** The label ledger could not be written (nothing was sent, or the attempt stays pending): resend the same later. */
export function ledgerUnavailableText(retryAfterSeconds: number): string {
  return `The label ledger is unavailable right now. Resend the same input with the same idempotencyKey in ${retryAfterSeconds} seconds: this server never issues a label twice, and checks the platform history for a request that was already in the air.`;
}

/**
 * The BFF's instructions to an agent: only about the tools its token gets (`tools`, in catalog order), and why the
 * label tools are absent when the platform does not offer them (`labelsWithheld`). Our words, never upstream text.
 */
export function agentInstructions(tools: readonly string[], labelsWithheld?: string): string {
  const lines = [
    `Shipping tools of this store: ${tools.join(', ') || 'none'}. Every result ends with its structured JSON.`,
    'A result with reason and actionUrl is a configuration problem for the merchant (show them actionUrl); calling again will not help.',
    'An error that says "try again in N seconds" is transient: wait that long before calling again.',
  ];
  if (tools.includes('get_shipping_rates'))
    lines.push('An empty rates list is "no quote available", never free shipping.');
  if (tools.includes('generate_label')) {
    lines.push(
      'generate_label creates a REAL, billable pre-posting. Pass the orderId (and volume, 1, 2, … for each box of the order), or an idempotencyKey (one per intended label), and reuse them when you retry.',
      'If a result says the outcome is unknown, do not resend with another key: call generate_label again with the same input, and the server checks the platform history first.',
      `A result with reason not_sent never reached the platform: nothing was created; ${RESEND_WHEN_NOT_SENT}.`,
      'A result with reason approval_pending waits for the merchant: nothing was sent; call again later with the same input.',
    );
  }
  if (tools.includes('get_shipping_rates') && tools.includes('generate_label')) {
    lines.push(
      "From a quote to a label: give generate_label the option's serviceId (or its serviceCode), never its display code.",
    );
  }
  if (tools.includes('plan_shipment')) {
    lines.push(
      "plan_shipment packs an order into the merchant's boxes: issue one label per volume it answers (volume 1, 2, …).",
    );
  }
  if (tools.includes('preview_label')) {
    lines.push(
      'preview_label shows the price, the policy and what would be printed, and creates nothing: use it before generate_label.',
    );
  }
  if (labelsWithheld) lines.push(`Label tools are not offered: ${labelsWithheld}.`);
  return lines.join('\n');
}

/** Most characters the text of a BFF tool answer carries (the structured result has everything; docs/architecture.md, "Labels"). */
export const MAX_ANSWER_TEXT = 1000;

/**
 * The text of a BFF tool answer: the summary, then the structured result as compact JSON when both fit in
 * `MAX_ANSWER_TEXT` characters; otherwise the summary alone (cut to fit), saying where the rest is. A label's PDF is
 * never in the text: it travels once, in `labelPdfBase64` of the structured result.
 */
export function leanText(summary: string, structured: Record<string, unknown>): string {
  const { labelPdfBase64, ...rest } = structured;
  const note =
    labelPdfBase64 === undefined ? '' : ' (labelPdfBase64 omitted here: it is in the structured result)';
  const full = `${summary}\n${JSON.stringify(rest)}${note}`;
  if (full.length <= MAX_ANSWER_TEXT) return full;
  const tail = '\nThe whole result is in structuredContent.';
  const room = MAX_ANSWER_TEXT - tail.length;
  return `${summary.length > room ? `${summary.slice(0, room - 1)}…` : summary}${tail}`;
}

/** A label request refused before anything was sent: which rule, which field, and what to do. */
export function labelRefusalSummary(refusal: {
  reason: string;
  message: string;
  field?: string | undefined;
}): string {
  return `Nothing was sent (reason: ${refusal.reason}${refusal.field ? `, field: ${refusal.field}` : ''}). ${refusal.message}`;
}

/** A label waiting for (or refused by) the merchant. */
export function approvalSummary(answer: { reason: string; approvalId: string; message: string }): string {
  return `${answer.reason === 'approval_pending' ? 'Waiting for the merchant' : 'Not issued'} (reason: ${answer.reason}, approvalId ${answer.approvalId}). ${answer.message}`;
}

/**
 * What preview_label found: would it be sent, at what price, under which policy. A request refused before it was
 * priced (`field` names what is wrong) is told as that refusal alone: no service or price to stand in for.
 */
export function previewSummary(
  preview: Pick<
    PreviewLabelOutput,
    | 'wouldSend'
    | 'serviceCode'
    | 'quotedPrice'
    | 'approvalRequired'
    | 'reason'
    | 'message'
    | 'limitsLeft'
    | 'field'
  >,
): string {
  const limits = [
    preview.limitsLeft.labels === undefined ? '' : `${plural(preview.limitsLeft.labels, 'label')} left today`,
    preview.limitsLeft.declaredValue === undefined
      ? ''
      : `${formatBRL(preview.limitsLeft.declaredValue)} of declared value left today`,
  ].filter(Boolean);
  const verdict = preview.wouldSend
    ? 'generate_label with this input would send it now'
    : preview.approvalRequired
      ? "generate_label would wait for the merchant's approval"
      : `generate_label would not send it${preview.reason ? ` (reason: ${preview.reason})` : ''}${preview.message ? `: ${preview.message.replace(/\.$/, '')}` : ''}`;
  const priced =
    preview.field !== undefined || preview.serviceCode === undefined
      ? []
      : [
          `service ${preview.serviceCode}`,
          preview.quotedPrice === undefined
            ? "not priced (the store's quote has no option for this service)"
            : `quoted ${formatBRL(preview.quotedPrice)}`,
        ];
  const details = [priced.join(', '), limits.join(', ')].filter(Boolean);
  return `Preview only, nothing was created: ${verdict}${details.length ? `; ${details.join('; ')}` : ''}.`;
}

/** What plan_shipment found: the boxes, or the item that fits none. */
export function planSummary(
  plan:
    | { volumes: readonly { box: string; weightGrams: number; items: readonly { quantity: number }[] }[] }
    | { reason: string; message?: string | undefined },
): string {
  if (!('volumes' in plan)) return `No plan (reason: ${plan.reason}). ${plan.message ?? ''}`.trim();
  const boxes = plan.volumes.map(
    (v, i) =>
      `volume ${i + 1}: box ${v.box}, ${plural(
        v.items.reduce((n, item) => n + item.quantity, 0),
        'item',
      )}, ${v.weightGrams} g`,
  );
  return `${plural(plan.volumes.length, 'volume')} (one label each, volume 1 to ${plan.volumes.length}): ${boxes.join('; ')}.`;
}
