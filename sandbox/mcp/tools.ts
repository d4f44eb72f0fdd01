import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import * as say from '../../shared/agent-texts.ts';
import { isApiError } from '../../shared/errors.ts';
import type { GetShippingRatesOutput } from '../../shared/quote.ts';
import type { TOOLS, ToolName } from '../../shared/tools.ts';
import { quote } from '../carrier/quote.ts';
import type { MerchantAccess } from '../http/auth.ts';
import type { SandboxState } from '../state.ts';
import type { Store } from '../stores/stores.ts';

/** A result with both faces of spec 4.4: readable text and `structuredContent`. */
export function result(
  text: string,
  structured: Record<string, unknown>,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

/** How the platform runs one merchant tool, on the input the SDK validated, for one authenticated store. */
type ToolWork<Name extends ToolName> = (
  input: z.infer<(typeof TOOLS)[Name]['inputSchema']>,
  state: SandboxState,
  access: MerchantAccess,
) => CallToolResult | Promise<CallToolResult>;

/** Quotes and tracking answer an inactive plan with a reason (REST answers 402 instead). */
function subscriptionRequired(state: SandboxState, store: Store) {
  if (store.planActive) return undefined;
  return { reason: 'subscription_required', actionUrl: state.registry.actionUrl(store, 'billing') };
}

/** The tools of spec 4.4 as the platform runs them. */
export const MERCHANT_TOOLS: { [Name in ToolName]: ToolWork<Name> } = {
  get_shipping_rates(input, state, { store }) {
    const blocked = subscriptionRequired(state, store);
    if (blocked) return result(say.refusalSummary('quote', blocked), { rates: [], ...blocked });
    let output: GetShippingRatesOutput;
    try {
      output = quote(store, state.registry, input);
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true };
    }
    return result(say.ratesSummary(output), output);
  },

  track_shipment({ codes }, state, { store }) {
    const blocked = subscriptionRequired(state, store);
    if (blocked) return result(say.refusalSummary('tracking', blocked), { results: [], ...blocked });
    const at = state.carrierClock.time();
    const results = codes.map((code) => state.tracking.lookup(code, at));
    return result([say.trackingSummary(results), ...results.map(say.trackingLine)].join('\n'), { results });
  },

  async generate_label(input, state, { store }) {
    const record = await state.labels.generate(store, input);
    return result(`${say.labelSummary(record)}\nsupportCode: ${record.supportCode}`, record);
  },

  async get_label_pdf({ prepostagemId }, state, { store }) {
    const output = await state.labels.pdf(store, prepostagemId);
    const pdf = output.labelPdfBase64;
    return result(
      say.labelPdfSummary(prepostagemId, output),
      output,
      pdf ? [say.labelPdfResource(prepostagemId, pdf)] : [],
    );
  },

  diagnose_label_issue(input, state, { store }) {
    const attempts = state.labels.diagnose(store, input);
    const summary = say.diagnosisSummary(attempts, input.supportCode !== undefined);
    return result([summary, ...attempts.map(say.attemptLine)].join('\n'), { attempts });
  },
};
