import { describe, expect, it } from 'vitest';
import { DeliveryPromiseSchema, PlatformPromises, platformPromise } from './delivery-promise.ts';

describe('platformPromise', () => {
  it('is the calculator\u2019s arrival date: posted today before the cut-off, plus handling and carrier days', () => {
    // Mon 23/11/2026 12:00 São Paulo, 4 business days → Fri 27/11
    const at = Date.parse('2026-11-23T12:00:00-03:00');
    expect(platformPromise({ at, deliveryDays: 4 }, {})).toEqual({
      from: '2026-11-27',
      to: '2026-11-27',
      basis: 'platform',
      parcels: 0,
    });
    // one handling day and a 10 h cut-off passed: posted Tue, +1 handling → Wed, +4 → Tue 01/12
    expect(platformPromise({ at, deliveryDays: 4 }, { handlingDays: 1, cutoffMinutes: 600 }).to).toBe(
      '2026-12-01',
    );
  });

  it('answers a schema-valid promise through the port, capping an absurd day count', async () => {
    const promise = await new PlatformPromises().promiseFor({
      destinationCep: '20040020',
      serviceId: 'correios-pac',
      deliveryDays: 1e9,
      at: Date.parse('2026-11-23T12:00:00-03:00'),
    });
    expect(DeliveryPromiseSchema.parse(promise).basis).toBe('platform');
    expect(promise.to.startsWith('2027-')).toBe(true);
  });
});
