import { effect } from '@preact/signals-core';
import { render } from 'preact';
import { parseCutoff } from '../../shared/business-days.ts';
import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { announce, type CalculatorPrefs, Results } from './Calculator.tsx';
import type { CalculatorMessages } from './messages.ts';
import { createCalculatorModel } from './model.ts';
import { createPromises } from './promises.ts';
import { createQuoteClient } from './quote-client.ts';
import { chargingClient } from './rules-client.ts';
import { parseItems } from './validation.ts';

/** What `<shipping-calculator>` (element.ts, in the first script) gives the calculator it starts. */
export interface CalculatorHost {
  /** The element's shadow root, holding the plain form of its first paint. */
  root: ShadowRoot;
  /** The id prefix of the elements inside the root. */
  id: string;
  /** An attribute of the element, else the loading script's `data-*` setting of that name (camelCased). */
  setting(name: string): string | null;
  /** The words and locale of the element's language now. */
  messages(): { t: CalculatorMessages; locale: string };
  /** The form's button: "Calculando…" while a quote is due or in flight. */
  busy(busy: boolean): void;
  /** Dispatches a composed, bubbling `CustomEvent` from the element. */
  emit(type: string, detail: unknown): void;
}

/** The started calculator, as the element drives it. */
export interface CalculatorController {
  /** The cart as last given (undefined until the store gives one; `[]` is an empty cart). */
  items(): QuoteItem[] | undefined;
  /** The cart from a script or an attribute: an array (`[]` empties it), or the same JSON text. */
  setItems(value: unknown): void;
  /** Quotes the CEP in the field (Enter or "Calcular", including one pressed before the calculator started). */
  quote(): void;
  /** Renders again (a language or a preference attribute changed). */
  render(): void;
  /** Stops the calculator and empties the root. */
  dispose(): void;
}

/**
 * Starts the calculator over the plain form of the first paint: the model, then Preact over the form (keeping what
 * was typed in it), then the remembered CEP (storage is slow to open). The second script (`shipping-widget-app.<hash>.js`)
 * holds this and everything it needs; the element loads it after its first paint.
 */
export function mountCalculator(host: CalculatorHost): CalculatorController {
  const apiUrl = host.setting('api-url');
  const publicKey = host.setting('public-key');
  if (!apiUrl || !publicKey?.startsWith('pk_')) {
    console.warn(
      'shipping-calculator: set data-api-url and a public key (pk_…) on the script tag or the element',
    );
  }
  const remember = host.setting('remember-cep') !== 'false';
  // The store's BFF, for the delivery promise it keeps on each rate (docs/promise.md); none: the browser's own date.
  const promisesUrl = host.setting('promises-url');
  const promises = promisesUrl ? createPromises(promisesUrl) : undefined;
  const model = createCalculatorModel({
    // The merchant's shipping rules (docs/shipping-rules.md), from the store's BFF; none: the platform's prices.
    client: chargingClient(
      createQuoteClient({ apiUrl: apiUrl ?? '', publicKey: publicKey ?? '' }),
      host.setting('rules-url'),
    ),
    storage: remember ? safeLocalStorage() : undefined,
    events: {
      rates: (detail) => {
        void promises?.ask(detail.cep, detail.rates);
        host.emit('shipping-rates', detail);
      },
      select: (detail) => host.emit('shipping-select', detail),
      error: (detail) => host.emit('shipping-error', detail),
    },
  });
  let items: QuoteItem[] | undefined;
  let stopRendering: (() => void) | undefined;
  // The form stays the plain HTML of the first paint (skeleton.ts): its few changing parts are set here rather than
  // described a second time for Preact, which renders the results alone. The element sends submits to `quote()`.
  const part = (name: string) => host.root.querySelector(`[part="${name}"]`) as HTMLElement;
  const input = part('input') as HTMLInputElement;
  const fieldError = part('error');
  const results = part('results');
  const live = host.root.querySelector('[role="status"]') as HTMLElement;
  input.addEventListener('input', () => model.setCep(input.value));

  /**
   * Renders inside an effect of @preact/signals-core: the signals the render reads are its dependencies, so a change
   * to any of them renders again (as the tracking element does; without @preact/signals' per-component bindings and
   * the preact/hooks they need, the calculator is ~2 KB gzip smaller).
   */
  function renderView(): void {
    const { t, locale } = host.messages();
    const prefs = prefsOf(host);
    // the form's words in the element's language now (the first paint's may be another's)
    part('container').lang = locale;
    part('label').textContent = t.cepLabel;
    part('cep-search').textContent = t.noCep;
    const [idle, busy] = part('button').children;
    if (idle && busy) [idle.textContent, busy.textContent] = [t.submit, t.loading];
    stopRendering?.();
    stopRendering = effect(() => {
      const error = model.fieldError.value;
      const view = model.view.value;
      const loading = model.pending.value;
      if (input.value !== model.cep.value) input.value = model.cep.value;
      input.ariaInvalid = String(!!error);
      setAttribute(input, 'aria-describedby', error && fieldError.id);
      setAttribute(fieldError, 'role', error && 'alert');
      fieldError.textContent = error === 'invalid' ? t.invalidCep : error ? t.unknownCep : '';
      host.busy(loading);
      results.ariaBusy = String(loading);
      live.textContent = announce(view, t, locale);
      render(
        <Results
          view={view}
          model={model}
          t={t}
          locale={locale}
          id={host.id}
          prefs={prefs}
          promises={promises}
        />,
        results,
      );
    });
  }

  const typed = input.value;
  if (typed) model.setCep(typed);
  renderView();
  model.restoreCep();
  // "A partir de" (widget/README.md): until the store gives the cart, the lightest variant's from-price.
  const lightest = lightestOf(host.setting('variants'));
  if (lightest) model.setItems([lightest], true);
  return {
    items: () => items,
    setItems(value) {
      let parsedJson = value;
      if (typeof value === 'string') {
        try {
          parsedJson = JSON.parse(value);
        } catch {
          console.warn('shipping-calculator: the items attribute is not valid JSON');
          return;
        }
      }
      const parsed = parseItems(parsedJson);
      if (!parsed) {
        console.warn(
          `shipping-calculator: items must be a list of at most ${MAX_ITEMS} objects {name, quantity, unitPriceBRL, weightKg?} ([] for an empty cart)`,
        );
        return;
      }
      items = parsed;
      model.setItems(parsed);
    },
    quote: () => void model.quote(),
    render: renderView,
    dispose() {
      model.dispose();
      stopRendering?.();
      stopRendering = undefined;
      host.root.replaceChildren();
    },
  };
}

/**
 * The lightest of the `variants` attribute's (JSON: `[{name, unitPriceBRL, weightKg}]`, as cart lines without the
 * quantity), one unit of it; none when the attribute is absent or cannot be read (warned).
 */
export function lightestOf(text: string | null): QuoteItem | undefined {
  if (text === null) return undefined;
  try {
    const variants = parseItems(
      (JSON.parse(text) as object[]).map((variant) => ({ ...variant, quantity: 1 })),
    );
    // a list it cannot take, or an empty one, throws here (reduce of []): warned below
    return (variants ?? []).reduce((lightest, variant) =>
      variant.weightKg < lightest.weightKg ? variant : lightest,
    );
  } catch {}
  console.warn(
    'shipping-calculator: variants must be a JSON list of 1 to 50 variants {name, unitPriceBRL, weightKg}',
  );
  return undefined;
}

/** Sets an attribute, or removes it for no value. */
function setAttribute(element: Element, name: string, value: string | undefined): void {
  if (value) element.setAttribute(name, value);
  else element.removeAttribute(name);
}

/** `handling-days`, `cutoff` and `free-shipping-from`, on the element or as `data-*` on the script. */
function prefsOf(host: CalculatorHost): CalculatorPrefs {
  const handlingText = host.setting('handling-days');
  const handling = Number(handlingText ?? 0);
  const cutoffText = host.setting('cutoff');
  const cutoffMinutes = parseCutoff(cutoffText);
  const freeText = host.setting('free-shipping-from');
  const freeFrom = freeText === null ? undefined : Number(freeText.replace(',', '.'));
  if (!Number.isInteger(handling) || handling < 0 || handling > 60)
    console.warn('shipping-calculator: handling-days must be a whole number of business days (0–60)');
  if (cutoffText !== null && cutoffMinutes === undefined)
    console.warn('shipping-calculator: cutoff must be an hour such as "14" or "14:30" (São Paulo time)');
  if (freeText !== null && !(freeFrom !== undefined && freeFrom > 0))
    console.warn(
      'shipping-calculator: free-shipping-from must be an amount in BRL such as "299" or "299.90"',
    );
  return {
    // the store said when it posts: the arrival date is a promise it can keep
    dated:
      (handlingText !== null && handlingText.trim() !== '' && handling >= 0 && handling <= 60) ||
      cutoffMinutes !== undefined,
    // a bad value is warned about and ignored (a fraction of a day is rounded up: a later date, never earlier)
    handlingDays: Number.isFinite(handling) && handling > 0 ? Math.min(Math.ceil(handling), 60) : 0,
    cutoffMinutes,
    freeFrom: freeFrom !== undefined && freeFrom > 0 ? freeFrom : undefined,
    now: Date.now,
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
