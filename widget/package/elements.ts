/**
 * The public surface of `<shipping-calculator>` and `<shipping-tracking>` as types: what a storefront sets (attributes
 * and properties) and hears (events and their `detail`). Self-contained, since it is published as `dist/elements.d.ts`;
 * `elements.check.ts` holds it equal to the shared schemas and to what the calculator emits, so it cannot drift.
 * The framework declarations (`react.d.ts`, `preact.d.ts`, `vue.d.ts`, `svelte.d.ts`) are built on it; the names in
 * `custom-elements.ts` (the manifest) are held to it.
 */

/** One line of the cart, as the store gives it (the platform's interface, section 2.1). Up to 50 lines. */
export interface CartItem {
  name: string;
  /** Whole units, at least 1. */
  quantity: number;
  /** The price of one unit in BRL, e.g. `79.9`. */
  unitPriceBRL: number;
  /** The weight of one unit in kg; `0.3` when left out. */
  weightKg?: number | undefined;
}

/** A shipping option as the platform answers it (section 2.2). The platform may add fields. */
export interface ShippingRate {
  [field: string]: unknown;
  code: string;
  serviceId: string;
  label: string;
  /** In BRL. `0` is free only when `free` is `true`. */
  price: number;
  free?: boolean | undefined;
  /** The carrier's business days. */
  deliveryDays: number;
}

/** `shipping-rates`: every answer of the platform, `rates: []` (with its `reason`) when it has no quote. */
export interface ShippingRatesDetail {
  cep: string;
  rates: ShippingRate[];
  /** Why there is no quote (`no_coverage`, …): never free shipping. */
  reason?: string;
}

/**
 * `shipping-select`: the option the shopper sees chosen; again when a re-quote changes it; `rate: null` when the
 * choice is cleared. The checkout's last `shipping-select` always equals what is on screen.
 */
export interface ShippingSelectDetail {
  cep: string;
  rate: ShippingRate | null;
}

/**
 * `shipping-error`: the quote failed. `code` is the platform's error code (`rate_limited`, `quote_failed`,
 * `subscription_required`, …), `network`, `malformed_response`, or `widget_unavailable` when the calculator's second
 * script could not be loaded; `message` the screen state: `network`, `busy`, `carrier`, `unavailable` or `malformed`.
 */
export interface ShippingErrorDetail {
  code: string;
  message: string;
}

/** The events of `<shipping-calculator>`: they bubble and cross shadow roots (`composed`). */
export interface ShippingCalculatorEventMap {
  'shipping-rates': CustomEvent<ShippingRatesDetail>;
  'shipping-select': CustomEvent<ShippingSelectDetail>;
  'shipping-error': CustomEvent<ShippingErrorDetail>;
}

/** The languages of the widgets' words. */
export type ShippingLanguage = 'pt-BR' | 'en' | 'es';

/** `<shipping-calculator>`'s attributes (each also read from the loading script's `data-*`, except the cart). */
export interface ShippingCalculatorAttributes {
  /** The cart as JSON text; or set the `items` property to an array. `[]` is an empty cart. */
  items?: string;
  /** The same as `items`. */
  'data-items'?: string;
  /**
   * A product page before a variant is chosen: the variants as JSON, `[{name, unitPriceBRL, weightKg}]` (cart lines
   * without the quantity). Until the store gives `items`, the element quotes one unit of the lightest and says
   * "Frete a partir de R$ X" (no options to choose, no `shipping-rates` or `shipping-select`). Read when the
   * calculator starts.
   */
  variants?: string;
  /** The platform's base URL; overrides the script's `data-api-url`. Read when the calculator starts. */
  'api-url'?: string;
  /** The store's public key, `pk_…`; overrides the script's `data-public-key`. Read when the calculator starts. */
  'public-key'?: string;
  lang?: ShippingLanguage;
  /** `"false"` turns off remembering the last CEP in localStorage. */
  'remember-cep'?: 'true' | 'false';
  /** Business days the store takes to post an order (`0`–`60`), added before the carrier's days. */
  'handling-days'?: number | `${number}`;
  /** The hour, São Paulo time, from which an order is posted the next business day: `14`, `"14h"`, `"14:30"`. */
  cutoff?: number | string;
  /** The cart subtotal in BRL from which the store offers free shipping: shows how much is missing. A hint only. */
  'free-shipping-from'?: number | `${number}`;
  /**
   * The store's BFF `POST /api/promises` (e.g. `https://your-bff.example/api/promises`): each option then shows the
   * date the store keeps, learnt from its own parcels (docs/promise.md), instead of the platform's count.
   */
  'promises-url'?: string;
  /**
   * The store's BFF `GET /api/shipping-rules` (e.g. `https://your-bff.example/api/shipping-rules`): the merchant's
   * shipping rules, charged to each option as every checkout charges them (docs/shipping-rules.md).
   */
  'rules-url'?: string;
  /** Overrides the shopper's `prefers-color-scheme`. */
  'data-theme'?: 'light' | 'dark';
}

/** `<shipping-calculator>`'s properties. */
export interface ShippingCalculatorProperties {
  /** The cart: an array (`[]` empties it) or the same JSON text as the attribute. Reads back as the array in use. */
  items: readonly CartItem[] | string;
}

/** The `<shipping-calculator>` element. */
export interface ShippingCalculatorElement extends HTMLElement {
  get items(): CartItem[];
  set items(value: ShippingCalculatorProperties['items']);
  addEventListener<K extends keyof ShippingCalculatorEventMap>(
    type: K,
    listener: (this: ShippingCalculatorElement, event: ShippingCalculatorEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof ShippingCalculatorEventMap>(
    type: K,
    listener: (this: ShippingCalculatorElement, event: ShippingCalculatorEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** `<shipping-tracking>`'s attributes. It fires no events. */
export interface ShippingTrackingAttributes {
  /** The BFF's URL; overrides the script's `data-bff-url`; default the page's origin. */
  'bff-url'?: string;
  /** Codes to look up at once (comma or space separated); default the page's `?codes=`. */
  codes?: string;
  lang?: ShippingLanguage;
  /** Overrides the shopper's `prefers-color-scheme`. */
  'data-theme'?: 'light' | 'dark';
}

/** The `<shipping-tracking>` element: no properties or events of its own. */
export type ShippingTrackingElement = HTMLElement;

/** Event props as React 19, Preact and Svelte 5 take them on custom elements: `onshipping-select={…}`. */
export type ShippingCalculatorEventProps = {
  [K in keyof ShippingCalculatorEventMap as `on${K}`]?: (event: ShippingCalculatorEventMap[K]) => void;
};

/**
 * `<shipping-calculator>`'s props in a JSX or template whose attributes for an element are `Base` (React's, Preact's,
 * Svelte's `HTMLAttributes`): theirs narrowed by ours (`lang`), the cart as a property, the events as `on<event>`.
 */
export type ShippingCalculatorProps<Base> = Base &
  Omit<ShippingCalculatorAttributes, 'items'> &
  Partial<ShippingCalculatorProperties> &
  ShippingCalculatorEventProps;

/** `<shipping-tracking>`'s props over a framework's `Base` attributes. */
export type ShippingTrackingProps<Base> = Base & ShippingTrackingAttributes;
