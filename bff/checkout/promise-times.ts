import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import type { Locale } from '../../shared/locale.ts';
import { arrivalText, sameDatesNote } from '../../shared/promise-text.ts';
import type { QuotedRate } from '../../shared/quote.ts';

/**
 * A promise (São Paulo dates) as each checkout writes times. The window is the whole of São Paulo's days: from the
 * start of `from` to the end of `to`, so a checkout in any time zone shows the same two dates. São Paulo is UTC−3
 * all year since 2019 (Decreto 9.772/2019, as shared/business-days.ts counts).
 */

/** RFC 3339, for ACP and UCP: `2026-11-26T00:00:00-03:00` and `2026-11-26T23:59:59-03:00`. */
export function rfc3339Window(promise: DeliveryPromise): { earliest: string; latest: string } {
  return { earliest: `${promise.from}T00:00:00-03:00`, latest: `${promise.to}T23:59:59-03:00` };
}

/** Shopify's CarrierService format: `2026-11-26 00:00:00 -0300`. */
export function shopifyWindow(promise: DeliveryPromise): { min: string; max: string } {
  return { min: `${promise.from} 00:00:00 -0300`, max: `${promise.to} 23:59:59 -0300` };
}

/** Nuvemshop's ISO 8601 as its documentation writes it: `2026-11-26T00:00:00-0300`. */
export function nuvemshopWindow(promise: DeliveryPromise): { min: string; max: string } {
  return { min: `${promise.from}T00:00:00-0300`, max: `${promise.to}T23:59:59-0300` };
}

/**
 * A rate's promise for a checkout's option description, in the words of every other surface (shared/promise-text.ts:
 * "Chega até qua., 26/11", "Chega entre 3 e 5/12"), and where a cheaper option promises the same dates, that too
 * ("… · PAC mesmas datas por menos"). Shopify shows the dates as well, from min/max.
 */
export function arrivalPhrase(rate: QuotedRate, rates: readonly QuotedRate[], locale: Locale): string {
  const arrival = arrivalText(rate.promise, locale);
  const note = sameDatesNote(rate, rates, locale);
  return note ? `${arrival} · ${note}` : arrival;
}
