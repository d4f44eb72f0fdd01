import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as say from '../../shared/agent-texts.ts';
import type { Attempt } from '../../shared/diagnosis.ts';
import { isApiError } from '../../shared/errors.ts';
import type { GenerateLabelInput } from '../../shared/label.ts';
import type { GetShippingRatesInput, GetShippingRatesOutput } from '../../shared/quote.ts';
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
    if (blocked) return result(say.refusalSummary('quote', blocked), { rates: [], ...blocked });
    let output: GetShippingRatesOutput;
    try {
      output = quote(this.access.store, this.state.registry, input);
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true };
    }
    return result(say.ratesSummary(output), output);
  }

  trackShipment(codes: readonly string[]): CallToolResult {
    const blocked = this.subscriptionRequired();
    if (blocked) return result(say.refusalSummary('tracking', blocked), { results: [], ...blocked });
    const at = this.state.carrierClock.time();
    const results = codes.map((code) => this.state.tracking.lookup(code, at));
    return result([say.trackingSummary(results), ...results.map(say.trackingLine)].join('\n'), { results });
  }

  async generateLabel(input: GenerateLabelInput): Promise<CallToolResult> {
    const record = await this.state.labels.generate(this.access.store, input);
    return result(`${say.labelSummary(record)}\nsupportCode: ${record.supportCode}`, record);
  }

  async getLabelPdf(prepostagemId: string): Promise<CallToolResult> {
    const output = await this.state.labels.pdf(this.access.store, prepostagemId);
    const pdf = output.labelPdfBase64;
    return result(
      say.labelPdfSummary(prepostagemId, output),
      output,
      pdf ? [say.labelPdfResource(prepostagemId, pdf)] : [],
    );
  }

  diagnose(attempts: Attempt[], bySupportCode: boolean): CallToolResult {
    return result(
      [say.diagnosisSummary(attempts, bySupportCode), ...attempts.map(say.attemptLine)].join('\n'),
      {
        attempts,
      },
    );
  }
}
