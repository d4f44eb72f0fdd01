import { describe, expect, it } from 'vitest';
import { QuoteItemSchema } from '../../shared/quote.ts';
import { ufOfCep } from '../../shared/uf.ts';
import { CarrierClock, formatCarrierTime, HOUR_MS } from './clock.ts';
import { zoneBetween } from './geography.ts';
import { priceService, subtotalBRL, totalWeightKg } from './prices.ts';
import { CARRIER_SERVICES, carrierService } from './services.ts';
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
    // neighbours either way round
    expect(zoneBetween('PR', 'SP')).toBe(3);
    expect(zoneBetween('AM', 'BA')).toBe(3);
    expect(zoneBetween('RS', 'AM')).toBe(4);
  });

  it('charges more per kg and drops a service over 30 kg', () => {
    const pac = CARRIER_SERVICES['03298'];
    expect(priceService(pac, 'SP', 'SP', 1)?.price).toBeLessThan(
      priceService(pac, 'SP', 'SP', 5)?.price ?? 0,
    );
    expect(priceService(pac, 'SP', 'SP', 30)).toBeDefined();
    expect(priceService(pac, 'SP', 'SP', 30.01)).toBeUndefined();
  });

  it('charges the first kg, then each started kg, at the price of the zone, with its deadline', () => {
    const pac = CARRIER_SERVICES['03298'];
    const sedex = CARRIER_SERVICES['03220'];
    // zone 1 (SP→SP): PAC 15.90 + 2.10 per further kg, 4 days
    expect(priceService(pac, 'SP', 'SP', 0.3)).toEqual({
      code: 'PAC',
      serviceId: 'correios-pac',
      label: 'Correios PAC',
      deliveryDays: 4,
      price: 15.9,
    });
    expect(priceService(pac, 'SP', 'SP', 1)?.price).toBe(15.9);
    expect(priceService(pac, 'SP', 'SP', 1.01)?.price).toBe(18);
    expect(priceService(pac, 'SP', 'SP', 3)?.price).toBe(20.1);
    // zone 4 (RS→AM): SEDEX 58.90 + 13.90 per further kg, 5 days
    expect(priceService(sedex, 'RS', 'AM', 2.5)).toMatchObject({
      code: 'SEDEX',
      price: 86.7,
      deliveryDays: 5,
    });
    // zones 2 and 3
    expect(priceService(pac, 'SP', 'RJ', 1)).toMatchObject({ price: 21.5, deliveryDays: 6 });
    expect(priceService(sedex, 'SP', 'PR', 1)).toMatchObject({ price: 44.9, deliveryDays: 3 });
  });

  it('adds the subtotal as Σ quantity × unit price, in cents', () => {
    const items = [
      QuoteItemSchema.parse({ name: 'a', quantity: 3, unitPriceBRL: 0.1 }),
      QuoteItemSchema.parse({ name: 'b', quantity: 2, unitPriceBRL: 79.9 }),
    ];
    expect(subtotalBRL(items)).toBe(160.1);
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

describe('the carrier clock', () => {
  it('moves by the hours advanced on top of the injected clock, far from 0, and resets', () => {
    const T0 = 1_763_800_000_000;
    const clock = new CarrierClock(() => T0);
    expect(clock.time()).toBe(T0);
    clock.advance(2);
    clock.advance(0.5);
    expect(clock.time()).toBe(T0 + 2.5 * HOUR_MS);
    clock.reset();
    expect(clock.time()).toBe(T0);
  });

  it('runs `speed` times as fast from the moment the speed is set, without a jump', () => {
    let real = 1_763_800_000_000;
    const clock = new CarrierClock(() => real, 60);
    real += 1_000;
    expect(clock.time()).toBe(1_763_800_000_000 + 60_000);
    clock.setSpeed(0);
    real += 5_000;
    expect(clock.time()).toBe(1_763_800_000_000 + 60_000);
    clock.advance(1);
    clock.setSpeed(2);
    real += 1_000;
    expect(clock.time()).toBe(1_763_800_000_000 + 60_000 + HOUR_MS + 2_000);
    clock.reset();
    expect(clock.time()).toBe(real);
    expect(clock.rate).toBe(60);
  });

  it('writes Brasília time (UTC−3) without an offset', () => {
    expect(formatCarrierTime(Date.parse('2026-11-10T17:32:05Z'))).toBe('2026-11-10T14:32:05');
    expect(formatCarrierTime(Date.parse('2026-01-01T01:00:00Z'))).toBe('2025-12-31T22:00:00');
  });
});

describe('carrierService', () => {
  it('knows the contract product codes, and nothing else (not even an inherited property name)', () => {
    expect(carrierService('03298')).toMatchObject({ serviceCode: '03298', name: 'PAC' });
    expect(carrierService('04227')).toMatchObject({ name: 'Mini Envios', maxWeightGrams: 300 });
    expect(carrierService('99999')).toBeUndefined();
    expect(carrierService('toString')).toBeUndefined();
    expect(carrierService('__proto__')).toBeUndefined();
  });
});
