import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import { DEFAULT_WEIGHT_KG, type QuoteItem } from '../../shared/quote.ts';

/**
 * A checkout's cart line in whole units, as the hosted checkouts send them (Shopify: centavos and grams, integers;
 * Nuvemshop: BRL and grams, converted once to integers here). All arithmetic on a cart is on these integers, so
 * 3 × R$ 19,90 is 5970 centavos exactly, never 5969.999….
 */
export interface CartLine {
  name: string;
  /** Units, an integer ≥ 1. */
  quantity: number;
  /** The price of one unit in centavos, an integer ≥ 0. */
  unitCents: number;
  /** The weight of one unit in grams, an integer ≥ 0 (0: the store did not weigh it). */
  unitGrams: number;
}

/** A unit the store did not weigh (0 g) is quoted at the platform's own default weight (spec 2.1), never as weightless. */
export const DEFAULT_UNIT_GRAMS = Math.round(DEFAULT_WEIGHT_KG * 1000);

/**
 * Product names are for people, and the platform's body is limited to 32,000 bytes (spec 8): 50 lines of 120
 * characters stay well inside it.
 */
const MAX_NAME = 120;

/** Whole centavos to BRL, for the platform's `unitPriceBRL` and Nuvemshop's prices (1990 → 19.9). */
export function brlOf(cents: number): number {
  return cents / 100;
}

/** Σ quantity × unit price, in centavos. */
export function subtotalCents(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);
}

/**
 * The quote request's items for a cart (spec 2.1): each line with its unit price in BRL and unit weight in kg. A
 * cart of more than 50 lines (the platform's limit, spec 8) keeps its first 49 and folds the rest into one line that
 * carries their whole price and weight (quantity 1), so the platform quotes the same weight and subtotal.
 */
export function quoteItemsOf(lines: readonly CartLine[]): QuoteItem[] {
  const weighed = lines.map((line) => ({
    ...line,
    unitGrams: line.unitGrams > 0 ? line.unitGrams : DEFAULT_UNIT_GRAMS,
  }));
  const kept = weighed.length > MAX_ITEMS ? weighed.slice(0, MAX_ITEMS - 1) : weighed;
  const folded = weighed.slice(kept.length);
  const items = kept.map(itemOf);
  if (folded.length > 0) {
    items.push(
      itemOf({
        name: `+${folded.length} itens`,
        quantity: 1,
        unitCents: subtotalCents(folded),
        unitGrams: folded.reduce((sum, line) => sum + line.quantity * line.unitGrams, 0),
      }),
    );
  }
  return items;
}

function itemOf(line: CartLine): QuoteItem {
  return {
    name: (line.name.trim() || 'item').slice(0, MAX_NAME),
    quantity: line.quantity,
    unitPriceBRL: brlOf(line.unitCents),
    weightKg: line.unitGrams / 1000,
  };
}
