import { describeDesk, SQLITE } from './support/desk-suite.ts';

// The label desk's flows on node:sqlite (issue, settle, approve, the agents' policy form). The same flows on
// PostgreSQL: desk-postgres.test.ts; the axe sweep: desk-a11y.test.ts (e2e/support/desk-suite.ts).
describeDesk(SQLITE, { flows: true, sweep: [] });
