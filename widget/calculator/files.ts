/** The calculator's second script, beside `shipping-widget.js` in `dist/widget/` (loaded by the first: loader.ts). */
export const CALCULATOR_APP_FILE = 'shipping-widget-app.js';

/** The event the second script dispatches on its own `<script>` element, with `mountCalculator` as its detail. */
export const APP_EVENT = 'shipping-calculator-app';
