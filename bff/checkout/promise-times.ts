import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import type { Locale } from '../../shared/locale.ts';

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

const ddmm = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/**
 * A rate's promise in a few words for a checkout's option description ("Chega até 26/11"): the calculator's wording
 * (widget/calculator/messages.ts) without its weekday. Shopify shows the dates as well, from min/max.
 */
export function arrivalPhrase(promise: DeliveryPromise, locale: Locale): string {
  const [from, to] = [ddmm(promise.from), ddmm(promise.to)];
  const one = promise.from === promise.to;
  if (locale === 'en') return one ? `Arrives by ${to}` : `Arrives between ${from} and ${to}`;
  if (locale === 'es') return one ? `Llega a más tardar el ${to}` : `Llega entre el ${from} y el ${to}`;
  return one ? `Chega até ${to}` : `Chega entre ${from} e ${to}`;
}
