/**
 * `<shipping-calculator>` and `<shipping-tracking>` in Vue 3 templates, checked by vue-tsc (Vue's recommended typing
 * of custom elements not built with Vue: `$props` for attributes and properties, `$emit` for events). Vue sets a
 * binding as a property when the element has it (`:items="cart"`) and listens with `@shipping-select`. Tell Vue's
 * compiler they are custom elements: `compilerOptions.isCustomElement: (tag) => tag.startsWith('shipping-')`.
 *
 * @example
 * import type {} from '@frete-kit/widget/vue';
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type {
  ShippingCalculatorAttributes,
  ShippingCalculatorElement,
  ShippingCalculatorEventMap,
  ShippingCalculatorProperties,
  ShippingTrackingAttributes,
  ShippingTrackingElement,
} from './elements.js';

/** `api-url` → `apiUrl`: vue-tsc checks a template's attributes by their camelCase names, as Vue's props. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;
type Camelized<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

/** An element as Vue's template checker sees a component: `$props` and `$emit` exist for types only. */
type VueCustomElement<Element extends HTMLElement, Props, Events> = new () => Element & {
  /** @deprecated For template type checking only: not on the element. */
  $props: Omit<HTMLAttributes, keyof Camelized<Props>> &
    Camelized<Props> & { [data: `data${string}`]: unknown } & PublicProps;
  /** @deprecated For template type checking only: not on the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'shipping-calculator': VueCustomElement<
      ShippingCalculatorElement,
      Omit<ShippingCalculatorAttributes, 'items'> & Partial<ShippingCalculatorProperties>,
      ShippingCalculatorEventMap
    >;
    'shipping-tracking': VueCustomElement<
      ShippingTrackingElement,
      ShippingTrackingAttributes,
      Record<never, never>
    >;
  }
}
