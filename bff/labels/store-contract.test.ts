import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteLedgerStore } from './sqlite-store.ts';
import { describeLedgerStore } from './store-contract.ts';

// PostgreSQL runs the same contract in postgres-store.test.ts.
describeLedgerStore('node:sqlite (two connections to one file)', async (now, keyWindowMs) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
  const a = new SqliteLedgerStore({ dataDir, now, keyWindowMs });
  const b = new SqliteLedgerStore({ dataDir, now, keyWindowMs });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});
