/**
 * The elements described in the Custom Elements Manifest format (schema 2.1.0: https://github.com/webcomponents/custom-elements-manifest),
 * written by `pack.ts` as `dist/custom-elements.json` (the package's `customElements` field) for editors, linters
 * and Storybook. The names here are held equal to `elements.ts`'s types by `elements.check.ts`, and to the parts and
 * custom properties the widgets' sources use by `package.test.ts`.
 */

interface Described {
  name: string;
  description: string;
}

interface Attribute extends Described {
  type: string;
  /** The property that mirrors it, if any. */
  fieldName?: string;
}

interface ElementDescription {
  tagName: string;
  className: string;
  /** The script that defines it, in the package. */
  script: string;
  description: string;
  attributes: readonly Attribute[];
  properties: readonly (Described & { type: string })[];
  events: readonly (Described & { type: string })[];
  cssParts: readonly string[];
  cssProperties: readonly string[];
}

const THEME = {
  name: 'data-theme',
  type: "'light' | 'dark'",
  description: "Overrides the shopper's prefers-color-scheme.",
} as const;
const LANG = {
  name: 'lang',
  type: "'pt-BR' | 'en' | 'es'",
  description: 'The language of its words (default pt-BR).',
} as const;
/** The parts both elements have: the container and its form (label, input, button, error). */
const FORM_PARTS = ['container', 'form', 'label', 'input', 'button', 'error'] as const;

const COLORS = [
  '--shipping-font',
  '--shipping-color-text',
  '--shipping-color-muted',
  '--shipping-color-background',
  '--shipping-color-border',
  '--shipping-color-accent',
  '--shipping-color-accent-text',
  '--shipping-color-focus',
  '--shipping-color-error',
  '--shipping-color-free',
  '--shipping-radius',
];

export const CALCULATOR = {
  tagName: 'shipping-calculator',
  className: 'ShippingCalculator',
  script: 'dist/scripts/shipping-widget.js',
  description:
    "Quotes the platform's POST /v1/rates from the shopper's browser with the store's public key, and shows each option with its price and delivery promise. An empty list is \"no quote\", never free shipping.",
  attributes: [
    {
      name: 'items',
      type: 'string',
      fieldName: 'items',
      description:
        'The cart as JSON: [{name, quantity, unitPriceBRL, weightKg?}], up to 50 lines; [] is an empty cart.',
    },
    { name: 'data-items', type: 'string', description: 'The same as items.' },
    {
      name: 'variants',
      type: 'string',
      description:
        'A product page before a variant is chosen: the variants as JSON, [{name, unitPriceBRL, weightKg}]. Until items is given, one unit of the lightest is quoted and shown as "Frete a partir de R$ X" (part from-price), under the same rules; nothing to choose, no event. Read when the calculator starts.',
    },
    {
      name: 'api-url',
      type: 'string',
      description:
        "The platform's base URL; overrides the script's data-api-url. Read when the calculator starts.",
    },
    {
      name: 'public-key',
      type: 'string',
      description:
        "The store's public key (pk_…); overrides the script's data-public-key. Read when the calculator starts.",
    },
    LANG,
    {
      name: 'remember-cep',
      type: "'true' | 'false'",
      description: '"false" turns off remembering the last CEP (localStorage).',
    },
    {
      name: 'handling-days',
      type: 'number',
      description: "Business days the store takes to post an order (0–60), added before the carrier's days.",
    },
    {
      name: 'cutoff',
      type: 'string',
      description:
        'The hour, São Paulo time, from which an order is posted the next business day: 14, 14h, 14:30.',
    },
    {
      name: 'free-shipping-from',
      type: 'number',
      description:
        'The cart subtotal in BRL from which the store offers free shipping: shows how much is missing.',
    },
    {
      name: 'promises-url',
      type: 'string',
      description:
        "The store's BFF POST /api/promises: each option shows the date the store keeps (learnt from its parcels) instead of the platform's count.",
    },
    {
      name: 'rules-url',
      type: 'string',
      description:
        "The store's BFF GET /api/shipping-rules: the merchant's shipping rules (free shipping, markups, fixed prices, extra days, hidden or renamed options), charged to each option as every checkout charges them.",
    },
    THEME,
  ],
  properties: [
    {
      name: 'items',
      type: 'CartItem[]',
      description: 'The cart: an array ([] empties it) or the same JSON text as the attribute.',
    },
  ],
  events: [
    {
      name: 'shipping-rates',
      type: 'CustomEvent<ShippingRatesDetail>',
      description: 'Every answer of the platform, rates: [] with its reason included: {cep, rates, reason?}.',
    },
    {
      name: 'shipping-select',
      type: 'CustomEvent<ShippingSelectDetail>',
      description:
        'The option the shopper sees chosen, {cep, rate}; again when a re-quote changes it; rate: null when the choice is cleared.',
    },
    {
      name: 'shipping-error',
      type: 'CustomEvent<ShippingErrorDetail>',
      description:
        'The quote failed: {code, message}, message being the screen state (network, busy, carrier, unavailable, malformed).',
    },
  ],
  cssParts: [
    ...FORM_PARTS,
    'cep-search',
    'results',
    'message',
    'retry',
    'progress',
    'from-price',
    'destination',
    'options',
    'option',
    'option-label',
    'option-days',
    'option-arrival',
    'option-price',
    'option-same',
  ],
  cssProperties: [...COLORS, '--shipping-font-size', '--shipping-results-min-height'],
} as const satisfies ElementDescription;

export const TRACKING = {
  tagName: 'shipping-tracking',
  className: 'ShippingTracking',
  script: 'dist/scripts/shipping-tracking.js',
  description:
    'Looks tracking codes up through the BFF (POST {bff-url}/api/tracking), or an order by its number and CEP, and says what each parcel does and what to do next.',
  attributes: [
    {
      name: 'bff-url',
      type: 'string',
      description: "The BFF's URL; overrides the script's data-bff-url; default the page's origin.",
    },
    { name: 'codes', type: 'string', description: "Codes to look up at once; default the page's ?codes=." },
    LANG,
    THEME,
  ],
  properties: [],
  events: [],
  cssParts: [
    ...FORM_PARTS,
    'results',
    'retry',
    'card',
    'badge',
    'headline',
    'next',
    'promise',
    'stale',
    'timeline',
    'details',
    'order-form',
    'order-input',
    'cep-input',
    'order-button',
    'order-heading',
  ],
  cssProperties: COLORS,
} as const satisfies ElementDescription;

/** The manifest of both elements. */
export function customElementsManifest(): object {
  return {
    schemaVersion: '2.1.0',
    readme: 'README.md',
    modules: [CALCULATOR, TRACKING].map((element: ElementDescription) => ({
      kind: 'javascript-module',
      path: element.script,
      declarations: [
        {
          kind: 'class',
          customElement: true,
          name: element.className,
          tagName: element.tagName,
          description: element.description,
          superclass: { name: 'HTMLElement' },
          attributes: element.attributes.map(({ type, ...rest }) => ({ ...rest, type: { text: type } })),
          members: element.properties.map(({ type, ...rest }) => ({
            kind: 'field',
            ...rest,
            type: { text: type },
          })),
          events: element.events.map(({ type, ...rest }) => ({ ...rest, type: { text: type } })),
          cssParts: element.cssParts.map((name) => ({ name })),
          cssProperties: element.cssProperties.map((name) => ({ name })),
        },
      ],
      exports: [
        {
          kind: 'custom-element-definition',
          name: element.tagName,
          declaration: { name: element.className, module: element.script },
        },
      ],
    })),
  };
}
