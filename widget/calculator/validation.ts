import { config } from 'zod/mini';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { MAX_ITEMS } from '../../shared/limits.ts';
import {
  type QuoteItem,
  QuoteItemSchema,
  type RatesResponse,
  RatesResponseSchema,
} from '../../shared/quote.ts';

// No compiled parsers (new Function): tiny payloads need no JIT, and pages whose CSP forbids eval stay quiet.
config({ jitless: true });

/**
 * The shared schemas at the widget's edges. This module is loaded after the first paint (a dynamic import, inlined
 * in the one script but evaluated on demand): building the schemas costs more than painting the form.
 */

/** Keeps the fields of spec 2.1 and drops what the store's own item objects carry besides. */
export function parseItems(value: unknown): QuoteItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: QuoteItem[] = [];
  for (const raw of value) {
    const { name, quantity, unitPriceBRL, weightKg } = (raw ?? {}) as Record<string, unknown>;
    const parsed = QuoteItemSchema.safeParse({
      name,
      quantity,
      unitPriceBRL,
      ...(weightKg === undefined ? {} : { weightKg }),
    });
    if (!parsed.success) return undefined;
    items.push(parsed.data);
  }
  return items.length > 0 && items.length <= MAX_ITEMS ? items : undefined;
}

/** A 200 body in the spec 4.1 shape, or undefined when it breaks the contract. */
export function parseRatesResponse(json: unknown): RatesResponse | undefined {
  const parsed = RatesResponseSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The spec 7.1 error code of a body, if it has one. */
export function errorCodeOf(json: unknown): string | undefined {
  const parsed = ErrorBodySchema.safeParse(json);
  return parsed.success ? parsed.data.error.code : undefined;
}

export type Validation = typeof import('./validation.ts');
