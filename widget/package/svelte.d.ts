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
  ShippingCalculatorElement,
  ShippingCalculatorProps,
  ShippingTrackingElement,
  ShippingTrackingProps,
} from './elements.js';

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'shipping-calculator': ShippingCalculatorProps<HTMLAttributes<ShippingCalculatorElement>>;
    'shipping-tracking': ShippingTrackingProps<HTMLAttributes<ShippingTrackingElement>>;
  }
}
