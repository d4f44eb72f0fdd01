import { describeDesk, SQLITE } from './support/desk-suite.ts';

// axe on every desk page and state, light and dark, at 375 px (desktop width: desk-a11y.test.ts).
describeDesk(SQLITE, { flows: false, sweep: ['375'] });
