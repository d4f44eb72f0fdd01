import { afterAll, beforeAll } from 'vitest';
import { type PostgresDatabase, postgresDatabase } from '../../testing/servers.ts';
import { postgresLedger } from './testing/ledgers.ts';
import { describeLedgerStore } from './testing/store-contract.ts';

// The same contract as node:sqlite (ledger-store.test.ts), in a file of its own: starting PostgreSQL takes seconds,
// which a test of the node:sqlite ledger should not pay (nor, in a mutation run, each mutant: postgresDatabase).
let database: PostgresDatabase;
let url: string;
beforeAll(async () => {
  database = await postgresDatabase('ledger_contract');
  url = database.url;
});
afterAll(async () => {
  await database?.close();
});

describeLedgerStore('PostgreSQL (two pools, as two instances)', async (now, keyWindowMs) => {
  const a = postgresLedger({ url, now, keyWindowMs });
  const b = postgresLedger({ url, now, keyWindowMs });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});
