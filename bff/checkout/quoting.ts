import type { QuoteCaller } from '../rates/quote-share.ts';
import { isQuoteShareSpent } from '../rates/quote-share.ts';
import type { QuoteAnswer, RatesService, ShopperQuoteRequest } from '../rates/service.ts';
import { isUpstreamError } from '../upstream/errors.ts';

/** Why a checkout got no price: the platform failed or refused, the caller's share is spent, or time ran out. */
export type Unavailability = 'platform' | 'share' | 'deadline';

/**
 * No price can be given now. The hosted checkouts get `503` (Shopify then shows the store's backup rates); the
 * agentic route answers `429` for a spent share. Carries no platform detail: the adapter logs it.
 */
export class CheckoutUnavailable extends Error {
  override readonly name = 'CheckoutUnavailable';
  readonly why: Unavailability;
  readonly retryAfterSeconds: number | undefined;

  constructor(why: Unavailability, message: string, retryAfterSeconds?: number) {
    super(message);
    this.why = why;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isCheckoutUnavailable(error: unknown): error is CheckoutUnavailable {
  return error instanceof Error && error.name === 'CheckoutUnavailable';
}

/**
 * A quote from the core that answers before `deadlineAt` (epoch ms) or fails with `CheckoutUnavailable`: a checkout
 * is never kept waiting past its deadline, whatever the platform does (the quote itself goes on and fills the cache
 * for the next ask). A CEP the platform does not know is no quote (`rates: []`), not a failure.
 */
export async function quoteBefore(
  core: Pick<RatesService, 'shopperQuote'>,
  request: ShopperQuoteRequest,
  caller: QuoteCaller,
  deadlineAt: number,
): Promise<QuoteAnswer> {
  try {
    return await beforeDeadline(
      core.shopperQuote(request, caller),
      deadlineAt,
      'the platform did not answer before the deadline',
    );
  } catch (error) {
    if (isUpstreamError(error) && error.code === 'invalid_destination_cep')
      return { rates: [], reason: 'invalid_destination_cep' };
    throw unavailability(error);
  }
}

/**
 * `work`'s answer, or `CheckoutUnavailable('deadline', message)` at `deadlineAt` (epoch ms) when it has none yet: a
 * checkout is never kept waiting past its deadline by anything it waits on (the quote, the connected shop's row).
 */
export async function beforeDeadline<T>(work: Promise<T>, deadlineAt: number, message: string): Promise<T> {
  // After the deadline nobody awaits it: its failure must not become an unhandled rejection.
  work.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CheckoutUnavailable('deadline', message)),
      Math.max(0, deadlineAt - Date.now()),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a failed quote means to a checkout. */
function unavailability(error: unknown): unknown {
  if (isQuoteShareSpent(error))
    return new CheckoutUnavailable('share', error.message, error.retryAfterSeconds);
  if (isUpstreamError(error))
    return new CheckoutUnavailable('platform', `the platform did not quote (${error.code ?? error.failure})`);
  return error;
}
