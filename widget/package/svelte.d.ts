/**
 * `<shipping-calculator>` and `<shipping-tracking>` in Svelte 5 templates. Svelte sets an attribute as a property
 * when the element has it (`items={cart}`) and listens to `on<event>` attributes:
 * `onshipping-select={(event) => event.detail.rate}`.
 *
 * @example
 * import type {} from '@frete-kit/widget/svelte';
 */
import type { HTMLAttributes } from 'svelte/elements';
import type {
  ShippingCalculatorAttributes,
  ShippingCalculatorElement,
  ShippingCalculatorEventProps,
  ShippingCalculatorProperties,
  ShippingTrackingAttributes,
  ShippingTrackingElement,
} from './elements.js';

type ShippingCalculatorProps = HTMLAttributes<ShippingCalculatorElement> &
  Omit<ShippingCalculatorAttributes, 'items'> &
  Partial<ShippingCalculatorProperties> &
  ShippingCalculatorEventProps;

type ShippingTrackingProps = HTMLAttributes<ShippingTrackingElement> & ShippingTrackingAttributes;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'shipping-calculator': ShippingCalculatorProps;
    'shipping-tracking': ShippingTrackingProps;
  }
}
