import { describeDesk, SQLITE } from './support/desk-suite.ts';

// axe on every desk page and state, light and dark, at desktop width (375 px: desk-a11y-phone.test.ts).
describeDesk(SQLITE, { flows: false, sweep: ['desktop'] });
