import type * as z from 'zod/mini';
import type {
  AcpFulfillmentOption,
  AcpFulfillmentOptionsSchema,
  FulfillmentOptionsRequest,
  UcpFulfillmentOption,
  UcpFulfillmentOptionsSchema,
} from '../../shared/checkouts/agentic.ts';
import { centavos } from '../../shared/money.ts';
import type { QuotedRate } from '../../shared/quote.ts';
import { rfc3339Window } from '../checkout/promise-times.ts';
import { quoteBefore } from '../checkout/quoting.ts';
import type { QuoteCaller } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';

/** The carrier the platform's services go by (spec 1: the platform issues Correios labels). */
export const CARRIER = 'Correios';

export type FulfillmentOptionsAnswer =
  | z.infer<typeof AcpFulfillmentOptionsSchema>
  | z.infer<typeof UcpFulfillmentOptionsSchema>;

/**
 * A merchant's agentic checkout asks the shipping options of a cart and an address (docs/checkout/agentic.md): the
 * core's quote as ACP `FulfillmentOptionShipping` objects or UCP fulfillment options. `id` is the rate's `serviceId`,
 * amounts are integer centavos (zero only for `free: true`), the delivery window is the promise's São Paulo days. A
 * destination outside Brazil, or no coverage, is an empty list with its `reason`.
 */
export async function fulfillmentOptions(
  request: FulfillmentOptionsRequest,
  core: Pick<RatesService, 'shopperQuote'>,
  caller: QuoteCaller,
  deadlineAt: number,
): Promise<FulfillmentOptionsAnswer> {
  const country = request.address.country?.trim().toUpperCase();
  const empty = (reason: string) =>
    request.protocol === 'acp' ? { fulfillment_options: [], reason } : { options: [], reason };
  if (country && country !== 'BR') return empty('no_coverage');
  const quote = await quoteBefore(
    core,
    { destinationCep: request.address.postal_code, items: request.items },
    caller,
    deadlineAt,
  );
  if (quote.rates.length === 0) return empty(quote.reason ?? 'no_quote');
  return request.protocol === 'acp'
    ? { fulfillment_options: quote.rates.map(acpOptionOf) }
    : { options: quote.rates.map(ucpOptionOf) };
}

/** What both protocols say of a rate: its id, title, carrier, window and totals (integer centavos). */
function optionOf(rate: QuotedRate) {
  const { earliest, latest } = rfc3339Window(rate.promise);
  const amount = centavos(rate.price);
  return {
    id: rate.serviceId,
    title: rate.label,
    carrier: CARRIER,
    earliest,
    latest,
    totals: [
      { type: 'fulfillment' as const, display_text: 'Frete', amount },
      { type: 'total' as const, display_text: 'Total', amount },
    ],
  };
}

function acpOptionOf(rate: QuotedRate): AcpFulfillmentOption {
  const { earliest, latest, ...option } = optionOf(rate);
  return { type: 'shipping', ...option, earliest_delivery_time: earliest, latest_delivery_time: latest };
}

function ucpOptionOf(rate: QuotedRate): UcpFulfillmentOption {
  const { earliest, latest, ...option } = optionOf(rate);
  return { ...option, earliest_fulfillment_time: earliest, latest_fulfillment_time: latest };
}
