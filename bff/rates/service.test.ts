import { describe, expect, it, vi } from 'vitest';
import { RatesService } from './service.ts';

const request = {
  destinationCep: '20040020',
  items: [{ name: 'x', quantity: 1, unitPriceBRL: 10, weightKg: 0.3 }],
};
const response = {
  rates: [{ code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 21.5 }],
};

describe('RatesService', () => {
  it('answers an identical quote from memory within the TTL, and asks again after', async () => {
    let now = 0;
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, now: () => now, ttlMs: 1000 });
    await service.quote(request);
    await service.quote(request);
    expect(rates).toHaveBeenCalledTimes(1);
    await service.quote({
      ...request,
      items: [{ ...request.items[0], quantity: 2 } as (typeof request.items)[number]],
    });
    expect(rates).toHaveBeenCalledTimes(2);
    now = 1001;
    await service.quote(request);
    expect(rates).toHaveBeenCalledTimes(3);
  });

  it('keeps at most maxEntries quotes, the one stored longest ago going first even when it was just read', async () => {
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, maxEntries: 2 });
    const to = (destinationCep: string) => ({ ...request, destinationCep });
    await service.quote(to('01001000'));
    await service.quote(to('20040020'));
    await service.quote(to('01001000'));
    expect(rates).toHaveBeenCalledTimes(2);
    await service.quote(to('30130000'));
    await service.quote(to('20040020'));
    expect(rates).toHaveBeenCalledTimes(3);
    await service.quote(to('01001000'));
    expect(rates).toHaveBeenCalledTimes(4);
  });

  it('never caches a failure', async () => {
    const rates = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(response);
    const service = new RatesService({ client: { rates } });
    await expect(service.quote(request)).rejects.toThrow('down');
    await expect(service.quote(request)).resolves.toEqual(response);
  });
});
