import type { RatesResponse } from '../../shared/quote.ts';
import type { RestClient } from '../upstream/rest-client.ts';

export interface RatesRequestForCache {
  destinationCep: string;
  items: { name: string; quantity: number; unitPriceBRL: number; weightKg: number }[];
}

/**
 * Quotes for the merchant's agents, through the REST client, with a short cache: an identical quote (same CEP and
 * items) within a minute is answered from memory, so an agent that asks twice does not spend the store's 60 calls a
 * minute. Failures are never cached.
 */
export class RatesService {
  private readonly cache = new Map<string, { at: number; response: RatesResponse }>();
  private readonly client: Pick<RestClient, 'rates'>;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(options: {
    client: Pick<RestClient, 'rates'>;
    now?: () => number;
    ttlMs?: number;
    maxEntries?: number;
  }) {
    this.client = options.client;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 5000;
  }

  async quote(request: RatesRequestForCache): Promise<RatesResponse> {
    const key = JSON.stringify([
      request.destinationCep,
      request.items.map((i) => [i.name, i.quantity, i.unitPriceBRL, i.weightKg]),
    ]);
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.response;
    const response = await this.client.rates({
      destinationCep: request.destinationCep,
      items: request.items,
    });
    this.cache.delete(key);
    this.cache.set(key, { at: this.now(), response });
    if (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return response;
  }
}
