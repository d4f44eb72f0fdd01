import { describe, expect, it, vi } from 'vitest';
import { createCalculatorModel, maskCep, sortRates } from './model.ts';
import type { QuoteOutcome } from './quote-client.ts';

const item = { name: 'x', quantity: 1, unitPriceBRL: 10, weightKg: 0.3 };
const rate = (code: string, price: number, deliveryDays: number) => ({
  code,
  serviceId: code,
  label: code,
  price,
  deliveryDays,
});

function model(outcome: QuoteOutcome) {
  const quote = vi.fn(async () => outcome);
  const events = { rates: vi.fn(), select: vi.fn(), error: vi.fn() };
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
  const m = createCalculatorModel({ client: { quote }, events, storage, debounceMs: 0 });
  m.items.value = [item];
  return { m, quote, events, store };
}

describe('maskCep and sortRates', () => {
  it('masks digits as 00000-000 and drops anything else', () => {
    expect(maskCep('01310100')).toBe('01310-100');
    expect(maskCep('0131')).toBe('0131');
    expect(maskCep('01a31-0100999')).toBe('01310-100');
  });

  it('sorts by price, then deadline', () => {
    const sorted = sortRates([rate('A', 20, 3), rate('B', 10, 9), rate('C', 20, 1)]);
    expect(sorted.map((r) => r.code)).toEqual(['B', 'C', 'A']);
  });
});

describe('createCalculatorModel', () => {
  it('refuses an invalid CEP without calling the platform', async () => {
    const { m, quote } = model({ kind: 'rates', response: { rates: [] } });
    m.setCep('1234');
    await m.quote();
    expect(m.fieldError.value).toBe('invalid');
    expect(quote).not.toHaveBeenCalled();
  });

  it('shows no-quote for rates: [] and classifies the reason; never rates', async () => {
    for (const [reason, expected] of [
      ['no_coverage', 'no_coverage'],
      ['no_services_enabled', 'merchant'],
      ['carrier_auth_failed', 'merchant'],
      ['subscription_required', 'merchant'],
      ['a_new_reason', 'unknown'],
      [undefined, 'unknown'],
    ] as const) {
      const { m, events } = model({ kind: 'rates', response: { rates: [], ...(reason ? { reason } : {}) } });
      m.setCep('20040020');
      await m.quote();
      expect(m.view.value).toEqual({ kind: 'no-quote', reason: expected });
      expect(events.rates).toHaveBeenCalledWith({
        cep: '20040020',
        rates: [],
        ...(reason ? { reason } : {}),
      });
    }
  });

  it('remembers the CEP after a quote and emits shipping-select with the rate', async () => {
    const { m, store, events } = model({
      kind: 'rates',
      response: { rates: [rate('SEDEX', 30, 2), rate('PAC', 20, 6)] },
    });
    m.setCep('20040-020');
    await m.quote();
    expect(store.get('shipping-calculator:cep')).toBe('20040020');
    const view = m.view.value;
    expect(view.kind === 'rates' && view.rates.map((r) => r.code)).toEqual(['PAC', 'SEDEX']);
    const next = createCalculatorModel({
      client: { quote: vi.fn() },
      events,
      storage: { getItem: () => '20040020', setItem: () => undefined },
    });
    expect(next.cep.value).toBe('');
    next.restoreCep();
    expect(next.cep.value).toBe('20040-020');
    m.select(rate('PAC', 20, 6));
    expect(events.select).toHaveBeenCalledWith({ cep: '20040020', rate: rate('PAC', 20, 6) });
  });

  it('re-quotes when the items change and a CEP is set', async () => {
    const { m, quote } = model({ kind: 'rates', response: { rates: [rate('PAC', 20, 6)] } });
    m.setItems([item]);
    expect(quote).not.toHaveBeenCalled();
    m.setCep('20040020');
    m.setItems([{ ...item, quantity: 2 }]);
    await vi.waitFor(() => expect(quote).toHaveBeenCalledTimes(1));
  });

  it.each([
    [{ kind: 'unavailable', code: 'invalid_api_key' }, 'unavailable'],
    [{ kind: 'busy', code: 'rate_limited' }, 'busy'],
    [{ kind: 'network' }, 'network'],
    [{ kind: 'malformed' }, 'unavailable'],
  ] as const)('shows %j as %s and emits shipping-error', async (outcome, kind) => {
    const { m, events } = model(outcome);
    m.setCep('20040020');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await m.quote();
    warn.mockRestore();
    expect(m.view.value.kind).toBe(kind);
    expect(events.error).toHaveBeenCalled();
  });
});
