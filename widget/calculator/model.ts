import { batch, signal } from '@preact/signals-core';
import { normalizeCep } from '../../shared/cep.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import { MERCHANT_SIDE_REASONS } from '../../shared/reasons.ts';
import type { QuoteClient, QuoteOutcome } from './quote-client.ts';

/** What the results area shows. */
export type View =
  | { kind: 'idle' }
  /** The cart is empty (`.items = []`): nothing to quote, "adicione itens". */
  | { kind: 'empty' }
  /** A quote in flight with nothing on screen to keep. */
  | { kind: 'loading' }
  | { kind: 'rates'; rates: Rate[] }
  /** "A partir de": the cheapest option of the lightest variant, before the store gives the cart. Nothing to choose. */
  | { kind: 'from'; rate: Rate }
  /** `rates: []` with a reason: no quote, never free shipping (spec 4.1 rule 1). */
  | { kind: 'no-quote'; reason: 'no_coverage' | 'merchant' | 'unknown' }
  | { kind: 'unavailable' }
  /** 429 still answered after the retries: too many requests. */
  | { kind: 'busy' }
  /** 502/503/504 still answered after the retries: the carrier could not quote. */
  | { kind: 'carrier' }
  | { kind: 'network' };

/** The option the shopper sees chosen (a checked radio among the options on screen), with the CEP it is for. */
export interface Choice {
  cep: string;
  rate: Rate;
}

/** What the shopper sees chosen: an option of the list on screen whose radio is checked, or nothing. */
export function visibleChoice(view: View, selected: string | undefined, cep: string): Choice | null {
  if (view.kind !== 'rates') return null;
  const rate = view.rates.find((candidate) => candidate.serviceId === selected);
  return rate ? { cep, rate } : null;
}

export interface CalculatorEvents {
  rates(detail: { cep: string; rates: Rate[]; reason?: string }): void;
  /** `rate: null` when the choice is cleared (widget/README.md, "Events"). */
  select(detail: { cep: string; rate: Rate | null }): void;
  error(detail: { code: string; message: string }): void;
}

export interface CalculatorModelOptions {
  client: QuoteClient;
  events: CalculatorEvents;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  debounceMs?: number;
}

const CEP_KEY = 'shipping-calculator:cep';

/** Sorted by price, then deadline. */
export function sortRates(rates: readonly Rate[]): Rate[] {
  return [...rates].sort((a, b) => a.price - b.price || a.deliveryDays - b.deliveryDays);
}

/**
 * Keeps the digits and masks them as 00000-000 while the shopper types. Whatever surrounds them (a pasted
 * " 01310-100", "01.310-100", "CEP 01310100") is dropped before the 8-digit rule, so nothing is cut short.
 */
export function maskCep(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/** What a quote's outcome shows, what the page hears (`shipping-error`) and what the console warns. */
export interface OutcomeView {
  view: View;
  error?: { code: string; message: string };
  /** Arguments of one `console.warn`, for the store's developer (never on the shopper's screen). */
  warn?: unknown[];
}

/** The quote outcome → view mapping, pure: the model applies it (signals, events, storage). */
export function viewOf(outcome: QuoteOutcome): OutcomeView {
  switch (outcome.kind) {
    case 'rates': {
      const { rates, reason, actionUrl } = outcome.response;
      if (rates.length > 0) return { view: { kind: 'rates', rates: sortRates(rates) } };
      // spec 4.1 rule 1: the reason and actionUrl are for the merchant, never on the shopper's screen.
      return {
        view: { kind: 'no-quote', reason: noQuoteReason(reason) },
        ...(reason && reason !== 'no_coverage'
          ? { warn: [`shipping-calculator: no quote (${reason})`, actionUrl ?? ''] }
          : {}),
      };
    }
    case 'invalid_cep':
      return { view: { kind: 'idle' } };
    case 'unavailable':
      return {
        view: { kind: 'unavailable' },
        error: { code: outcome.code, message: 'unavailable' },
        warn: [
          `shipping-calculator: the platform refused the quote (${outcome.code}); check the public key and the store's plan`,
        ],
      };
    case 'busy': {
      const view: View = outcome.code === 'rate_limited' ? { kind: 'busy' } : { kind: 'carrier' };
      return { view, error: { code: outcome.code, message: view.kind } };
    }
    case 'network':
      return { view: { kind: 'network' }, error: { code: 'network', message: 'network' } };
    case 'malformed':
      return {
        view: { kind: 'unavailable' },
        error: { code: 'malformed_response', message: 'malformed' },
        warn: ['shipping-calculator: the platform answered a response that does not match the contract'],
      };
  }
}

/** Why an empty list: no coverage, something the merchant must fix, or a reason we do not know (still no quote). */
function noQuoteReason(reason: string | undefined): 'no_coverage' | 'merchant' | 'unknown' {
  if (reason === 'no_coverage') return 'no_coverage';
  return reason && MERCHANT_SIDE_REASONS.includes(reason) ? 'merchant' : 'unknown';
}

/**
 * The calculator's state and actions: signals in, events out. After each answer the view changes first, then
 * `shipping-rates` or `shipping-error` is told, then `shipping-select` if the checkout's choice changed with it.
 *
 * The rule (widget/README.md, "Events"): the last `shipping-select` always equals `visibleChoice` — the option
 * the shopper sees checked, or `rate: null` when none is. So whatever hides the options clears the choice at once:
 * an emptied cart, a CEP edited into another (or a half-typed) one, a failed quote. A re-quote of the same CEP (a
 * cart change, Calcular again) keeps the options and their choice on screen until the answer reconciles them.
 */
export function createCalculatorModel(options: CalculatorModelOptions) {
  const { client, events, storage, debounceMs = 300 } = options;
  const cep = signal('');
  const items = signal<QuoteItem[]>([]);
  const view = signal<View>({ kind: 'idle' });
  const fieldError = signal<'invalid' | 'unknown' | undefined>(undefined);
  const selected = signal<string | undefined>(undefined);
  /** A quote is due (a cart change waiting for its debounce) or in flight. */
  const pending = signal(false);
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let warnedEmpty = false;
  /** The items are the lightest variant, for a from-price (`variants`), not the shopper's cart. */
  let fromPrice = false;
  /** The CEP and items of the quote on screen (or in flight): what the options, the hint and a choice refer to. */
  const quotedCep = signal('');
  const quotedItems = signal<QuoteItem[]>([]);
  /** What the last `shipping-select` told the checkout: the screen and the events never disagree. */
  let told: Choice | undefined;

  function tell(cep: string, rate: Rate | null): void {
    told = rate ? { cep, rate } : undefined;
    events.select({ cep, rate });
  }

  /** The chosen option is gone from the screen: the checkout hears `rate: null` at once. */
  function clearChoice(): void {
    const had = told;
    selected.value = undefined;
    if (had) tell(had.cep, null);
  }

  /** Whatever is due or in flight is dropped: its answer would be for a cart or a CEP no longer on screen. */
  function cancel(): void {
    clearTimeout(timer);
    controller?.abort();
    controller = undefined;
    pending.value = false;
  }

  /**
   * A new list for `cep`: the chosen service keeps its place if it is still offered, and the checkout hears its new
   * price or deadline (or CEP); a service no longer offered clears the choice.
   */
  function reconcile(cep: string, rates: readonly Rate[]): void {
    if (!told) return;
    const now = rates.find((rate) => rate.serviceId === told?.rate.serviceId);
    if (!now) {
      clearChoice();
      return;
    }
    if (!sameChoice(told, cep, now)) tell(cep, now);
  }

  /** No items to quote: say so (on screen and, once, to the store's developer) and drop what was shown. */
  function showEmpty(): void {
    cancel();
    batch(() => {
      fieldError.value = undefined;
      view.value = { kind: 'empty' };
    });
    clearChoice();
  }

  /** Quotes the CEP in the field for the cart ("Calcular", Enter, a cart change after its debounce). */
  async function quote(): Promise<void> {
    clearTimeout(timer);
    const digits = normalizeCep(cep.value);
    if (!digits) {
      fieldError.value = 'invalid';
      return;
    }
    if (items.value.length === 0) {
      if (!warnedEmpty)
        console.warn(
          'shipping-calculator: nothing to quote, the cart is empty; give the items (1 to 50 lines) with .items or the items attribute',
        );
      warnedEmpty = true;
      showEmpty();
      return;
    }
    controller?.abort();
    const current = new AbortController();
    controller = current;
    // The options stay on screen (and their choice held) only while they are for this very CEP.
    const keep = view.value.kind === 'rates' && quotedCep.value === digits;
    batch(() => {
      quotedCep.value = digits;
      quotedItems.value = items.value;
      fieldError.value = undefined;
      pending.value = true;
      if (!keep) view.value = { kind: 'loading' };
    });
    if (!keep) clearChoice();
    const asFrom = fromPrice;
    let outcome: QuoteOutcome;
    try {
      outcome = await client.quote({ destinationCep: digits, items: items.value }, current.signal);
    } catch {
      return; // replaced by a newer quote, or cancelled
    }
    if (controller !== current) return;
    controller = undefined;
    const next = viewOf(outcome);
    // sorted by price: the first is the cheapest, as the rules charge it
    const from = asFrom && next.view.kind === 'rates' ? next.view.rates[0] : undefined;
    if (from) next.view = { kind: 'from', rate: from };
    if (next.warn) console.warn(...next.warn);
    if (outcome.kind === 'rates')
      try {
        storage?.setItem(CEP_KEY, digits);
      } catch {
        // private mode or a full quota: remembering the CEP is a convenience
      }
    batch(() => {
      if (outcome.kind === 'invalid_cep') fieldError.value = 'unknown';
      pending.value = false;
      view.value = next.view;
    });
    // The view changed first; then the page hears the answer, then the choice that went with it.
    // A from-price (or its "no quote") is not the cart's quote: the checkout hears nothing of it.
    if (asFrom && outcome.kind === 'rates') return;
    if (outcome.kind === 'rates') {
      const { rates, reason } = outcome.response;
      events.rates({ cep: digits, rates, ...(reason ? { reason } : {}) });
      if (rates.length > 0) reconcile(digits, rates);
      else clearChoice();
      return;
    }
    if (next.error) events.error(next.error);
    clearChoice();
  }

  return {
    cep,
    items,
    view,
    fieldError,
    selected,
    pending,
    quotedCep,
    quotedItems,
    quote,
    /** Fills the field with the last CEP the shopper quoted (read after the first paint: storage is slow to open). */
    restoreCep(): void {
      try {
        const remembered = storage?.getItem(CEP_KEY);
        if (remembered && !cep.value) cep.value = maskCep(remembered);
      } catch {
        // storage refused (private mode): nothing remembered
      }
    },
    /**
     * The shopper typed (or pasted) in the field. Once it no longer holds the CEP of what is on screen (another CEP,
     * or one half-typed), the old options and messages go, the choice is cleared and a quote in flight is dropped.
     */
    setCep(value: string): void {
      cep.value = maskCep(value);
      if (fieldError.value) fieldError.value = undefined;
      const shown = view.value.kind !== 'idle' && view.value.kind !== 'empty';
      if (!shown || normalizeCep(cep.value) === quotedCep.value) return;
      cancel();
      view.value = { kind: 'idle' };
      clearChoice();
    },
    /**
     * New cart items. `[]` is an empty cart: the options go and the choice is cleared at once. Otherwise, with a CEP
     * in the field, quote again (debounced); until the answer, the options on screen keep their price and choice.
     * `from`: the items are the lightest variant, quoted for "a partir de R$ X" (no options, no events).
     */
    setItems(next: QuoteItem[], from = false): void {
      items.value = next;
      fromPrice = from;
      if (next.length === 0) {
        showEmpty();
        return;
      }
      if (view.value.kind === 'empty') view.value = { kind: 'idle' };
      if (!normalizeCep(cep.value)) return;
      // A quote in flight is for the cart before this one: its answer must not land as if current.
      cancel();
      pending.value = true;
      timer = setTimeout(() => void quote(), debounceMs);
    },
    /** The shopper picked an option of the list on screen (picking it again tells nothing new). */
    select(rate: Rate): void {
      selected.value = rate.serviceId;
      if (!told || !sameChoice(told, quotedCep.value, rate)) tell(quotedCep.value, rate);
    },
    dispose(): void {
      cancel();
    },
  };
}

export type CalculatorModel = ReturnType<typeof createCalculatorModel>;

/** Whether the checkout, holding `told`, would see nothing new in `rate` for `cep` (the fields a checkout shows). */
function sameChoice(told: Choice, cep: string, rate: Rate): boolean {
  const before = told.rate;
  return (
    told.cep === cep &&
    rate.serviceId === before.serviceId &&
    rate.price === before.price &&
    rate.deliveryDays === before.deliveryDays &&
    rate.free === before.free &&
    rate.label === before.label
  );
}
