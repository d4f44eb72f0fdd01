import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { isErrorBody, isQuoteItem } from '../validators/generated.js';

/**
 * The shared schemas at the widget's edges, through validators generated from them at build time
 * (widget/validators/): plain functions, so the first paint does not wait for them and no CSP needs `unsafe-eval`.
 */

/**
 * The store's cart as the platform takes it (spec 2.1): the four fields of each line (what the store's objects carry
 * besides is dropped), `[]` for an empty cart, or undefined when any line is wrong or there are more than 50.
 */
export function parseItems(value: unknown): QuoteItem[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_ITEMS) return undefined;
  const items: QuoteItem[] = [];
  for (const raw of value) {
    const { name, quantity, unitPriceBRL, weightKg } = (raw ?? {}) as Record<string, unknown>;
    const item: unknown = { name, quantity, unitPriceBRL, ...(weightKg === undefined ? {} : { weightKg }) };
    if (!isQuoteItem(item)) return undefined;
    items.push(item);
  }
  return items;
}

/** The spec 7.1 error code of a body, if it has one. */
export function errorCodeOf(json: unknown): string | undefined {
  return isErrorBody(json) ? json.error.code : undefined;
}
