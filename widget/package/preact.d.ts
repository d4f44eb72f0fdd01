/**
 * `<shipping-calculator>` and `<shipping-tracking>` in Preact's JSX. Preact sets a prop as a property when the element
 * has it (`items`) and listens to `on<event>` props: `onshipping-select={(event) => event.detail.rate}`.
 *
 * @example
 * import type {} from '@frete-kit/widget/preact';
 */
import type { HTMLAttributes } from 'preact';
import type {
  ShippingCalculatorElement,
  ShippingCalculatorProps,
  ShippingTrackingElement,
  ShippingTrackingProps,
} from './elements.js';

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'shipping-calculator': ShippingCalculatorProps<HTMLAttributes<ShippingCalculatorElement>>;
      'shipping-tracking': ShippingTrackingProps<HTMLAttributes<ShippingTrackingElement>>;
    }
  }
}
