import { describe, expect, it } from 'vitest';
import { type Store, StoreRegistry } from '../stores/stores.ts';
import { quote, WEIGHT_LIMIT_REASON } from './quote.ts';

const registry = new StoreRegistry();
const demo = registry.byId('loja-demo');
if (!demo) throw new Error('the loja-demo fixture is missing');
const item = { name: 'Camiseta', quantity: 1, unitPriceBRL: 50, weightKg: 1 };
const toRio = (items = [item]) => ({ destinationCep: '20040020', items });

describe('quote', () => {
  it('lists the cheapest option first, whatever order the store enabled its services in', () => {
    const sedexFirst: Store = { ...demo, services: ['03220', '03298'], freeShipping: null };
    const { rates } = quote(sedexFirst, registry, toRio());
    expect(rates.map((rate) => rate.code)).toEqual(['PAC', 'SEDEX']);
    expect(rates[0]?.price).toBeLessThan(rates[1]?.price ?? 0);
  });

  it('puts a free option first, at price 0 and marked free', () => {
    const freeSedex = { ...demo, freeShipping: { serviceCode: '03220', minSubtotalBRL: 10 } };
    const { rates } = quote(freeSedex, registry, toRio());
    expect(rates[0]).toMatchObject({ code: 'SEDEX', price: 0, free: true });
    expect(rates[1]?.code).toBe('PAC');
    expect(rates[1]).not.toHaveProperty('free');
  });

  it('tells the merchant where to fix a rejected carrier contract, and that no service is enabled', () => {
    expect(quote({ ...demo, carrierAuth: 'rejected' }, registry, toRio())).toEqual({
      rates: [],
      reason: 'carrier_auth_failed',
      actionUrl: registry.actionUrl(demo, 'carrier-contract'),
    });
    expect(quote({ ...demo, services: [] }, registry, toRio())).toEqual({
      rates: [],
      reason: 'no_services_enabled',
      actionUrl: registry.actionUrl(demo, 'services'),
    });
    expect(registry.actionUrl(demo, 'carrier-contract')).toMatch(/\/loja-demo\/carrier-contract$/);
  });

  it('answers no_coverage outside the CEP map, and the weight reason when every service is over its limit', () => {
    expect(quote(demo, registry, { destinationCep: '00000100', items: [item] })).toEqual({
      rates: [],
      reason: 'no_coverage',
    });
    expect(quote(demo, registry, toRio([{ ...item, weightKg: 31 }]))).toEqual({
      rates: [],
      reason: WEIGHT_LIMIT_REASON,
    });
  });
});
