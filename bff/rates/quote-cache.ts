import { LRUCache } from 'lru-cache';
import type { RatesResponse } from '../../shared/quote.ts';

/**
 * How long an identical quote (same CEP, same items) is answered from the cache: a few minutes, so a shopper who goes
 * from the product page to the cart and the checkout, or a checkout that asks again while the shopper types, costs
 * one platform call. Shopify keeps a success 15 minutes on its side anyway; a price the merchant changes at the
 * platform shows everywhere within this time.
 */
export const QUOTE_CACHE_MS = 5 * 60_000;

/** Where the quote core keeps answers: this process's memory, or Redis shared by every instance. */
export interface QuoteStore {
  get(key: string): Promise<RatesResponse | undefined>;
  set(key: string, response: RatesResponse): Promise<void>;
}

/** The platform's answers in a bounded LRU map, each for `ttlMs` after it was stored. */
export class MemoryQuoteStore implements QuoteStore {
  private readonly entries: LRUCache<string, { at: number; response: RatesResponse }>;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? QUOTE_CACHE_MS;
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache({ max: options.maxEntries ?? 5000 });
  }

  async get(key: string): Promise<RatesResponse | undefined> {
    // `peek`: a hit does not make a quote younger; the one stored longest ago goes first.
    const hit = this.entries.peek(key);
    return hit && this.now() - hit.at < this.ttlMs ? hit.response : undefined;
  }

  async set(key: string, response: RatesResponse): Promise<void> {
    this.entries.set(key, { at: this.now(), response });
  }
}
