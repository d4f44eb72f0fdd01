import { chargeRates } from '../../shared/charged-rates.ts';
import type { ShippingRules } from '../../shared/shipping-rules.ts';
import { isRatesResponse } from '../validators/generated.js';
import type { QuoteClient, QuoteOutcome } from './quote-client.ts';

/**
 * The platform's quote as the shopper is charged for it, by the evaluator every surface shares
 * (shared/charged-rates.ts): the free-shipping rule always, and the merchant's shipping rules when the element has a
 * `rules-url` (the store's BFF `GET /api/shipping-rules`). The rules are asked beside each quote and the browser's
 * HTTP cache answers them for the BFF's cache period (`Cache-Control: max-age`), so a rule the merchant writes shows
 * within that period. Rules that cannot be read are no quote (the retry button), never a price the checkout would not
 * charge.
 *
 * The document is not checked rule by rule here (a validator of every rule does not fit the calculator's budget):
 * the BFF checked each rule when it was written, and the options the rules give are checked as the platform's are.
 */
export function chargingClient(
  client: QuoteClient,
  rulesUrl?: string | null,
  doFetch: typeof fetch = (input, init) => fetch(input, init),
): QuoteClient {
  return {
    async quote(request, signal): Promise<QuoteOutcome> {
      const rules = rulesUrl
        ? doFetch(rulesUrl, { signal }).then(async (res) => {
            const json = res.ok ? ((await res.json()) as Partial<ShippingRules> | null) : null;
            if (!Array.isArray(json?.rules)) throw new Error('rules');
            return json.rules;
          })
        : undefined;
      rules?.catch(() => undefined);
      const outcome = await client.quote(request, signal);
      if (outcome.kind !== 'rates') return outcome;
      try {
        const response = {
          ...outcome.response,
          rates: chargeRates(outcome.response.rates, request, await rules),
        };
        // What is shown is checked with the platform's own schema: the rules come from the store's BFF, which checked
        // each when it was written; a document broken since cannot put on screen a price the contract refuses.
        if (isRatesResponse(response)) return { kind: 'rates', response };
      } catch {}
      return { kind: 'network' };
    },
  };
}
