/**
 * The validators generated at build time from the shared zod schemas (`schemas.ts` → `codegen.ts`, served by
 * `plugin.ts`; no file is written). Each answers whether a value has the schema's shape, as zod's `safeParse`
 * would (`codegen.test.ts` checks it property by property), and fills in the schema's defaults in place.
 */
import type { ErrorBody } from '../../shared/errors.ts';
import type { PromisesResponse } from '../../shared/promise-lookup.ts';
import type { QuoteItem, RatesResponse } from '../../shared/quote.ts';
import type { TrackingLookupResponse } from '../../shared/tracking-lookup.ts';

/** Spec 2.1, strict; a missing `weightKg` is set to the default. Refuses what JSON would change (NaN, Infinity…). */
export declare function isQuoteItem(value: unknown): value is QuoteItem;
/** Spec 4.1's 200 body (loose: the platform may add fields). For values from `JSON.parse`. */
export declare function isRatesResponse(value: unknown): value is RatesResponse;
/** Spec 7.1's error envelope. For values from `JSON.parse`. */
export declare function isErrorBody(value: unknown): value is ErrorBody;
/** The BFF's `POST /api/tracking` 200 body. For values from `JSON.parse`. */
export declare function isTrackingLookupResponse(value: unknown): value is TrackingLookupResponse;
/** The BFF's `POST /api/promises` 200 body. For values from `JSON.parse`. */
export declare function isPromisesResponse(value: unknown): value is PromisesResponse;
