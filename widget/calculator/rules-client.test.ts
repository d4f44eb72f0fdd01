import { describe, expect, it } from 'vitest';
import type { RatesResponse } from '../../shared/quote.ts';
import type { QuoteClient } from './quote-client.ts';
import { chargingClient } from './rules-client.ts';

const pac = { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', price: 19.9, deliveryDays: 5 };
/** The platform's answer, as the quote client gives it (the transport is tested in quote-client.test.ts). */
const platform = (response: RatesResponse): QuoteClient => ({
  quote: async () => ({ kind: 'rates', response }),
});
const request = {
  destinationCep: '01310100',
  items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 99, weightKg: 0.3 }],
};
const served =
  (body: unknown, status = 200) =>
  async () =>
    Response.json(body, { status });
const quote = (client: QuoteClient) => client.quote(request, new AbortController().signal);

describe('chargingClient', () => {
  it('drops a zero price without free: true even without rules (never "R$ 0,00")', async () => {
    const outcome = await quote(
      chargingClient(platform({ rates: [pac, { ...pac, serviceId: 'zero', price: 0 }] })),
    );
    expect(outcome).toEqual({ kind: 'rates', response: { rates: [pac] } });
  });

  it('charges the rules the store’s BFF serves', async () => {
    const rules = { version: 3, rules: [{ id: 'sp', when: { ufs: ['SP'] }, then: { free: true } }] };
    const outcome = await quote(
      chargingClient(platform({ rates: [pac] }), 'https://bff/rules', served(rules)),
    );
    expect(outcome).toEqual({ kind: 'rates', response: { rates: [{ ...pac, price: 0, free: true }] } });
  });

  it('is no quote (the retry button) when the rules cannot be read or are broken, never the platform’s price', async () => {
    for (const fetch of [
      served({ error: { code: 'internal_error', message: 'x' } }, 500),
      served({ version: 1 }),
      served(null),
      served({ version: 1, rules: [{ id: 'x', then: { label: 7 } }] }),
      served({ version: 1, rules: [{ id: 'x', then: { extraDays: 'dois' } }] }),
      async () => {
        throw new TypeError('offline');
      },
    ])
      expect(await quote(chargingClient(platform({ rates: [pac] }), 'https://bff/rules', fetch))).toEqual({
        kind: 'network',
      });
  });

  it('keeps the platform’s own failures as they are', async () => {
    const failing: QuoteClient = { quote: async () => ({ kind: 'busy', code: 'rate_limited' }) };
    expect(
      await quote(chargingClient(failing, 'https://bff/rules', served({ version: 0, rules: [] }))),
    ).toEqual({
      kind: 'busy',
      code: 'rate_limited',
    });
  });
});
