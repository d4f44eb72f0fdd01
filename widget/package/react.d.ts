/**
 * `<shipping-calculator>` and `<shipping-tracking>` in React 19's JSX. React 19 sets a prop as a property when the
 * element has it (`items`, once defined: render after `loadShippingCalculator()` resolves) and listens to
 * `on<event>` props: `onshipping-select={(event) => event.detail.rate}`.
 *
 * @example
 * import type {} from '@frete-kit/widget/react';
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type {
  ShippingCalculatorElement,
  ShippingCalculatorProps,
  ShippingTrackingElement,
  ShippingTrackingProps,
} from './elements.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'shipping-calculator': ShippingCalculatorProps<
        DetailedHTMLProps<HTMLAttributes<ShippingCalculatorElement>, ShippingCalculatorElement>
      >;
      'shipping-tracking': ShippingTrackingProps<
        DetailedHTMLProps<HTMLAttributes<ShippingTrackingElement>, ShippingTrackingElement>
      >;
    }
  }
}
