import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizeCep } from '../../shared/cep.ts';
import {
  type CalculatorModel,
  type CalculatorModelOptions,
  createCalculatorModel,
  maskCep,
  sortRates,
  viewOf,
  visibleChoice,
} from './model.ts';
import type { QuoteOutcome } from './quote-client.ts';

/** What the shopper sees chosen now (the options on screen, the checked radio): the last `shipping-select` must say it. */
const shownChoice = (m: CalculatorModel) => visibleChoice(m.view.value, m.selected.value, m.quotedCep.value);

const item = { name: 'x', quantity: 1, unitPriceBRL: 10, weightKg: 0.3 };
const rate = (code: string, price: number, deliveryDays: number) => ({
  code,
  serviceId: code,
  label: code,
  price,
  deliveryDays,
});

/** A model over this quote function, with spies for its events. */
function calculator(
  quote: CalculatorModelOptions['client']['quote'],
  options: Omit<Partial<CalculatorModelOptions>, 'client' | 'events'> = {},
) {
  const events = { rates: vi.fn(), select: vi.fn(), error: vi.fn() };
  return { m: createCalculatorModel({ client: { quote }, events, ...options }), events };
}

function model(outcome: QuoteOutcome) {
  const quote = vi.fn(async () => outcome);
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
  const { m, events } = calculator(quote, { storage, debounceMs: 0 });
  m.items.value = [item];
  return { m, quote, events, store };
}

describe('maskCep and sortRates', () => {
  it('masks digits as 00000-000 and drops anything else', () => {
    expect(maskCep('01310100')).toBe('01310-100');
    expect(maskCep('0131')).toBe('0131');
    expect(maskCep('01310')).toBe('01310'); // no dangling dash before the sixth digit
    expect(maskCep('013101')).toBe('01310-1');
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
    // (no cart change is quoted before a CEP is given: stated with a fake clock below, after the debounce)
    const { m, quote } = model({ kind: 'rates', response: { rates: [rate('PAC', 20, 6)] } });
    m.setCep('20040020');
    m.setItems([{ ...item, quantity: 2 }]);
    await vi.waitFor(() => expect(quote).toHaveBeenCalledTimes(1));
    expect(quote).toHaveBeenCalledWith(
      { destinationCep: '20040020', items: [{ ...item, quantity: 2 }] },
      expect.any(AbortSignal),
    );
  });

  it.each([
    [{ kind: 'unavailable', code: 'invalid_api_key' }, 'unavailable'],
    [{ kind: 'busy', code: 'rate_limited' }, 'busy'],
    [{ kind: 'busy', code: 'quote_failed' }, 'carrier'],
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

/** A model whose client answers from a queue, so a test can walk a cart through several re-quotes. */
function walk(...outcomes: QuoteOutcome[]) {
  const quote = vi.fn(async () => outcomes.shift() ?? { kind: 'network' as const });
  const told: unknown[] = [];
  const events = {
    rates: vi.fn((detail: unknown) => void told.push(['rates', detail])),
    select: vi.fn((detail: unknown) => void told.push(['select', detail])),
    error: vi.fn((detail: unknown) => void told.push(['error', detail])),
  };
  const m = createCalculatorModel({ client: { quote }, events, debounceMs: 0 });
  m.items.value = [item];
  return { m, events, told };
}

const free = (price: number) => ({ ...rate('PAC', price, 6), free: true });
const ratesOf = (...rates: ReturnType<typeof rate>[]) => ({ kind: 'rates', response: { rates } }) as const;

/** The last `shipping-select` detail: what a checkout listening to it holds. */
function held(events: { select: ReturnType<typeof vi.fn> }): unknown {
  return events.select.mock.lastCall?.[0];
}

describe('shipping-select: a checkout that listens to it always holds the price on screen', () => {
  it('tells the new price when a re-quote changes the chosen rate (free PAC becomes R$ 15,90)', async () => {
    const { m, events } = walk(
      ratesOf(free(0), rate('SEDEX', 30, 2)),
      ratesOf(rate('PAC', 15.9, 6), rate('SEDEX', 30, 2)),
    );
    m.setCep('01001-000');
    await m.quote();
    const view = m.view.value;
    if (view.kind !== 'rates') throw new Error('expected rates');
    m.select(view.rates[0] as ReturnType<typeof rate>);
    expect(held(events)).toEqual({ cep: '01001000', rate: free(0) });
    await m.quote();
    expect(events.select).toHaveBeenCalledTimes(2);
    expect(held(events)).toEqual({ cep: '01001000', rate: rate('PAC', 15.9, 6) });
    expect(m.selected.value).toBe('PAC');
  });

  it('tells a changed delivery time even when the price is the same', async () => {
    const { m, events } = walk(ratesOf(rate('PAC', 20, 6)), ratesOf(rate('PAC', 20, 8)));
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    await m.quote();
    expect(held(events)).toEqual({ cep: '01001000', rate: rate('PAC', 20, 8) });
  });

  it("clears the choice as soon as the CEP is edited into another, and shows the new CEP's options unchosen", async () => {
    const { m, events } = walk(ratesOf(rate('PAC', 20, 6)), ratesOf(rate('PAC', 20, 6)));
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    m.setCep('20040020');
    // the old CEP's options are gone from the screen, and the checkout hears it before any new quote
    expect(m.view.value).toEqual({ kind: 'idle' });
    expect(held(events)).toEqual({ cep: '01001000', rate: null });
    await m.quote();
    expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('PAC', 20, 6)] });
    expect(m.selected.value).toBeUndefined();
    expect(events.select).toHaveBeenCalledTimes(2);
  });

  it('says nothing more when a re-quote leaves the chosen rate as it was', async () => {
    const { m, events } = walk(
      ratesOf(rate('PAC', 20, 6), rate('SEDEX', 30, 2)),
      ratesOf(rate('PAC', 20, 6), rate('SEDEX', 35, 2)),
    );
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    await m.quote();
    expect(events.select).toHaveBeenCalledTimes(1);
  });

  it('hides the options and clears the choice while the shopper retypes the CEP; a cart change then asks nothing', async () => {
    vi.useFakeTimers();
    try {
      const { m, events } = walk(ratesOf(free(0), rate('SEDEX', 30, 2)));
      m.setCep('01001-000');
      await m.quote();
      m.select(free(0));
      m.setCep('0100'); // half-typed: not a CEP
      expect(m.view.value).toEqual({ kind: 'idle' });
      expect(held(events)).toEqual({ cep: '01001000', rate: null });
      m.setItems([{ ...item, quantity: 3 }]);
      await vi.advanceTimersByTimeAsync(1000);
      expect(events.rates).toHaveBeenCalledTimes(1);
      expect(m.cep.value).toBe('0100'); // the shopper's typing is left alone
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the options and their choice on screen while the same CEP is quoted again for a new cart', async () => {
    let answer: (o: QuoteOutcome) => void = () => undefined;
    const answers = [
      async () => ratesOf(free(0), rate('SEDEX', 30, 2)),
      () =>
        new Promise<QuoteOutcome>((resolve) => {
          answer = resolve;
        }),
    ];
    const { m, events } = calculator(() => (answers.shift() as () => Promise<QuoteOutcome>)(), {
      debounceMs: 0,
    });
    m.items.value = [item];
    m.setCep('01001000');
    await m.quote();
    m.select(free(0));
    m.setItems([{ ...item, quantity: 3 }]);
    await vi.waitFor(() => expect(answers).toHaveLength(0)); // the re-quote is in flight
    expect(m.pending.value).toBe(true);
    expect(shownChoice(m)).toEqual({ cep: '01001000', rate: free(0) });
    expect(held(events)).toEqual({ cep: '01001000', rate: free(0) });
    answer(ratesOf(rate('PAC', 15.9, 6), rate('SEDEX', 30, 2)));
    await vi.waitFor(() => expect(m.pending.value).toBe(false));
    expect(held(events)).toEqual({ cep: '01001000', rate: rate('PAC', 15.9, 6) });
    expect(shownChoice(m)).toEqual({ cep: '01001000', rate: rate('PAC', 15.9, 6) });
  });

  it('does not confuse a look-alike: same code, another serviceId is another service', async () => {
    const { m, events } = walk(
      ratesOf({ ...rate('PAC', 20, 6), serviceId: 'pac-a' }),
      ratesOf({ ...rate('PAC', 20, 6), serviceId: 'pac-b' }),
    );
    m.setCep('01001000');
    await m.quote();
    m.select({ ...rate('PAC', 20, 6), serviceId: 'pac-a' });
    await m.quote();
    expect(held(events)).toEqual({ cep: '01001000', rate: null });
    expect(m.selected.value).toBeUndefined();
  });

  it.each([
    ['its service is gone', ratesOf(rate('SEDEX', 30, 2))],
    ['no coverage', { kind: 'rates', response: { rates: [], reason: 'no_coverage' } }],
    ['a merchant-side no quote', { kind: 'rates', response: { rates: [], reason: 'carrier_auth_failed' } }],
    ['the carrier failed (502)', { kind: 'busy', code: 'quote_failed' }],
    ['too many requests (429)', { kind: 'busy', code: 'rate_limited' }],
    ['the network failed', { kind: 'network' }],
    ['the key was refused', { kind: 'unavailable', code: 'subscription_required' }],
    ['a malformed answer', { kind: 'malformed' }],
    ['an unknown CEP', { kind: 'invalid_cep' }],
  ] as [string, QuoteOutcome][])('clears the choice with rate: null when %s', async (_, outcome) => {
    const { m, events, told } = walk(ratesOf(rate('PAC', 20, 6), rate('SEDEX', 30, 2)), outcome);
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await m.quote();
    warn.mockRestore();
    expect(held(events)).toEqual({ cep: '01001000', rate: null });
    expect(m.selected.value).toBeUndefined();
    // the answer is told first, then the cleared choice: a checkout reading both sees them in that order
    expect(told.at(-1)).toEqual(['select', { cep: '01001000', rate: null }]);
    expect(told.length).toBe(outcome.kind === 'invalid_cep' ? 3 : 4);
  });

  it('tells rate: null once, not again on every later failure', async () => {
    const { m, events } = walk(ratesOf(rate('PAC', 20, 6)), { kind: 'network' }, { kind: 'network' });
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    await m.quote();
    await m.quote();
    expect(events.select.mock.calls.map((call) => (call[0] as { rate: unknown }).rate)).toEqual([
      rate('PAC', 20, 6),
      null,
    ]);
  });

  it('never tells rate: null before the shopper chose anything', async () => {
    const { m, events } = walk(ratesOf(rate('PAC', 20, 6)), { kind: 'network' });
    m.setCep('01001000');
    await m.quote();
    await m.quote();
    expect(events.select).not.toHaveBeenCalled();
  });

  it('ignores an answer overtaken by a newer quote: only the newer one speaks', async () => {
    let release: (o: QuoteOutcome) => void = () => undefined;
    const slow = new Promise<QuoteOutcome>((resolve) => {
      release = resolve;
    });
    const answers: (() => Promise<QuoteOutcome>)[] = [
      async () => ratesOf(rate('PAC', 20, 6)),
      () => slow,
      async () => ratesOf(rate('PAC', 25, 6)),
    ];
    const quote = vi.fn((_r: unknown, signal: AbortSignal) => {
      const next = answers.shift() as () => Promise<QuoteOutcome>;
      return new Promise<QuoteOutcome>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')));
        void next().then(resolve);
      });
    });
    const { m, events } = calculator(quote, { debounceMs: 0 });
    m.items.value = [item];
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    const first = m.quote();
    await m.quote();
    release({ kind: 'network' });
    await first;
    expect(held(events)).toEqual({ cep: '01001000', rate: rate('PAC', 25, 6) });
    expect(m.view.value.kind).toBe('rates');
  });

  it('a 502 is told as the carrier, a 429 as too many requests', async () => {
    const a = walk({ kind: 'busy', code: 'quote_failed' });
    a.m.setCep('01001000');
    await a.m.quote();
    expect(a.m.view.value.kind).toBe('carrier');
    const b = walk({ kind: 'busy', code: 'rate_limited' });
    b.m.setCep('01001000');
    await b.m.quote();
    expect(b.m.view.value.kind).toBe('busy');
  });
});

describe('the rule: the last shipping-select always equals what the shopper sees chosen', () => {
  type Step =
    | { kind: 'cart'; items: (typeof item)[] }
    | { kind: 'cep'; text: string }
    | { kind: 'submit' }
    | { kind: 'select'; index: number }
    | { kind: 'answer'; which: number; outcome: QuoteOutcome }
    | { kind: 'time'; ms: number };

  const service = (serviceId: string, code: string) =>
    fc
      .record({
        price: fc.constantFrom(0, 15.9, 21.5, 39.4),
        days: fc.constantFrom(1, 4, 6),
        free: fc.boolean(),
        label: fc.constantFrom(code, `${code} Mini`),
      })
      .map(({ price, days, free, label }) => ({
        code,
        serviceId,
        label,
        price,
        deliveryDays: days,
        ...(free ? { free: true } : {}),
      }));
  // a look-alike: another service with PAC's code
  const services = fc
    .tuple(
      fc.option(service('correios-pac', 'PAC')),
      fc.option(service('correios-sedex', 'SEDEX')),
      fc.option(service('pac-b', 'PAC')),
    )
    .map((list) => list.filter((r) => r !== null));
  const outcome: fc.Arbitrary<QuoteOutcome> = fc.oneof(
    { weight: 4, arbitrary: services.map((rates) => ({ kind: 'rates', response: { rates } }) as const) },
    fc.constantFrom<QuoteOutcome>(
      { kind: 'rates', response: { rates: [], reason: 'no_coverage' } },
      { kind: 'rates', response: { rates: [], reason: 'carrier_auth_failed' } },
      { kind: 'busy', code: 'quote_failed' },
      { kind: 'busy', code: 'rate_limited' },
      { kind: 'network' },
      { kind: 'unavailable', code: 'subscription_required' },
      { kind: 'malformed' },
      { kind: 'invalid_cep' },
    ),
  );
  const cart = fc.array(
    fc.record({
      name: fc.constantFrom('Camiseta', 'Boné'),
      quantity: fc.integer({ min: 1, max: 4 }),
      unitPriceBRL: fc.constantFrom(49.9, 79.9),
      weightKg: fc.constant(0.3),
    }),
    { maxLength: 3 },
  );
  const step: fc.Arbitrary<Step> = fc.oneof(
    cart.map((items) => ({ kind: 'cart', items }) as const),
    // another CEP, the same one written otherwise, half-typed, empty, pasted with spaces and dots
    fc
      .constantFrom('01001000', '01001-000', ' 20040-020', '20.040-020', '2004', '', '99999-999')
      .map((text) => ({ kind: 'cep', text }) as const),
    fc.constant({ kind: 'submit' } as const),
    fc.nat(3).map((index) => ({ kind: 'select', index }) as const),
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('answer' as const), which: fc.nat(3), outcome }) },
    fc.constantFrom(0, 100, 300, 1000).map((ms) => ({ kind: 'time', ms }) as const),
  );

  interface Call {
    resolve(outcome: QuoteOutcome): void;
    done: boolean;
  }

  /** Checks the rule and its corollaries on the model as it stands. */
  function check(m: ReturnType<typeof createCalculatorModel>, told: unknown[], emptied: boolean): void {
    const last = told.at(-1) as { cep: string; rate: unknown } | undefined;
    const shown = shownChoice(m);
    if (shown) expect(last).toEqual(shown);
    else expect(last?.rate ?? null).toBeNull();
    // each shipping-select says something new: never the same choice, nor rate: null, twice in a row
    for (let i = 1; i < told.length; i++) expect(told[i]).not.toEqual(told[i - 1]);
    const view = m.view.value;
    if (emptied) expect(view.kind).toBe('empty');
    if (view.kind === 'rates') {
      // the options on screen are for the CEP in the field, and (once no quote is due) for the cart as it is
      expect(m.quotedCep.value).toBe(normalizeCep(m.cep.value));
      if (!m.pending.value) expect(m.quotedItems.value).toEqual(m.items.value);
    }
  }

  it('holds after every cart edit, CEP edit, submit, choice, answer (in any order) and tick of the clock', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.boolean(), async (steps, hearsAbort) => {
          const calls: Call[] = [];
          const told: unknown[] = [];
          const quote = (_request: unknown, signal: AbortSignal) =>
            new Promise<QuoteOutcome>((resolve, reject) => {
              const call: Call = { resolve, done: false };
              calls.push(call);
              // the real client rejects when aborted; a careless one would still answer later
              if (hearsAbort) signal.addEventListener('abort', () => reject(new Error('aborted')));
            });
          const m = createCalculatorModel({
            client: { quote },
            events: { rates: () => undefined, error: () => undefined, select: (d) => void told.push(d) },
          });
          let emptied = false;
          for (const s of steps) {
            if (s.kind === 'cart') {
              m.setItems(s.items);
              emptied = s.items.length === 0;
            } else if (s.kind === 'cep') m.setCep(s.text);
            else if (s.kind === 'submit') void m.quote();
            else if (s.kind === 'select') {
              const view = m.view.value;
              const option = view.kind === 'rates' ? view.rates[s.index] : undefined;
              if (option) m.select(option);
            } else if (s.kind === 'answer') {
              const open = calls.filter((call) => !call.done);
              const call = open[s.which % Math.max(open.length, 1)];
              if (call) {
                call.done = true;
                call.resolve(s.outcome);
              }
            } else await vi.advanceTimersByTimeAsync(s.ms);
            await vi.advanceTimersByTimeAsync(0);
            check(m, told, emptied);
          }
          // and once everything due has been asked and answered
          await vi.advanceTimersByTimeAsync(1000);
          for (const call of calls) call.resolve({ kind: 'network' });
          await vi.advanceTimersByTimeAsync(0);
          check(m, told, emptied);
          m.dispose();
        }),
        { numRuns: 2000 },
      );
    } finally {
      warn.mockRestore();
      vi.useRealTimers();
    }
  });
});

describe('viewOf', () => {
  const pac = { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', deliveryDays: 6, price: 30 };
  const sedex = { code: 'SEDEX', serviceId: 'correios-sedex', label: 'SEDEX', deliveryDays: 2, price: 20 };

  it('shows rates sorted by price, and tells nothing else', () => {
    expect(viewOf({ kind: 'rates', response: { rates: [pac, sedex] } })).toEqual({
      view: { kind: 'rates', rates: [sedex, pac] },
    });
  });

  it('shows an empty list as no quote, never free shipping, and keeps the reason off the screen', () => {
    expect(viewOf({ kind: 'rates', response: { rates: [], reason: 'no_coverage' } })).toEqual({
      view: { kind: 'no-quote', reason: 'no_coverage' },
    });
    const merchant = viewOf({
      kind: 'rates',
      response: { rates: [], reason: 'subscription_required', actionUrl: 'https://app.example/billing' },
    });
    expect(merchant.view).toEqual({ kind: 'no-quote', reason: 'merchant' });
    expect(merchant.warn).toEqual([
      'shipping-calculator: no quote (subscription_required)',
      'https://app.example/billing',
    ]);
    // without an actionUrl the warning still has its two parts, the second empty (never "undefined")
    expect(viewOf({ kind: 'rates', response: { rates: [], reason: 'no_services_enabled' } }).warn).toEqual([
      'shipping-calculator: no quote (no_services_enabled)',
      '',
    ]);
    expect(viewOf({ kind: 'rates', response: { rates: [], reason: 'brand_new' } }).view).toEqual({
      kind: 'no-quote',
      reason: 'unknown',
    });
  });

  it('maps each failure to its view and the code the page hears', () => {
    expect(viewOf({ kind: 'invalid_cep' })).toEqual({ view: { kind: 'idle' } });
    expect(viewOf({ kind: 'busy', code: 'rate_limited' })).toEqual({
      view: { kind: 'busy' },
      error: { code: 'rate_limited', message: 'busy' },
    });
    expect(viewOf({ kind: 'busy', code: 'quote_failed' })).toEqual({
      view: { kind: 'carrier' },
      error: { code: 'quote_failed', message: 'carrier' },
    });
    expect(viewOf({ kind: 'network' })).toEqual({
      view: { kind: 'network' },
      error: { code: 'network', message: 'network' },
    });
    expect(viewOf({ kind: 'unavailable', code: 'invalid_api_key' })).toEqual({
      view: { kind: 'unavailable' },
      error: { code: 'invalid_api_key', message: 'unavailable' },
      warn: [
        "shipping-calculator: the platform refused the quote (invalid_api_key); check the public key and the store's plan",
      ],
    });
    expect(viewOf({ kind: 'malformed' })).toEqual({
      view: { kind: 'unavailable' },
      error: { code: 'malformed_response', message: 'malformed' },
      warn: ['shipping-calculator: the platform answered a response that does not match the contract'],
    });
  });
});

describe('what the calculator asks the platform, and when', () => {
  const shirt = { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 };
  const mug = { name: 'Caneca', quantity: 1, unitPriceBRL: 35, weightKg: 0.4 };

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the 8 digits of the CEP in the field and the cart as set, whole', async () => {
    const { m, quote } = model(ratesOf(rate('PAC', 20, 6)));
    m.items.value = [shirt, mug];
    m.setCep(' 20040-020');
    await m.quote();
    expect(quote).toHaveBeenCalledTimes(1);
    expect(quote).toHaveBeenCalledWith(
      { destinationCep: '20040020', items: [shirt, mug] },
      expect.any(AbortSignal),
    );
    expect(m.quotedCep.value).toBe('20040020');
    expect(m.quotedItems.value).toEqual([shirt, mug]);
  });

  it('shows loading while the platform answers, and clears an earlier field error', async () => {
    let answer: (o: QuoteOutcome) => void = () => undefined;
    const quote = vi.fn(
      () =>
        new Promise<QuoteOutcome>((resolve) => {
          answer = resolve;
        }),
    );
    const { m } = calculator(quote);
    m.items.value = [shirt];
    m.setCep('2004');
    await m.quote();
    expect(m.fieldError.value).toBe('invalid');
    m.cep.value = '20040-020'; // a value set without setCep: quoting itself clears the stale error
    const pending = m.quote();
    expect(m.view.value).toEqual({ kind: 'loading' });
    expect(m.fieldError.value).toBeUndefined();
    answer(ratesOf(rate('PAC', 20, 6)));
    await pending;
    expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('PAC', 20, 6)] });
    expect(m.fieldError.value).toBeUndefined();
  });

  it('asks nothing for an empty cart: says "adicione itens" and warns the store\'s developer once', async () => {
    const { m, quote, events } = model(ratesOf(rate('PAC', 20, 6)));
    m.items.value = [];
    m.setCep('20040020');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await m.quote();
      await m.quote();
      expect(quote).not.toHaveBeenCalled();
      expect(m.view.value).toEqual({ kind: 'empty' });
      expect(m.fieldError.value).toBeUndefined();
      expect(events.rates).not.toHaveBeenCalled();
      expect(events.error).not.toHaveBeenCalled();
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /^shipping-calculator: nothing to quote, the cart is empty/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('empties at once on .items = []: options gone, choice cleared with rate: null, nothing asked', async () => {
    vi.useFakeTimers();
    const { m, quote, events } = model(ratesOf(rate('PAC', 21.5, 6)));
    m.setCep('30130-010');
    await m.quote();
    m.select(rate('PAC', 21.5, 6));
    m.setItems([]);
    expect(m.view.value).toEqual({ kind: 'empty' });
    expect(held(events)).toEqual({ cep: '30130010', rate: null });
    expect(shownChoice(m)).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).toHaveBeenCalledTimes(1);
    // items again: quoted again for the CEP in the field, nothing chosen until the shopper chooses
    m.setItems([item]);
    expect(m.view.value).toEqual({ kind: 'idle' });
    await vi.advanceTimersByTimeAsync(300);
    expect(quote).toHaveBeenCalledTimes(2);
    expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('PAC', 21.5, 6)] });
    expect(events.select).toHaveBeenCalledTimes(2);
  });

  it('drops a quote in flight when the cart changes: its answer, for the old cart, never lands as current', async () => {
    vi.useFakeTimers();
    const answers: ((o: QuoteOutcome) => void)[] = [];
    // a client that never hears the abort: the old answer still arrives
    const quote = vi.fn(() => new Promise<QuoteOutcome>((resolve) => void answers.push(resolve)));
    const { m, events } = calculator(quote);
    m.items.value = [item];
    m.setCep('01001000');
    void m.quote();
    m.setItems([{ ...item, quantity: 2 }]);
    answers[0]?.(ratesOf(rate('PAC', 20, 6)));
    await vi.advanceTimersByTimeAsync(0);
    expect(events.rates).not.toHaveBeenCalled();
    expect(m.pending.value).toBe(true); // the new cart's quote is still due
    await vi.advanceTimersByTimeAsync(300);
    answers[1]?.(ratesOf(rate('PAC', 25, 6)));
    await vi.advanceTimersByTimeAsync(0);
    expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('PAC', 25, 6)] });
    expect(m.quotedItems.value).toEqual([{ ...item, quantity: 2 }]);
    expect(m.pending.value).toBe(false);
  });

  it('tells nothing new when the shopper picks the chosen option again', async () => {
    const { m, events } = model(ratesOf(rate('PAC', 20, 6)));
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    m.select(rate('PAC', 20, 6));
    expect(events.select).toHaveBeenCalledOnce();
  });

  it('drops a quote in flight when the cart is emptied: its late answer changes nothing', async () => {
    const answers: ((o: QuoteOutcome) => void)[] = [];
    // a client that never hears the abort: the answer still arrives
    const quote = vi.fn(() => new Promise<QuoteOutcome>((resolve) => void answers.push(resolve)));
    const { m, events } = calculator(quote);
    m.items.value = [item];
    m.setCep('01001000');
    const pending = m.quote();
    m.setItems([]);
    answers[0]?.(ratesOf(rate('PAC', 20, 6)));
    await pending;
    expect(m.view.value).toEqual({ kind: 'empty' });
    expect(events.rates).not.toHaveBeenCalled();
    expect(m.pending.value).toBe(false);
  });

  it('marks a CEP the platform does not know in the field, tells no error, remembers nothing', async () => {
    const { m, events, store } = model({ kind: 'invalid_cep' });
    m.setCep('99999-999');
    await m.quote();
    expect(m.fieldError.value).toBe('unknown');
    expect(m.view.value).toEqual({ kind: 'idle' });
    expect(events.error).not.toHaveBeenCalled();
    expect(events.rates).not.toHaveBeenCalled();
    expect(store.size).toBe(0);
    m.setCep('99999-99'); // the shopper corrects the field: the error goes at once
    expect(m.fieldError.value).toBeUndefined();
  });

  it('remembers the CEP only after a real answer, never after a failure', async () => {
    const { m, store } = model({ kind: 'network' });
    m.setCep('20040020');
    await m.quote();
    expect(store.size).toBe(0);
  });

  it('tells shipping-error with the code and the screen state', async () => {
    const { m, events } = model({ kind: 'busy', code: 'rate_limited' });
    m.setCep('20040020');
    await m.quote();
    expect(events.error).toHaveBeenCalledExactlyOnceWith({ code: 'rate_limited', message: 'busy' });
  });

  it('warns the store developer (console) about a merchant-side no quote, never about no coverage', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const merchant = model({
        kind: 'rates',
        response: { rates: [], reason: 'carrier_auth_failed', actionUrl: 'https://app.example/carriers' },
      });
      merchant.m.setCep('20040020');
      await merchant.m.quote();
      expect(warn).toHaveBeenCalledExactlyOnceWith(
        'shipping-calculator: no quote (carrier_auth_failed)',
        'https://app.example/carriers',
      );
      const outside = model({ kind: 'rates', response: { rates: [], reason: 'no_coverage' } });
      outside.m.setCep('69900000');
      await outside.m.quote();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('ignores an older answer that arrives after a newer one, even from a client that does not abort', async () => {
    const answers: ((o: QuoteOutcome) => void)[] = [];
    // a client that never hears the abort: both answers arrive, the older one last
    const quote = vi.fn(() => new Promise<QuoteOutcome>((resolve) => void answers.push(resolve)));
    const { m, events } = calculator(quote);
    m.items.value = [shirt];
    m.setCep('01001000');
    const older = m.quote();
    m.setCep('20040020');
    const newer = m.quote();
    answers[1]?.(ratesOf(rate('SEDEX', 30, 2)));
    await newer;
    answers[0]?.({ kind: 'network' });
    await older;
    expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('SEDEX', 30, 2)] });
    expect(events.rates).toHaveBeenCalledExactlyOnceWith({ cep: '20040020', rates: [rate('SEDEX', 30, 2)] });
    expect(events.error).not.toHaveBeenCalled();
    // the older quote's signal was aborted when the newer one started
    const [, firstSignal] = quote.mock.calls[0] as unknown as [unknown, AbortSignal];
    expect(firstSignal.aborted).toBe(true);
  });

  it('re-quotes a cart change once, 300 ms after the last change, with the last cart', async () => {
    vi.useFakeTimers();
    const quote = vi.fn(async () => ratesOf(rate('PAC', 20, 6)));
    const { m } = calculator(quote);
    m.setCep('20040020');
    m.setItems([shirt]);
    await vi.advanceTimersByTimeAsync(200);
    m.setItems([shirt, mug]);
    await vi.advanceTimersByTimeAsync(299);
    expect(quote).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(quote).toHaveBeenCalledExactlyOnceWith(
      { destinationCep: '20040020', items: [shirt, mug] },
      expect.any(AbortSignal),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).toHaveBeenCalledTimes(1);
  });

  it('does not quote a cart change before any CEP was given', async () => {
    vi.useFakeTimers();
    const { m, quote } = model(ratesOf(rate('PAC', 20, 6)));
    m.setItems([shirt]);
    m.setCep('2004'); // half-typed, and nothing on screen to re-price
    m.setItems([shirt, mug]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).not.toHaveBeenCalled();
    expect(m.fieldError.value).toBeUndefined(); // nor is the shopper told off while still typing
  });

  it('does not re-ask a CEP the platform did not know when the cart changes while the shopper retypes', async () => {
    vi.useFakeTimers();
    const { m, quote } = model({ kind: 'invalid_cep' });
    m.setCep('99999-999');
    await m.quote();
    m.setCep('2004');
    m.setItems([shirt, mug]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).toHaveBeenCalledTimes(1);
  });

  it('a new calculator has nothing quoted and asks nothing before it has a cart', async () => {
    const quote = vi.fn(async () => ratesOf(rate('PAC', 20, 6)));
    const { m } = calculator(quote);
    expect(m.quotedCep.value).toBe('');
    expect(m.quotedItems.value).toEqual([]);
    expect(m.view.value).toEqual({ kind: 'idle' });
    m.setCep('20040020');
    await m.quote();
    expect(quote).not.toHaveBeenCalled();
  });

  it('can be disposed before it ever quoted (an element removed at once)', () => {
    const { m } = calculator(vi.fn());
    expect(() => m.dispose()).not.toThrow();
  });

  it('a quote cut short by dispose ends quietly: no view change, no event', async () => {
    const quote = vi.fn(
      (_r: unknown, signal: AbortSignal) =>
        new Promise<QuoteOutcome>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    );
    const { m, events } = calculator(quote);
    m.items.value = [shirt];
    m.setCep('20040020');
    const pending = m.quote();
    m.dispose();
    await expect(pending).resolves.toBeUndefined();
    expect(m.view.value).toEqual({ kind: 'loading' });
    expect(events.rates).not.toHaveBeenCalled();
    expect(events.error).not.toHaveBeenCalled();
  });

  it('a click on Calcular cancels a pending cart re-quote: one call, not two', async () => {
    vi.useFakeTimers();
    const quote = vi.fn(async () => ratesOf(rate('PAC', 20, 6)));
    const { m } = calculator(quote);
    m.setCep('20040020');
    m.setItems([shirt]);
    await m.quote();
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).toHaveBeenCalledTimes(1);
  });

  it('after dispose, a pending re-quote never fires and the quote in flight is aborted', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const quote = vi.fn(
      (_r: unknown, signal: AbortSignal) => new Promise<QuoteOutcome>(() => void signals.push(signal)),
    );
    const { m } = calculator(quote);
    m.setCep('20040020');
    m.setItems([shirt]);
    void m.quote();
    m.setItems([shirt, mug]);
    m.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(quote).toHaveBeenCalledTimes(1);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('the remembered CEP', () => {
  it('never overwrites what the shopper already typed', () => {
    const { m } = calculator(vi.fn(), { storage: { getItem: () => '20040020', setItem: () => undefined } });
    m.setCep('0100');
    m.restoreCep();
    expect(m.cep.value).toBe('0100');
  });

  it('works, unremembered, when storage throws (private mode, full quota) or is absent', async () => {
    const throwing = {
      getItem: (): string | null => {
        throw new Error('SecurityError');
      },
      setItem: (): void => {
        throw new Error('QuotaExceededError');
      },
    };
    for (const storage of [throwing, undefined]) {
      const { m, events } = calculator(async () => ratesOf(rate('PAC', 20, 6)), { storage });
      m.restoreCep();
      expect(m.cep.value).toBe('');
      m.items.value = [item];
      m.setCep('20040020');
      await m.quote();
      expect(m.view.value).toEqual({ kind: 'rates', rates: [rate('PAC', 20, 6)] });
      expect(events.rates).toHaveBeenCalledTimes(1);
    }
  });
});

describe('shipping-select follows every change the checkout shows', () => {
  it.each([
    ['the label', { ...rate('PAC', 20, 6), label: 'PAC Mini' }],
    ['the free flag', { ...rate('PAC', 20, 6), free: true }],
  ])('tells the chosen rate again when only %s changes', async (_, changed) => {
    const { m, events } = walk(ratesOf(rate('PAC', 20, 6)), ratesOf(changed));
    m.setCep('01001000');
    await m.quote();
    m.select(rate('PAC', 20, 6));
    await m.quote();
    expect(events.select).toHaveBeenCalledTimes(2);
    expect(held(events)).toEqual({ cep: '01001000', rate: changed });
  });
});

describe('"a partir de": the lightest variant quoted before the store gives the cart', () => {
  const variant = { name: 'P', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.2 };

  it('shows the cheapest option of the variant as a from-price, tells the checkout nothing, then quotes the cart', async () => {
    const quote = vi.fn(async () => ({
      kind: 'rates' as const,
      response: { rates: [rate('SEDEX', 30, 1), rate('PAC', 18.5, 5)] },
    }));
    const { m, events } = calculator(quote, { debounceMs: 0 });
    m.setCep('01310100');
    m.setItems([variant], true);
    await vi.waitFor(() => expect(m.view.value.kind).toBe('from'));
    expect(m.view.value).toEqual({ kind: 'from', rate: rate('PAC', 18.5, 5) });
    expect(visibleChoice(m.view.value, 'PAC', '01310100')).toBeNull();
    expect(events.rates).not.toHaveBeenCalled();
    expect(events.select).not.toHaveBeenCalled();
    // the shopper chose a variant: the store gives the cart, which is quoted as always
    m.setItems([{ ...variant, name: 'G', weightKg: 0.9 }]);
    await vi.waitFor(() => expect(m.view.value.kind).toBe('rates'));
    expect(quote).toHaveBeenLastCalledWith(
      { destinationCep: '01310100', items: [{ ...variant, name: 'G', weightKg: 0.9 }] },
      expect.anything(),
    );
    expect(events.rates).toHaveBeenCalledTimes(1);
  });

  it('shows an empty list as no quote, never a from-price nor free shipping', async () => {
    const { m, events } = calculator(
      async () => ({ kind: 'rates', response: { rates: [], reason: 'no_coverage' } }),
      { debounceMs: 0 },
    );
    m.setCep('00000100');
    m.setItems([variant], true);
    await vi.waitFor(() => expect(m.view.value.kind).toBe('no-quote'));
    expect(m.view.value).toEqual({ kind: 'no-quote', reason: 'no_coverage' });
    expect(events.rates).not.toHaveBeenCalled();
  });
});
