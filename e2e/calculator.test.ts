import { describeCalculator } from './support/calculator-suite.ts';

// <shipping-calculator> on a product page, and its second script (e2e/support/calculator-suite.ts).
describeCalculator('page');
