/** The event the second script dispatches on its own `<script>` element, with `mountCalculator` as its detail. */
export const APP_EVENT = 'shipping-calculator-app';
