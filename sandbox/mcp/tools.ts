import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatCep } from '../../shared/cep.ts';
import type { Attempt } from '../../shared/diagnosis.ts';
import { isApiError } from '../../shared/errors.ts';
import type { GenerateLabelInput } from '../../shared/label.ts';
import { ATTEMPT_HISTORY_DAYS } from '../../shared/limits.ts';
import { formatBRL } from '../../shared/money.ts';
import type { GetShippingRatesInput, GetShippingRatesOutput } from '../../shared/quote.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import { quote } from '../carrier/quote.ts';
import type { MerchantAccess } from '../http/auth.ts';
import type { SandboxState } from '../state.ts';

type Structured = Record<string, unknown>;

/** A result with both faces of spec 4.4: readable text and `structuredContent`. */
export function result(
  text: string,
  structured: Structured,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

function reasonLine(structured: { reason?: string | undefined; actionUrl?: string | undefined }): string {
  if (!structured.reason) return '';
  return `\nreason: ${structured.reason}${structured.actionUrl ? `\nactionUrl (for the merchant): ${structured.actionUrl}` : ''}`;
}

/** The tools of spec 4.4 as the platform runs them, for one authenticated store. */
export class SandboxTools {
  private readonly state: SandboxState;
  private readonly access: MerchantAccess;

  constructor(state: SandboxState, access: MerchantAccess) {
    this.state = state;
    this.access = access;
  }

  private subscriptionRequired(): { reason: string; actionUrl: string } | undefined {
    const { store } = this.access;
    if (store.planActive) return undefined;
    return { reason: 'subscription_required', actionUrl: this.state.registry.actionUrl(store, 'billing') };
  }

  getShippingRates(input: GetShippingRatesInput): CallToolResult {
    const blocked = this.subscriptionRequired();
    if (blocked)
      return result(`No quote: the store has no active plan.${reasonLine(blocked)}`, {
        rates: [],
        ...blocked,
      });
    let output: GetShippingRatesOutput;
    try {
      output = quote(this.access.store, this.state.registry, input);
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true };
    }
    const lines = output.rates.map(
      (rate) =>
        `- ${rate.label} (${rate.code}): ${rate.free ? 'free' : formatBRL(rate.price)}, up to ${rate.deliveryDays} business days`,
    );
    const head =
      output.rates.length > 0
        ? `${output.rates.length} option(s) to CEP ${formatCep(input.destinationCep)}:`
        : `No quote available to CEP ${formatCep(input.destinationCep)} (this is not free shipping).`;
    return result([head, ...lines].join('\n') + reasonLine(output), output);
  }

  trackShipment(codes: readonly string[]): CallToolResult {
    const blocked = this.subscriptionRequired();
    if (blocked)
      return result(`Tracking unavailable: the store has no active plan.${reasonLine(blocked)}`, {
        results: [],
        ...blocked,
      });
    const at = this.state.carrierClock.time();
    const results = codes.map((code) => this.state.tracking.lookup(code, at));
    return result(results.map(describeTracking).join('\n'), { results });
  }

  async generateLabel(input: GenerateLabelInput): Promise<CallToolResult> {
    const record = await this.state.labels.generate(this.access.store, input);
    const lines = [
      record.prepostagemId
        ? `Pre-posting ${record.prepostagemId} created (tracking code ${record.trackingCode}).`
        : 'No pre-posting was created.',
      record.status ? `status: ${record.status}` : '',
      record.labelPdfBase64 ? 'The label PDF is in labelPdfBase64.' : '',
      record.reason === 'label_pdf_timeout'
        ? `The PDF is not ready yet: call get_label_pdf with prepostagemId ${record.prepostagemId}. Do NOT call generate_label again: that would create another pre-posting.`
        : '',
      `supportCode: ${record.supportCode}`,
    ];
    return result(lines.filter(Boolean).join('\n') + reasonLine(record), record);
  }

  async getLabelPdf(prepostagemId: string): Promise<CallToolResult> {
    const output = await this.state.labels.pdf(this.access.store, prepostagemId);
    if (!output.labelPdfBase64) {
      return result(
        `No PDF for ${prepostagemId}.${output.status ? `\nstatus: ${output.status}` : ''}${reasonLine(output)}`,
        output,
      );
    }
    return result(`Label PDF of ${prepostagemId} (application/pdf, 10 × 15 cm).`, output, [
      {
        type: 'resource',
        resource: {
          uri: `label:///${encodeURIComponent(prepostagemId)}.pdf`,
          mimeType: 'application/pdf',
          blob: output.labelPdfBase64,
        },
      },
    ]);
  }

  diagnose(attempts: Attempt[], bySupportCode: boolean): CallToolResult {
    if (attempts.length === 0) {
      return result(
        `${bySupportCode ? 'No attempt with that support code' : 'No label attempts'} in the last ${ATTEMPT_HISTORY_DAYS} days. ` +
          'Absence of a record does not prove that no label was created.',
        { attempts },
      );
    }
    const lines = attempts.map(
      (a) =>
        `- ${a.createdAt} ${a.source}${a.orderId ? ` order ${a.orderId}` : ''}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''}` +
        `${a.prepostagemId ? ` pre-posting ${a.prepostagemId}` : ''} — supportCode ${a.supportCode}\n  action: ${a.action}`,
    );
    return result(lines.join('\n'), { attempts });
  }
}

function describeTracking(result: TrackingResult): string {
  if (!result.found) return `${result.code}: not found${result.message ? ` — ${result.message}` : ''}`;
  if (!result.lastStatus) return `${result.code}: found, no events yet (not delivered)`;
  const status = result.lastStatus;
  return `${result.code}: ${result.delivered ? 'delivered' : 'not delivered'} — ${status.description}${status.timestamp ? ` (${status.timestamp})` : ''}`;
}
