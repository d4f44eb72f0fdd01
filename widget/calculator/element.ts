import type { QuoteItem } from '../../shared/quote.ts';
import { adoptStyles, uid } from '../common/settings.ts';
import type { CalculatorController } from './app.tsx';
import { loadApp, locateApp, type MountCalculator } from './loader.ts';
import { messagesFor } from './messages.ts';
import { formHtml } from './skeleton.ts';
import { CALCULATOR_CSS } from './styles.ts';

/**
 * `<shipping-calculator>`: quotes the platform's `POST /v1/rates` from the shopper's browser with the public key.
 * Settings come from the loading script's `data-api-url` / `data-public-key` (given to `define`), overridden by
 * `api-url` / `public-key` attributes on the element. `data-theme="light" | "dark"` is read by its styles alone.
 *
 * This first script holds only what the first paint needs: the form as plain HTML, its styles and words. The
 * calculator itself (Preact, the model, the platform client, the validators) is the second script, loaded after
 * that paint (loader.ts); it takes over the very nodes painted, with what was typed, and a press of Enter or
 * "Calcular" made before it came is quoted when it starts.
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
  private controller: CalculatorController | undefined;
  /** The cart as last given to a calculator since stopped: given again to the next one. */
  private itemsValue: QuoteItem[] | undefined;
  /** Items given before the calculator started: read after the first paint, which they must not delay. */
  private pending: { value: unknown } | undefined;
  /** Enter or "Calcular" in the plain form before the calculator started: it quotes once started. */
  private submitted = false;
  private readonly root: ShadowRoot;
  private readonly elementId = uid('sc');
  /** The start waiting for the first paint and the second script, dropped if the element is removed meanwhile. */
  private waiting: object | undefined;
  /** The second script did not come (the form says so); the next press of Enter or "Calcular" tries again. */
  private failed = false;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    adoptStyles(this.root, CALCULATOR_CSS);
    // Enter in the plain first-paint form must not submit it as a page navigation: it is answered once the
    // calculator started, and the button says so now.
    this.root.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.controller) {
        this.controller.quote();
        return;
      }
      this.submitted = true;
      this.showBusy(true);
      // after the second script failed to come, a press tries again
      if (this.failed && this.isConnected) this.load();
    });
  }

  get items(): QuoteItem[] {
    return this.controller?.items() ?? this.itemsValue ?? [];
  }

  /** The cart from a script: an array (`[]` empties it), or the same JSON text as the attribute. */
  set items(value: unknown) {
    if (this.controller) this.controller.setItems(value);
    else this.pending = { value };
  }

  connectedCallback(): void {
    // A store may have set .items before this element was defined: take that value through the setter.
    if (Object.hasOwn(this, 'items')) {
      const early = (this as { items?: unknown }).items;
      delete (this as { items?: unknown }).items;
      this.items = early;
    }
    // The first paint is the form as plain HTML (again after a calculator stopped: it empties the root).
    if (!this.root.firstChild) {
      const { t, locale } = messagesFor(this.language());
      this.root.innerHTML = formHtml(t, locale, this.elementId);
    }
    const connection = {};
    this.waiting = connection;
    requestAnimationFrame(() => setTimeout(() => this.waiting === connection && this.load(), 0));
  }

  /** Loads the second script, then starts; dropped if the element is removed meanwhile. */
  private load(): void {
    const waiting = {};
    this.waiting = waiting;
    loadApp().then(
      (mount) => this.waiting === waiting && this.start(mount),
      (error: unknown) => this.waiting === waiting && this.unavailable(error),
    );
  }

  disconnectedCallback(): void {
    this.waiting = undefined;
    this.itemsValue = this.controller?.items() ?? this.itemsValue;
    this.controller?.dispose();
    this.controller = undefined;
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name !== 'items' && name !== 'data-items') this.controller?.render();
    else if (value !== null) this.items = value;
  }

  /** The calculator over the plain form; then the cart (quoted at once when a CEP is there) and any early submit. */
  private start(mount: MountCalculator): void {
    this.waiting = undefined;
    this.failed = false;
    const controller = mount({
      root: this.root,
      id: this.elementId,
      setting: (name) =>
        this.getAttribute(name) ??
        ShippingCalculator.settings[name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())] ??
        null,
      messages: () => messagesFor(this.language()),
      busy: (busy) => this.showBusy(busy),
      emit: (type, detail) => this.emit(type, detail),
    });
    this.controller = controller;
    const pending = this.pending;
    this.pending = undefined;
    if (pending) controller.setItems(pending.value);
    else if (this.itemsValue) controller.setItems(this.itemsValue);
    if (this.submitted) controller.quote();
    this.submitted = false;
  }

  /** The form's button: "Calculando…" while a quote is due or in flight, or an early submit waits for the calculator. */
  private showBusy(busy: boolean): void {
    const button = this.root.querySelector('button');
    button?.setAttribute('aria-busy', String(busy));
    const [idle, loading] = button?.querySelectorAll('span') ?? [];
    idle?.classList.toggle('hidden', busy);
    loading?.classList.toggle('hidden', !busy);
  }

  /** The second script did not come: the form says so, the page hears `shipping-error`, the developer why. */
  private unavailable(error: unknown): void {
    this.failed = true;
    this.submitted = false;
    this.showBusy(false);
    console.error(`shipping-calculator: ${(error as Error).message}`);
    const message = this.root.querySelector('[part="error"]');
    if (message) {
      message.textContent = messagesFor(this.language()).t.unavailable;
      message.setAttribute('role', 'alert');
    }
    this.emit('shipping-error', { code: 'widget_unavailable', message: 'unavailable' });
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  private language(): string | undefined {
    return this.getAttribute('lang') ?? ShippingCalculator.settings.lang;
  }
}

/**
 * Registers `<shipping-calculator>` with the loading script's settings, `src` and nonce (once: a second script tag
 * changes nothing).
 */
export function define(script: HTMLScriptElement | null): void {
  if (customElements.get('shipping-calculator')) return;
  ShippingCalculator.settings = script?.dataset ?? {};
  locateApp(script);
  customElements.define('shipping-calculator', ShippingCalculator);
}
