import { describe, expect, it } from 'vitest';
import { QuoteItemSchema } from '../../shared/quote.ts';
import { HOUR_MS } from './clock.ts';
import { ufOfCep, zoneBetween } from './geography.ts';
import { priceService, SERVICES, totalWeightKg } from './prices.ts';
import { deliveryPlan, TrackingBook } from './tracking.ts';

describe('ufOfCep', () => {
  it.each([
    ['01310100', 'SP'],
    ['20040020', 'RJ'],
    ['69300000', 'RR'],
    ['69400000', 'AM'],
    ['69299999', 'AM'],
    ['72800000', 'GO'],
    ['72799999', 'DF'],
    ['73000000', 'DF'],
    ['73700000', 'GO'],
    ['76800000', 'RO'],
    ['76799999', 'GO'],
    ['99999999', 'RS'],
  ])('matches whole 8-digit ranges: %s is %s', (cep, uf) => {
    expect(ufOfCep(cep)).toBe(uf);
  });

  it('has no state for 00000-000 to 00999-999', () => {
    expect(ufOfCep('00000000')).toBeUndefined();
    expect(ufOfCep('00999999')).toBeUndefined();
  });
});

describe('zones and prices', () => {
  it('orders zones: same state, same region, neighbouring region, far', () => {
    expect(zoneBetween('SP', 'SP')).toBe(1);
    expect(zoneBetween('SP', 'RJ')).toBe(2);
    expect(zoneBetween('SP', 'PR')).toBe(3);
    expect(zoneBetween('RS', 'AM')).toBe(4);
  });

  it('charges more per kg and drops a service over 30 kg', () => {
    const pac = SERVICES['03298'];
    expect(priceService(pac, 'SP', 'SP', 1)?.price).toBeLessThan(
      priceService(pac, 'SP', 'SP', 5)?.price ?? 0,
    );
    expect(priceService(pac, 'SP', 'SP', 30)).toBeDefined();
    expect(priceService(pac, 'SP', 'SP', 30.01)).toBeUndefined();
  });

  it('weighs Σ quantity × weightKg with 0.3 kg by default', () => {
    const items = [
      QuoteItemSchema.parse({ name: 'a', quantity: 2, unitPriceBRL: 1 }),
      QuoteItemSchema.parse({ name: 'b', quantity: 1, unitPriceBRL: 1, weightKg: 2 }),
    ];
    expect(totalWeightKg(items)).toBeCloseTo(2.6);
  });
});

describe('deliveryPlan', () => {
  const route = {
    originUf: 'SP',
    originCity: 'São Paulo',
    destinationUf: 'AM',
    destinationCity: 'Manaus',
  } as const;

  it('posts within 24 h and delivers within 10 days, for many codes', () => {
    for (let i = 0; i < 200; i++) {
      const plan = deliveryPlan(`QB${String(i).padStart(8, '0')}5BR`, route, 11);
      expect(plan[0]?.afterHours).toBeLessThan(24);
      expect(plan.at(-1)?.afterHours).toBeLessThanOrEqual(240);
      const hours = plan.map((event) => event.afterHours);
      expect([...hours].sort((a, b) => a - b)).toEqual(hours);
    }
  });

  it('reports only the events whose time has come', () => {
    const book = new TrackingBook();
    book.register('QB000000005BR', 0, deliveryPlan('QB000000005BR', route, 11));
    expect(book.lookup('QB000000005BR', 0)).toMatchObject({ found: true, delivered: false, events: [] });
    const later = book.lookup('QB000000005BR', 240 * HOUR_MS);
    expect(later.delivered).toBe(true);
  });
});
