import { describeCalculator } from './support/calculator-suite.ts';

// <shipping-calculator> on a cart page, what the checkout holds, and the README pictures (e2e/support/calculator-suite.ts).
describeCalculator('cart');
