import { batch, signal } from '@preact/signals';
import { normalizeCep } from '../../shared/cep.ts';
import type { QuoteItem, Rate } from '../../shared/quote.ts';
import { MERCHANT_SIDE_REASONS } from '../../shared/reasons.ts';
import type { QuoteClient } from './quote-client.ts';

/** What the results area shows. */
export type View =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'rates'; rates: Rate[] }
  /** `rates: []` with a reason: no quote, never free shipping (spec 4.1 rule 1). */
  | { kind: 'no-quote'; reason: 'no_coverage' | 'merchant' | 'unknown' }
  | { kind: 'unavailable' }
  | { kind: 'busy' }
  | { kind: 'network' };

export interface CalculatorEvents {
  rates(detail: { cep: string; rates: Rate[]; reason?: string }): void;
  select(detail: { cep: string; rate: Rate }): void;
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

/** Keeps the digits and masks them as 00000-000 while the shopper types. */
export function maskCep(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/** The calculator's state and actions: signals in, events out. */
export function createCalculatorModel(options: CalculatorModelOptions) {
  const { client, events, storage, debounceMs = 300 } = options;
  const cep = signal('');
  const items = signal<QuoteItem[]>([]);
  const view = signal<View>({ kind: 'idle' });
  const fieldError = signal<'invalid' | 'unknown' | undefined>(undefined);
  const selected = signal<string | undefined>(undefined);
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let quotedCep: string | undefined;

  async function quote(): Promise<void> {
    clearTimeout(timer);
    const digits = normalizeCep(cep.value);
    if (!digits) {
      fieldError.value = 'invalid';
      return;
    }
    if (items.value.length === 0) return;
    controller?.abort();
    const current = new AbortController();
    controller = current;
    quotedCep = digits;
    batch(() => {
      fieldError.value = undefined;
      view.value = { kind: 'loading' };
    });
    let outcome: Awaited<ReturnType<QuoteClient['quote']>>;
    try {
      outcome = await client.quote({ destinationCep: digits, items: items.value }, current.signal);
    } catch {
      return; // replaced by a newer quote
    }
    if (controller !== current) return;
    switch (outcome.kind) {
      case 'rates': {
        const { rates, reason, actionUrl } = outcome.response;
        safeSet(storage, CEP_KEY, digits);
        if (rates.length === 0) {
          // spec 4.1 rule 1: the reason and actionUrl are for the merchant, never on the shopper's screen.
          if (reason && reason !== 'no_coverage')
            console.warn(`shipping-calculator: no quote (${reason})`, actionUrl ?? '');
          view.value = {
            kind: 'no-quote',
            reason:
              reason === 'no_coverage'
                ? 'no_coverage'
                : reason && MERCHANT_SIDE_REASONS.includes(reason)
                  ? 'merchant'
                  : 'unknown',
          };
        } else {
          batch(() => {
            view.value = { kind: 'rates', rates: sortRates(rates) };
            if (!rates.some((rate) => rate.serviceId === selected.value)) selected.value = undefined;
          });
        }
        events.rates({ cep: digits, rates, ...(reason ? { reason } : {}) });
        return;
      }
      case 'invalid_cep':
        batch(() => {
          fieldError.value = 'unknown';
          view.value = { kind: 'idle' };
        });
        return;
      case 'unavailable':
        console.warn(
          `shipping-calculator: the platform refused the quote (${outcome.code}); check the public key and the store's plan`,
        );
        view.value = { kind: 'unavailable' };
        events.error({ code: outcome.code, message: 'unavailable' });
        return;
      case 'busy':
        view.value = { kind: 'busy' };
        events.error({ code: outcome.code, message: 'busy' });
        return;
      case 'network':
        view.value = { kind: 'network' };
        events.error({ code: 'network', message: 'network' });
        return;
      case 'malformed':
        console.warn(
          'shipping-calculator: the platform answered a response that does not match the contract',
        );
        view.value = { kind: 'unavailable' };
        events.error({ code: 'malformed_response', message: 'malformed' });
        return;
    }
  }

  return {
    cep,
    items,
    view,
    fieldError,
    selected,
    quote,
    /** Fills the field with the last CEP the shopper quoted (read after the first paint: storage is slow to open). */
    restoreCep(): void {
      const remembered = safeGet(storage, CEP_KEY);
      if (remembered && !cep.value) cep.value = maskCep(remembered);
    },
    setCep(value: string): void {
      cep.value = maskCep(value);
      if (fieldError.value) fieldError.value = undefined;
    },
    /** New cart items: quote again (debounced) when a CEP is set. */
    setItems(next: QuoteItem[]): void {
      items.value = next;
      if (!normalizeCep(cep.value)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void quote(), debounceMs);
    },
    select(rate: Rate): void {
      selected.value = rate.serviceId;
      events.select({ cep: quotedCep ?? '', rate });
    },
    dispose(): void {
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

export type CalculatorModel = ReturnType<typeof createCalculatorModel>;

function safeGet(storage: CalculatorModelOptions['storage'], key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function safeSet(storage: CalculatorModelOptions['storage'], key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // private mode or a full quota: remembering the CEP is a convenience
  }
}
