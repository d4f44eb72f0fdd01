import { describe, expect, it, vi } from 'vitest';
import { chargeRates } from '../../shared/charged-rates.ts';
import type { DeliveryPromises, PromiseInput } from '../../shared/delivery-promise.ts';
import type { RatesResponse } from '../../shared/quote.ts';
import type { WindowDecision } from '../../shared/windowed-counter.ts';
import { createLogger } from '../logger.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { isQuoteShareSpent, type QuoteCaller, QuoteShares } from './quote-share.ts';
import { RatesService } from './service.ts';

const request = {
  destinationCep: '20040020',
  items: [{ name: 'x', quantity: 1, unitPriceBRL: 10, weightKg: 0.3 }],
};
const pac = { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 21.5 };
const response: RatesResponse = { rates: [pac] };
const to = (destinationCep: string) => ({ ...request, destinationCep });
/** Monday 23 Nov 2026, 10:00 in São Paulo. */
const MONDAY_10H = Date.parse('2026-11-23T10:00:00-03:00');

const agent: QuoteCaller = { kind: 'agent', id: 'shipper' };
const other: QuoteCaller = { kind: 'agent', id: 'another' };

/** Shares of `calls` uncached quotes per caller, counted in memory (the Redis twin is tested with backends). */
function sharesOf(calls: number): QuoteShares {
  const used = new Map<string, number>();
  return new QuoteShares(() => ({
    take: async (key): Promise<WindowDecision> => {
      const n = used.get(key) ?? 0;
      if (n >= calls) return { ok: false, retryAfterSeconds: 42 };
      used.set(key, n + 1);
      return { ok: true };
    },
  }));
}

/** A platform whose answers wait for `release()`: concurrent quotes are in flight together. */
function gatedPlatform() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const rates = vi.fn(async () => {
    await gate;
    return response;
  });
  return { rates, release };
}

describe('RatesService: the cache and single flight', () => {
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
    expect((await service.quote(request)).rates.map((r) => r.price)).toEqual([21.5]);
    expect(rates).toHaveBeenCalledTimes(2);
  });

  it('sends one platform call for 20 identical quotes asked at the same time, and answers each of them', async () => {
    const platform = gatedPlatform();
    const service = new RatesService({ client: platform, shares: sharesOf(1) });
    const callers = Array.from({ length: 20 }, (_, i) => ({ kind: 'agent', id: `a${i}` }) as QuoteCaller);
    const answers = Promise.all(callers.map((caller) => service.quote(request, caller)));
    platform.release();
    expect((await answers).map((a) => a.rates[0]?.price)).toEqual(Array(20).fill(21.5));
    expect(platform.rates).toHaveBeenCalledTimes(1);
  });

  it('sends two calls for two quotes that differ in one item', async () => {
    const platform = gatedPlatform();
    const service = new RatesService({ client: platform });
    const heavier = { ...request, items: [{ ...request.items[0], weightKg: 0.31 }] } as typeof request;
    const both = Promise.all([service.quote(request), service.quote(heavier)]);
    platform.release();
    await both;
    expect(platform.rates).toHaveBeenCalledTimes(2);
  });
});

describe('RatesService: each caller has a share of uncached quotes', () => {
  it('refuses a caller beyond its share with QuoteShareSpent, sends nothing, and keeps serving another caller', async () => {
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, shares: sharesOf(3) });
    for (const cep of ['01001000', '20040020', '30130000']) await service.quote(to(cep), agent);
    const refused = await service.quote(to('40010000'), agent).catch((error: unknown) => error);
    expect(isQuoteShareSpent(refused)).toBe(true);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBe(42);
    expect(rates).toHaveBeenCalledTimes(3);
    await expect(service.quote(to('40010000'), other)).resolves.toMatchObject({ rates: [pac] });
    expect(rates).toHaveBeenCalledTimes(4);
  });

  it('still answers a caller whose share is spent from the cache (cached quotes are free)', async () => {
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, shares: sharesOf(1) });
    await service.quote(request, agent);
    await expect(service.quote(to('01001000'), agent)).rejects.toSatisfy(isQuoteShareSpent);
    await expect(service.quote(request, agent)).resolves.toMatchObject({ rates: [pac] });
    await expect(service.quote(request, other)).resolves.toMatchObject({ rates: [pac] });
    expect(rates).toHaveBeenCalledTimes(1);
  });

  it('lets a caller with no share left join an identical quote in flight another caller pays for', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rates = vi.fn(async (sent: { destinationCep: string }) => {
      if (sent.destinationCep === request.destinationCep) await gate;
      return response;
    });
    const service = new RatesService({ client: { rates }, shares: sharesOf(1) });
    await service.quote(to('01001000'), agent); // the agent's one uncached quote
    const paid = service.quote(request, other);
    const joined = service.quote(request, agent);
    release();
    await expect(Promise.all([paid, joined])).resolves.toHaveLength(2);
    expect(rates).toHaveBeenCalledTimes(2);
  });

  it('lets a caller that joined a refused caller’s quote ask again on its own share', async () => {
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, shares: sharesOf(1) });
    await service.quote(to('01001000'), agent); // the agent's one quote
    const refused = service.quote(request, agent);
    const joined = service.quote(request, other);
    await expect(refused).rejects.toSatisfy(isQuoteShareSpent);
    await expect(joined).resolves.toMatchObject({ rates: [pac] });
    expect(rates).toHaveBeenCalledTimes(2);
  });

  it('serves a caller with a share left after any number of refused callers in front of it asked the same quote', async () => {
    // Three agents whose shares are spent ask an uncached cart just before Shopify's callback does: each refused
    // flight is theirs, not Shopify's, so Shopify ends up paying for its own quote instead of joining another.
    const spent = new Set(['agent:x1', 'agent:x2', 'agent:x3']);
    const shares = new QuoteShares(() => ({
      take: async (key): Promise<WindowDecision> =>
        spent.has(key) ? { ok: false, retryAfterSeconds: 42 } : { ok: true },
    }));
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, shares });
    const shopify: QuoteCaller = { kind: 'platform', id: 'shopify' };
    const asked = [
      ...['x1', 'x2', 'x3'].map((id) => service.quote(request, { kind: 'agent', id })),
      service.quote(request, shopify),
      service.quote(request, shopify),
    ];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    // Shopify's two identical asks are still one platform call.
    expect(rates).toHaveBeenCalledTimes(1);
  });

  it('names a caller nobody named as one shared caller', async () => {
    const rates = vi.fn(async () => response);
    const service = new RatesService({ client: { rates }, shares: sharesOf(1) });
    await service.quote(to('01001000'));
    await expect(service.quote(to('20040020'))).rejects.toSatisfy(isQuoteShareSpent);
  });
});

describe('RatesService: the free-shipping rule and the promise', () => {
  it('charges zero only for free: true, and does not offer a zero (or negative) price without it', async () => {
    const rates = vi.fn(
      async (): Promise<RatesResponse> => ({
        rates: [
          { ...pac, price: 5, free: true },
          { ...pac, serviceId: 'zero', price: 0 },
          { ...pac, serviceId: 'negative', price: -1 },
          { ...pac, serviceId: 'false-flag', price: 0, free: false },
          { ...pac, serviceId: 'correios-sedex', price: 40.1 },
        ],
      }),
    );
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    const service = new RatesService({ client: { rates }, logger });
    const answer = await service.quote(request);
    expect(answer.rates.map((r) => [r.serviceId, r.price, r.free])).toEqual([
      ['correios-pac', 0, true],
      ['correios-sedex', 40.1, undefined],
    ]);
    expect(lines.filter((line) => line.includes('without free: true is not offered'))).toHaveLength(3);
  });

  it('states the rule once for every surface: chargeRates of shared/charged-rates.ts', () => {
    const cart = { destinationCep: '01310100', items: [] };
    expect(chargeRates([{ ...pac, price: 3, free: true }], cart)[0]).toEqual({
      ...pac,
      price: 0,
      free: true,
    });
    expect(chargeRates([{ ...pac, price: Number.NaN }], cart)).toEqual([]);
    expect(chargeRates([pac], cart)[0]).toEqual(pac);
  });

  it('gives each rate the promise of the platform count with the store’s handling days and cut-off', async () => {
    const rates = vi.fn(async () => response);
    const at = (now: number, storeDays = {}) =>
      new RatesService({ client: { rates }, now: () => now, storeDays }).quote(request);
    // Monday 10:00, 6 business days: Tue 1 Dec; one handling day: Wed 2 Dec; after a 9:00 cut-off: Thu 3 Dec.
    expect((await at(MONDAY_10H)).rates[0]?.promise).toEqual({
      from: '2026-12-01',
      to: '2026-12-01',
      basis: 'platform',
      parcels: 0,
    });
    expect((await at(MONDAY_10H, { handlingDays: 1 })).rates[0]?.promise.to).toBe('2026-12-02');
    expect((await at(MONDAY_10H, { handlingDays: 1, cutoffMinutes: 9 * 60 })).rates[0]?.promise.to).toBe(
      '2026-12-03',
    );
  });

  it('asks the injected promise port for every rate, with the CEP, service, days and instant', async () => {
    const seen: PromiseInput[] = [];
    const promises: DeliveryPromises = {
      promiseFor: async (input) => {
        seen.push(input);
        return { from: '2026-11-25', to: '2026-11-27', basis: 'history', parcels: 40 };
      },
    };
    const service = new RatesService({ client: { rates: async () => response }, promises, now: () => 7 });
    expect((await service.quote(request)).rates[0]?.promise.basis).toBe('history');
    expect(seen).toEqual([{ destinationCep: '20040020', serviceId: 'correios-pac', deliveryDays: 6, at: 7 }]);
  });

  it('falls back to the platform count when the promise port fails, and still answers', async () => {
    const promises: DeliveryPromises = { promiseFor: async () => Promise.reject(new Error('history down')) };
    const service = new RatesService({
      client: { rates: async () => response },
      promises,
      now: () => MONDAY_10H,
    });
    expect((await service.quote(request)).rates[0]?.promise).toMatchObject({ basis: 'platform', parcels: 0 });
  });

  it('passes an upstream failure on as it is (the callers decide what it means)', async () => {
    const failure = new UpstreamError('unavailable', 'upstream failure (quote_failed)', { status: 502 });
    const service = new RatesService({ client: { rates: async () => Promise.reject(failure) } });
    await expect(service.quote(request)).rejects.toBe(failure);
  });
});
