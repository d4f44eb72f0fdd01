import { describe, expect, it } from 'vitest';
import {
  agentInstructions,
  approvalSummary,
  attemptLine,
  diagnosisSummary,
  labelPdfResource,
  labelPdfSummary,
  labelRefusalSummary,
  labelSummary,
  leanText,
  ledgerUnavailableText,
  MAX_ANSWER_TEXT,
  notSentStatus,
  outcomeUnknownStatus,
  planSummary,
  plural,
  previewSummary,
  ratesSummary,
  refusalSummary,
  trackingLine,
  trackingSummary,
  unsettledLabelSummary,
} from './agent-texts.ts';
import type { Attempt } from './labels/diagnosis.ts';
import { formatBRL } from './money.ts';

const pac = { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 1, price: 21.5 };

describe('agent texts', () => {
  it('counts in the singular and the plural', () => {
    expect(plural(1, 'option')).toBe('1 option');
    expect(plural(2, 'option')).toBe('2 options');
  });

  it('lists each option with its price or "free", and never calls an empty list free shipping', () => {
    expect(ratesSummary({ rates: [pac, { ...pac, code: 'SEDEX', free: true, price: 0 }] })).toBe(
      '2 options: PAC (PAC) R$\u00a021,50, up to 1 business day; PAC (SEDEX) free, up to 1 business day.',
    );
    // The BFF's rates carry their promise: the calculator's words, in English, and a dearer option with the same dates
    // says so.
    const promise = { from: '2026-12-17', to: '2026-12-22', basis: 'platform' as const, parcels: 0 };
    const sedex = { ...pac, code: 'SEDEX', label: 'SEDEX', price: 25.5, promise };
    expect(ratesSummary({ rates: [{ ...pac, promise }, sedex] })).toBe(
      '2 options: PAC (PAC) R$\u00a021,50, arrives Dec 17–22 (São Paulo dates); SEDEX (SEDEX) R$\u00a025,50, arrives Dec 17–22 (São Paulo dates) — PAC: same dates for less.',
    );
    const none = ratesSummary({ rates: [], reason: 'subscription_required', actionUrl: 'https://x' });
    expect(none).toBe(
      'No quote available; this is not free shipping (reason: subscription_required; the merchant must act at actionUrl).',
    );
  });

  it('sends the agent to get_label_pdf, never to generate_label again, when the PDF is not ready (spec 3.2)', () => {
    const text = labelSummary({ prepostagemId: 'PP1', trackingCode: 'AB1BR', reason: 'label_pdf_timeout' });
    expect(text).toContain('call get_label_pdf with prepostagemId PP1');
    expect(text).toContain('Do NOT call generate_label again');
    expect(labelSummary({ prepostagemId: 'PP1', labelPdfBase64: 'JVBERi0=' }, true)).toMatch(
      /^Already issued/,
    );
    expect(labelSummary({ status: 'recusado', reason: 'prepostagem_rejected' })).toBe(
      'No pre-posting was created (the carrier says, in Portuguese: "recusado") (reason: prepostagem_rejected).',
    );
  });

  it('attaches the PDF as an embedded application/pdf resource', () => {
    expect(labelPdfResource('PP 1', 'JVBERi0=')).toEqual({
      type: 'resource',
      resource: { uri: 'label:///PP%201.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
    });
    expect(labelPdfSummary('PP1', { status: 'cancelada', reason: 'label_not_printable' })).toBe(
      'No PDF for PP1 (the carrier says, in Portuguese: "cancelada") (reason: label_not_printable).',
    );
  });

  it('counts tracking results and marks stale ones', () => {
    const text = trackingSummary([
      {
        code: 'A',
        found: true,
        delivered: true,
        events: [],
        lastStatus: { code: 'BDE', description: 'Entregue' },
      },
      { code: 'B', found: false, delivered: false, events: [], stale: true },
    ]);
    expect(text).toBe(
      '2 codes: 1 delivered, 0 not delivered, 1 not found; 1 last known (could not refresh, marked stale).',
    );
    expect(trackingLine({ code: 'B', found: true, delivered: false, events: [] })).toBe(
      'B: found, no events yet (not delivered)',
    );
  });

  it('says that no attempt is no proof that no label exists (spec 4.4.5)', () => {
    expect(diagnosisSummary([])).toContain('does not prove that no label was created');
    expect(diagnosisSummary([], true)).toMatch(/^No attempt with that support code in the last 90 days/);
  });

  it('tells a refusal the merchant must fix, with the reason and where to act', () => {
    expect(refusalSummary('tracking', { reason: 'subscription_required', actionUrl: 'https://x' })).toBe(
      'No tracking: the platform refused the request (reason: subscription_required; the merchant must act at actionUrl).',
    );
    expect(refusalSummary('quote', {})).toBe('No quote: the platform refused the request.');
    expect(refusalSummary('quote', { reason: 'carrier_auth_failed' })).toBe(
      'No quote: the platform refused the request (reason: carrier_auth_failed).',
    );
  });

  it('writes one line per tracking code: not found (and why), delivered or not, the last status and its time', () => {
    const lastStatus = {
      code: 'BDE',
      type: '01',
      description: 'Objeto entregue',
      timestamp: '2026-11-10T14:32:05',
    };
    expect(trackingLine({ code: 'A', found: false, delivered: false, events: [] })).toBe('A: not found');
    expect(
      trackingLine({
        code: 'A',
        found: false,
        delivered: false,
        events: [],
        message: 'Objeto não encontrado',
      }),
    ).toBe('A: not found — Objeto não encontrado');
    expect(trackingLine({ code: 'A', found: true, delivered: true, events: [lastStatus], lastStatus })).toBe(
      'A: delivered — Objeto entregue (2026-11-10T14:32:05)',
    );
    const { timestamp: _, ...untimed } = lastStatus;
    expect(
      trackingLine({ code: 'A', found: true, delivered: false, events: [], lastStatus: untimed } as never),
    ).toBe('A: not delivered — Objeto entregue');
  });

  it('counts codes in the singular, with no stale note when every result is fresh', () => {
    expect(trackingSummary([{ code: 'A', found: true, delivered: false, events: [] }])).toBe(
      '1 code: 0 delivered, 1 not delivered, 0 not found.',
    );
  });

  it('says what a created label is, and its PDF when it came with it', () => {
    expect(
      labelSummary({ prepostagemId: 'PP1', trackingCode: 'AB123456785BR', labelPdfBase64: 'JVBERi0=' }),
    ).toBe('Pre-posting created: PP1, tracking code AB123456785BR. The label PDF is in labelPdfBase64.');
    expect(labelSummary({ prepostagemId: 'PP1', trackingCode: 'AB123456785BR' }, true)).toBe(
      'Already issued (returned again, nothing new was created): PP1, tracking code AB123456785BR. ' +
        'The PDF is not ready yet: call get_label_pdf with prepostagemId PP1. Do NOT call generate_label again for ' +
        'it: that would create another pre-posting.',
    );
    expect(labelSummary({})).toBe('No pre-posting was created.');
    expect(labelPdfSummary('PP1', { labelPdfBase64: 'JVBERi0=' })).toBe(
      'Label PDF of PP1 (application/pdf, 10 × 15 cm).',
    );
    expect(labelPdfSummary('PP1', {})).toBe('No PDF for PP1.');
  });

  it('lists each attempt with its order, reason, pre-posting, support code and the action to take', () => {
    const attempt: Attempt = {
      supportCode: '7d1f0c1e-2a8b-4c55-9d1e-3f2a1b0c9d8e',
      createdAt: '2026-11-20T10:00:00Z',
      source: 'nuvemshop',
      orderId: '1042',
      outcome: 'rejected',
      reason: 'invalid_recipient',
      prepostagemId: 'PP9',
      evidence: {},
      action: 'fix the recipient CEP and try again',
    };
    expect(attemptLine(attempt)).toBe(
      '- 2026-11-20T10:00:00Z nuvemshop order 1042: rejected (reason: invalid_recipient) pre-posting PP9 — ' +
        'supportCode 7d1f0c1e-2a8b-4c55-9d1e-3f2a1b0c9d8e; action: fix the recipient CEP and try again',
    );
    const bare: Attempt = {
      supportCode: 'S',
      createdAt: 'T',
      source: 'api',
      outcome: 'failed',
      evidence: {},
      action: 'retry',
    };
    expect(attemptLine(bare)).toBe('- T api: failed — supportCode S; action: retry');
    expect(diagnosisSummary([attempt, bare])).toBe(
      '2 attempts, most recent first; the latest (2026-11-20T10:00:00Z) rejected (reason: invalid_recipient), ' +
        'supportCode 7d1f0c1e-2a8b-4c55-9d1e-3f2a1b0c9d8e: fix the recipient CEP and try again',
    );
    expect(diagnosisSummary([bare])).toBe(
      '1 attempt, most recent first; the latest (T) failed, supportCode S: retry',
    );
    expect(diagnosisSummary([])).toBe(
      'No label attempts in the last 90 days; absence of a record does not prove that no label was created.',
    );
  });

  it('says when an unknown outcome was sent, why it is still unknown, and where the merchant settles it', () => {
    const status = outcomeUnknownStatus({
      sentAt: Date.UTC(2026, 10, 20, 10, 0, 0),
      because: 'the platform history shows no matching attempt yet',
      attemptId: 'att_1',
    });
    expect(status).toBe(
      'The answer to this request was lost after it was sent (at 2026-11-20T10:00:00.000Z): the pre-posting may or may ' +
        'not exist. Do not resend with a new key. Calling generate_label again with the same input checks the platform ' +
        'history first and never creates a second label while the outcome is unknown. Still unknown because the ' +
        'platform history shows no matching attempt yet. If it stays unknown, ask the merchant to settle attempt att_1 ' +
        "in the label desk (/admin/labels), after checking the carrier's panel.",
    );
    expect(unsettledLabelSummary({ reason: 'outcome_unknown', status })).toBe(
      `Outcome UNKNOWN (reason: outcome_unknown). ${status}`,
    );
  });

  it('says the same thing about not_sent in the answer and in the instructions: nothing created, send it again', () => {
    expect(notSentStatus()).toBe(
      'The request did not reach the platform (connection refused, DNS, TLS, or an error answered before the tool ' +
        'ran): no pre-posting was created. Send the same request again once the platform answers.',
    );
    expect(unsettledLabelSummary({ reason: 'not_sent', status: notSentStatus() })).toMatch(
      /^Not sent \(reason: not_sent\)\. The request did not reach the platform/,
    );
    const instruction = agentInstructions(['generate_label'])
      .split('\n')
      .find((line) => line.startsWith('A result with reason not_sent'));
    expect(instruction).toBe(
      'A result with reason not_sent never reached the platform: nothing was created; send the same request again once the platform answers.',
    );
    expect(notSentStatus().toLowerCase()).toContain(instruction?.split('; ')[1]?.replace(/\.$/, ''));
  });

  it('tells the agent to resend the same input with the same key once the ledger is back', () => {
    expect(ledgerUnavailableText(30)).toBe(
      'The label ledger is unavailable right now. Resend the same input with the same idempotencyKey in 30 seconds: ' +
        'this server never issues a label twice, and checks the platform history for a request that was already in the air.',
    );
  });

  it('instructs only about the tools offered, and says why label tools are withheld', () => {
    const all = agentInstructions([
      'get_shipping_rates',
      'track_shipment',
      'generate_label',
      'get_label_pdf',
      'diagnose_label_issue',
    ]).split('\n');
    expect(all).toHaveLength(9);
    expect(all[0]).toBe(
      'Shipping tools of this store: get_shipping_rates, track_shipment, generate_label, get_label_pdf, diagnose_label_issue. Every result ends with its structured JSON.',
    );
    expect(all[3]).toBe('An empty rates list is "no quote available", never free shipping.');
    const none = agentInstructions([], 'label integration is off').split('\n');
    expect(none[0]).toBe('Shipping tools of this store: none. Every result ends with its structured JSON.');
    expect(none.at(-1)).toBe('Label tools are not offered: label integration is off.');
    expect(none.join('\n')).not.toMatch(/idempotencyKey|empty rates/);
    expect(agentInstructions(['track_shipment']).split('\n')).toHaveLength(3);
    // The BFF's own tools and the way from a quote to a label, only to a token that has them.
    const labels = agentInstructions([
      'get_shipping_rates',
      'generate_label',
      'preview_label',
      'plan_shipment',
    ]);
    expect(labels).toContain("give generate_label the option's serviceId");
    expect(labels).toContain('preview_label shows the price');
    expect(labels).toContain('plan_shipment packs an order');
    expect(agentInstructions(['generate_label'])).not.toMatch(/serviceId|preview_label|plan_shipment/);
  });

  it('keeps an answer’s text within 1,000 characters, and a label’s PDF out of it', () => {
    const pdf = 'JVBERi0'.repeat(3000);
    const text = leanText('Pre-posting created: PP1.', { prepostagemId: 'PP1', labelPdfBase64: pdf });
    expect(text).toBe(
      'Pre-posting created: PP1.\n{"prepostagemId":"PP1"} (labelPdfBase64 omitted here: it is in the structured result)',
    );
    const long = leanText('x'.repeat(2000), { a: 1 });
    expect(long.length).toBe(MAX_ANSWER_TEXT);
    expect(long).toMatch(/…\nThe whole result is in structuredContent\.$/);
    const fits = leanText('short', { results: ['y'.repeat(900)] });
    expect(fits.length).toBeLessThanOrEqual(MAX_ANSWER_TEXT);
    expect(leanText('short', { results: ['y'.repeat(990)] })).toBe(
      'short\nThe whole result is in structuredContent.',
    );
  });

  it('says why a label was refused, naming the rule and the field, and what waits for the merchant', () => {
    expect(
      labelRefusalSummary({
        reason: 'implausible_weight',
        field: 'weightGrams',
        message: '0.8 looks like kilograms — 800 g?',
      }),
    ).toBe(
      'Nothing was sent (reason: implausible_weight, field: weightGrams). 0.8 looks like kilograms — 800 g?',
    );
    expect(labelRefusalSummary({ reason: 'order_volume_conflict', message: 'Volume 1 of order 9 …' })).toBe(
      'Nothing was sent (reason: order_volume_conflict). Volume 1 of order 9 …',
    );
    expect(approvalSummary({ reason: 'approval_pending', approvalId: 'ap1', message: 'Wait.' })).toBe(
      'Waiting for the merchant (reason: approval_pending, approvalId ap1). Wait.',
    );
    expect(approvalSummary({ reason: 'approval_rejected', approvalId: 'ap1', message: 'No.' })).toMatch(
      /^Not issued/,
    );
  });

  it('sums up a preview and a packing plan in one line each', () => {
    expect(
      previewSummary({
        wouldSend: true,
        serviceCode: '03298',
        quotedPrice: 21.5,
        approvalRequired: false,
        limitsLeft: { labels: 3, declaredValue: 120 },
      }),
    ).toBe(
      `Preview only, nothing was created: generate_label with this input would send it now; service 03298, quoted ${formatBRL(21.5)}; 3 labels left today, ${formatBRL(120)} of declared value left today.`,
    );
    expect(previewSummary({ wouldSend: false, approvalRequired: true, limitsLeft: {} })).toBe(
      "Preview only, nothing was created: generate_label would wait for the merchant's approval.",
    );
    expect(
      previewSummary({ wouldSend: false, approvalRequired: true, serviceCode: '03298', limitsLeft: {} }),
    ).toBe(
      "Preview only, nothing was created: generate_label would wait for the merchant's approval; service 03298, not priced (the store's quote has no option for this service).",
    );
    const refusal = previewSummary({
      wouldSend: false,
      approvalRequired: false,
      serviceCode: 'PAC',
      reason: 'unknown_service',
      message: '"PAC" is not a contract product code of this store.',
      field: 'serviceCode',
      limitsLeft: { labels: 1 },
    });
    expect(refusal).toBe(
      'Preview only, nothing was created: generate_label would not send it (reason: unknown_service): "PAC" is not a contract product code of this store; 1 label left today.',
    );
    expect(refusal).not.toMatch(/\?|no quote for this service/);
    expect(
      planSummary({ volumes: [{ box: 'M', weightGrams: 1380, items: [{ quantity: 1 }, { quantity: 2 }] }] }),
    ).toBe('1 volume (one label each, volume 1 to 1): volume 1: box M, 3 items, 1380 g.');
    expect(planSummary({ reason: 'item_does_not_fit', message: 'sofa fits no box.' })).toBe(
      'No plan (reason: item_does_not_fit). sofa fits no box.',
    );
  });

  it('says which codes are late or stalled, as the tracking page and the e-mails do', () => {
    const base = { found: true, delivered: false, events: [] };
    const promise = { from: '2026-12-10', to: '2026-12-16', basis: 'platform' as const, parcels: 0 };
    const summary = trackingSummary([
      { ...base, code: 'QB000000001BR', late: true as const, promise },
      { ...base, code: 'QB000000002BR', stalled: true as const },
      { ...base, code: 'QB000000003BR' },
    ]);
    expect(summary).toContain(
      '1 LATE, still on the way after the promised last day (QB000000001BR promised by 2026-12-16)',
    );
    expect(summary).toContain('1 STALLED, no carrier news for days (QB000000002BR)');
  });
});
