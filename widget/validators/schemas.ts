import { ErrorBodySchema } from '../../shared/errors.ts';
import { PromisesResponseSchema } from '../../shared/promise-lookup.ts';
import { QuoteItemSchema, RatesResponseSchema } from '../../shared/quote.ts';
import { TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';

/**
 * The shared zod schemas the widgets check at their edges, each compiled at build time into a small validator
 * (`codegen.ts`): zod stays the one source of the shapes, and zod itself never reaches a shopper's browser.
 *
 * - `json`: the value comes from `JSON.parse` (a response body), so it holds nothing JSON cannot say.
 * - otherwise the value comes from a store's own script (`.items = [...]`): anything JSON would change (`NaN`,
 *   `Infinity`, a `Date`, `undefined` in an array) is refused, since the platform receives the JSON text.
 */
export const WIDGET_SCHEMAS = {
  isQuoteItem: { schema: QuoteItemSchema, json: false },
  isRatesResponse: { schema: RatesResponseSchema, json: true },
  isErrorBody: { schema: ErrorBodySchema, json: true },
  isTrackingLookupResponse: { schema: TrackingLookupResponseSchema, json: true },
  isPromisesResponse: { schema: PromisesResponseSchema, json: true },
} as const;
