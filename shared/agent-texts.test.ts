import { describe, expect, it } from 'vitest';
import {
  diagnosisSummary,
  labelPdfResource,
  labelPdfSummary,
  labelSummary,
  plural,
  ratesSummary,
  trackingLine,
  trackingSummary,
} from './agent-texts.ts';

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
      'No pre-posting was created (status: recusado) (reason: prepostagem_rejected).',
    );
  });

  it('attaches the PDF as an embedded application/pdf resource', () => {
    expect(labelPdfResource('PP 1', 'JVBERi0=')).toEqual({
      type: 'resource',
      resource: { uri: 'label:///PP%201.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
    });
    expect(labelPdfSummary('PP1', { status: 'cancelada', reason: 'label_not_printable' })).toBe(
      'No PDF for PP1 (status: cancelada) (reason: label_not_printable).',
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
});
