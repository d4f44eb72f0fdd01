import { LRUCache } from 'lru-cache';
import type { RatesRequest, RatesResponse } from '../../shared/quote.ts';
import type { RestClient } from '../upstream/rest-client.ts';

/**
 * Quotes for the merchant's agents, through the REST client, with a short cache: an identical quote (same CEP and
 * items) within a minute is answered from memory, so an agent that asks twice does not spend the store's 60 calls a
 * minute. Failures are never cached.
 */
export class RatesService {
  private readonly cache: LRUCache<string, { at: number; response: RatesResponse }>;
  private readonly client: Pick<RestClient, 'rates'>;
  private readonly now: () => number;
  private readonly ttlMs: number;

  constructor(options: {
    client: Pick<RestClient, 'rates'>;
    now?: () => number;
    ttlMs?: number;
    maxEntries?: number;
  }) {
    this.client = options.client;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.cache = new LRUCache({ max: options.maxEntries ?? 5000 });
  }

  /** Only the CEP and the items are sent and make the cache key (an agent's `requestId` does not change a quote). */
  async quote(request: Pick<RatesRequest, 'destinationCep' | 'items'>): Promise<RatesResponse> {
    const { destinationCep, items } = request;
    const key = JSON.stringify([
      destinationCep,
      items.map((i) => [i.name, i.quantity, i.unitPriceBRL, i.weightKg]),
    ]);
    // `peek`: a hit does not make a quote younger; the one stored longest ago goes first.
    const hit = this.cache.peek(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.response;
    const response = await this.client.rates({ destinationCep, items });
    this.cache.set(key, { at: this.now(), response });
    return response;
  }
}
