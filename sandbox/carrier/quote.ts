import { ApiError } from '../../shared/errors.ts';
import type { RatesRequest, RatesResponse } from '../../shared/quote.ts';
import { ufOfCep } from '../../shared/uf.ts';
import type { Store, StoreRegistry } from '../stores/stores.ts';
import { priceService, subtotalBRL, totalWeightKg } from './prices.ts';
import { CARRIER_SERVICES } from './services.ts';

/** Destination CEPs that make the sandbox fail on purpose, for any store (sandbox/README.md, "Magic values"). */
export const MAGIC_CEPS = { quoteFailed: '00000502', rateLimited: '00000429' } as const;

/** Reason for an empty quote when every service is over its weight limit (an open-set reason of ours). */
export const WEIGHT_LIMIT_REASON = 'weight_limit_exceeded';

/**
 * Quotes a store's enabled services. The store's plan is checked by the caller (REST answers 402, MCP a reason).
 * Throws `ApiError` for the magic failure CEPs.
 */
export function quote(
  store: Store,
  registry: StoreRegistry,
  request: Pick<RatesRequest, 'destinationCep' | 'items'>,
): RatesResponse {
  const cep = request.destinationCep;
  if (cep === MAGIC_CEPS.quoteFailed) throw new ApiError('quote_failed');
  if (cep === MAGIC_CEPS.rateLimited) throw new ApiError('rate_limited');
  if (store.services.length === 0) {
    return { rates: [], reason: 'no_services_enabled', actionUrl: registry.actionUrl(store, 'services') };
  }
  if (store.carrierAuth === 'rejected') {
    return {
      rates: [],
      reason: 'carrier_auth_failed',
      actionUrl: registry.actionUrl(store, 'carrier-contract'),
    };
  }
  const origin = ufOfCep(store.originCep);
  const destination = ufOfCep(cep);
  if (!origin || !destination) return { rates: [], reason: 'no_coverage' };

  const weight = totalWeightKg(request.items);
  const subtotal = subtotalBRL(request.items);
  const rates = [];
  for (const serviceCode of store.services) {
    const rate = priceService(CARRIER_SERVICES[serviceCode], origin, destination, weight);
    if (!rate) continue;
    const freeRule = store.freeShipping;
    if (freeRule && freeRule.serviceCode === serviceCode && subtotal >= freeRule.minSubtotalBRL) {
      rates.push({ ...rate, price: 0, free: true });
    } else {
      rates.push(rate);
    }
  }
  if (rates.length === 0) return { rates: [], reason: WEIGHT_LIMIT_REASON };
  rates.sort((a, b) => a.price - b.price || a.deliveryDays - b.deliveryDays);
  return { rates };
}
