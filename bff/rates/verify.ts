import * as z from 'zod/mini';
import { CepSchema } from '../../shared/cep-schema.ts';
import { ApiError } from '../../shared/errors.ts';
import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import { QuotedRateSchema, QuoteItemSchema } from '../../shared/quote.ts';
import { ReasonSchema } from '../../shared/reason-schema.ts';
import type { Logger } from '../logger.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { QuoteCaller } from './quote-share.ts';
import type { QuoteAnswer, RatesService } from './service.ts';

/**
 * `POST /api/rates/verify` body: what the shopper chose in the browser, as the checkout received it. No price: the
 * price is what this route answers.
 */
export const RateVerifyRequestSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema.check(
    z.describe('The destination CEP the shopper chose for (8 digits; dashes and spaces are ignored).'),
  ),
  items: z
    .array(QuoteItemSchema)
    .check(
      z.minLength(1),
      z.maxLength(MAX_ITEMS),
      z.describe(`The cart being paid for: 1 to ${MAX_ITEMS} lines, as for the calculator.`),
    ),
  serviceId: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(200),
      z.describe('The `serviceId` of the rate in the `shipping-select` event (e.g. "correios-pac").'),
    ),
});
export type RateVerifyRequest = z.infer<typeof RateVerifyRequestSchema>;

/**
 * Why a chosen service cannot be charged now: the platform's own reason for an empty list (`no_coverage`, …, an open
 * set), `service_unavailable` (the list no longer has this `serviceId`), or `no_quote` (an empty list without one).
 */
export const VERIFY_REASONS = { gone: 'service_unavailable', noQuote: 'no_quote' } as const;

/** `POST /api/rates/verify` answer: the current rate of the chosen service, or why it cannot be charged. */
export const RateVerifyResponseSchema = /* @__PURE__ */ z.union([
  z.strictObject({
    available: z.literal(true),
    rate: QuotedRateSchema.check(
      z.describe(
        'The rate as the platform quotes it now, with the secret key, and its delivery promise: charge this price, not the browser\u2019s.',
      ),
    ),
  }),
  z.strictObject({
    available: z.literal(false),
    reason: ReasonSchema.check(
      z.describe(
        'Why the service cannot be charged: service_unavailable, no_quote, or the platform\u2019s reason (no_coverage, …).',
      ),
    ),
  }),
]);
export type RateVerifyResponse = z.infer<typeof RateVerifyResponseSchema>;

/**
 * Quotes the request again with the secret key through the quote core (an identical quote within its cache time is
 * not asked twice), as `caller`, and answers the current rate of `serviceId`, or why it is gone. A failure to quote
 * is an error, never `available: false`: the checkout must neither charge nor tell the shopper the option is gone.
 * A spent share (`QuoteShareSpent`) is thrown as it is, for the route to answer 429 with `Retry-After`.
 */
export async function verifyRate(
  rates: Pick<RatesService, 'shopperQuote'>,
  request: RateVerifyRequest,
  logger: Logger,
  caller?: QuoteCaller,
): Promise<RateVerifyResponse> {
  let response: QuoteAnswer;
  try {
    response = await rates.shopperQuote({ destinationCep: request.cep, items: request.items }, caller);
  } catch (error) {
    throw quoteError(error, logger);
  }
  const rate = response.rates.find((candidate) => candidate.serviceId === request.serviceId);
  if (rate) return { available: true, rate };
  if (response.rates.length > 0) return { available: false, reason: VERIFY_REASONS.gone };
  return { available: false, reason: response.reason ?? VERIFY_REASONS.noQuote };
}

/** The platform did not quote: in the spec 7.1 envelope, without its `actionUrl` (logged for the merchant). */
function quoteError(error: unknown, logger: Logger): unknown {
  if (!isUpstreamError(error)) return error;
  if (error.code === 'invalid_destination_cep')
    return new ApiError('invalid_destination_cep', 'cep: the platform does not know this CEP');
  if (error.failure === 'limited')
    return new ApiError(
      'rate_limited',
      'The store\u2019s quota of quotes at the platform is spent; retry shortly.',
    );
  if (error.failure === 'config') {
    logger.error(
      { code: error.code, status: error.status, actionUrl: error.actionUrl },
      'rates verify: the platform refused the quote; the store must act',
    );
    return new ApiError(
      'quote_failed',
      `The platform refused the quote (${error.code ?? error.status}); the merchant must act (see the BFF log).`,
    );
  }
  return new ApiError('quote_failed', 'The platform could not quote now; try again in a moment.');
}
