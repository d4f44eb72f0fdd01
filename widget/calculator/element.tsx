import { render } from 'preact';
import { parseCutoff } from '../../shared/business-days.ts';
import { MAX_ITEMS } from '../../shared/limits.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { adoptStyles, uid } from '../common/settings.ts';
import { Calculator, type CalculatorPrefs } from './Calculator.tsx';
import { messagesFor } from './messages.ts';
import { type CalculatorModel, createCalculatorModel } from './model.ts';
import { createQuoteClient } from './quote-client.ts';
import { formHtml } from './skeleton.ts';
import { CALCULATOR_CSS } from './styles.ts';
import { parseItems } from './validation.ts';

/**
 * `<shipping-calculator>`: quotes the platform's `POST /v1/rates` from the shopper's browser with the public key.
 * Settings come from the loading script's `data-api-url` / `data-public-key` (given to `define`), overridden by
 * `api-url` / `public-key` attributes on the element. `data-theme="light" | "dark"` is read by its styles alone.
 */
export class ShippingCalculator extends HTMLElement {
  /** The loading script's `data-*` settings, given once to `define`. */
  static settings: DOMStringMap = {};
  static observedAttributes = [
    'items',
    'data-items',
    'lang',
    'handling-days',
    'cutoff',
    'free-shipping-from',
  ];
  private model: CalculatorModel | undefined;
  /** The cart as last given (undefined until the store gives one; `[]` is an empty cart). */
  private itemsValue: QuoteItem[] | undefined;
  /** Items given before the element started: read after the first paint, which they must not delay. */
  private pending: { value: unknown } | undefined;
  private readonly root: ShadowRoot;
  private readonly elementId = uid('sc');
  /** Whether Preact renders the shadow root yet (the first paint is plain HTML: `formHtml`). */
  private rendered = false;
  /** The start waiting for the first paint, dropped if the element is removed meanwhile. */
  private waiting: object | undefined;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.root, CALCULATOR_CSS);
    // Enter in the plain first-paint form must not submit it as a page navigation.
    this.root.addEventListener('submit', (event) => event.preventDefault());
  }

  get items(): QuoteItem[] {
    return this.itemsValue ?? [];
  }

  /** The cart from a script: an array (`[]` empties it), or the same JSON text as the attribute. */
  set items(value: unknown) {
    if (!this.model) {
      this.pending = { value };
      return;
    }
    let parsedJson = value;
    if (typeof value === 'string') {
      try {
        parsedJson = JSON.parse(value);
      } catch {
        console.warn('shipping-calculator: the items attribute is not valid JSON');
        return;
      }
    }
    const items = parseItems(parsedJson);
    if (!items) {
      console.warn(
        `shipping-calculator: items must be a list of at most ${MAX_ITEMS} objects {name, quantity, unitPriceBRL, weightKg?} ([] for an empty cart)`,
      );
      return;
    }
    this.itemsValue = items;
    this.model.setItems(items);
  }

  connectedCallback(): void {
    // A store may have set .items before this element was defined: take that value through the setter.
    if (Object.hasOwn(this, 'items')) {
      const early = (this as { items?: unknown }).items;
      delete (this as { items?: unknown }).items;
      this.items = early;
    }
    if (this.rendered) {
      this.start();
      return;
    }
    // The first paint is the form as plain HTML; everything else waits for it.
    const { t, locale } = messagesFor(this.language());
    this.root.innerHTML = formHtml(t, locale, this.elementId);
    const waiting = {};
    this.waiting = waiting;
    afterPaint(() => {
      if (this.waiting === waiting) this.start();
    });
  }

  /**
   * The model, then Preact over the form (keeping what was typed in the plain one), the remembered CEP (storage is
   * slow to open), then the cart, quoted at once when a CEP is there.
   */
  private start(): void {
    this.waiting = undefined;
    const apiUrl = this.getAttribute('api-url') ?? ShippingCalculator.settings.apiUrl;
    const publicKey = this.getAttribute('public-key') ?? ShippingCalculator.settings.publicKey;
    if (!apiUrl || !publicKey?.startsWith('pk_')) {
      console.warn(
        'shipping-calculator: set data-api-url and a public key (pk_…) on the script tag or the element',
      );
    }
    const remember =
      (this.getAttribute('remember-cep') ?? ShippingCalculator.settings.rememberCep) !== 'false';
    const model = createCalculatorModel({
      client: createQuoteClient({ apiUrl: apiUrl ?? '', publicKey: publicKey ?? '' }),
      storage: remember ? safeLocalStorage() : undefined,
      events: {
        rates: (detail) => this.emit('shipping-rates', detail),
        select: (detail) => this.emit('shipping-select', detail),
        error: (detail) => this.emit('shipping-error', detail),
      },
    });
    this.model = model;
    const typed = this.rendered ? '' : (this.root.querySelector('input')?.value ?? '');
    if (typed) model.setCep(typed);
    this.rendered = true;
    this.renderView();
    model.restoreCep();
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.items = pending.value;
    else if (this.itemsValue) model.setItems(this.itemsValue);
  }

  disconnectedCallback(): void {
    this.waiting = undefined;
    this.model?.dispose();
    this.model = undefined;
    if (this.rendered) render(null, this.root);
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name !== 'items' && name !== 'data-items') {
      this.renderView();
      return;
    }
    if (value !== null) this.items = value;
  }

  private language(): string | undefined {
    return this.getAttribute('lang') ?? ShippingCalculator.settings.lang;
  }

  private renderView(): void {
    if (!this.model || !this.rendered) return;
    const { t, locale } = messagesFor(this.language());
    render(
      <Calculator model={this.model} t={t} locale={locale} id={this.elementId} prefs={this.prefs()} />,
      this.root,
    );
  }

  /** `handling-days`, `cutoff` and `free-shipping-from`, on the element or as `data-*` on the script. */
  private prefs(): CalculatorPrefs {
    const read = (name: string, data: string | undefined) => this.getAttribute(name) ?? data ?? null;
    const handlingText = read('handling-days', ShippingCalculator.settings.handlingDays);
    const handling = Number(handlingText ?? 0);
    const cutoffText = read('cutoff', ShippingCalculator.settings.cutoff);
    const cutoffMinutes = parseCutoff(cutoffText);
    const freeText = read('free-shipping-from', ShippingCalculator.settings.freeShippingFrom);
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

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

/** Registers `<shipping-calculator>` with the loading script's settings (once: a second script tag changes nothing). */
export function define(settings: DOMStringMap): void {
  if (customElements.get('shipping-calculator')) return;
  ShippingCalculator.settings = settings;
  customElements.define('shipping-calculator', ShippingCalculator);
}

/** Runs `fn` once the current frame has been painted. */
function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
