import { describeDesk, POSTGRES } from './support/desk-suite.ts';

// The label desk's flows with the ledger, approvals and sessions on PostgreSQL (e2e/support/desk-suite.ts).
describeDesk(POSTGRES, { flows: true, sweep: [] });
