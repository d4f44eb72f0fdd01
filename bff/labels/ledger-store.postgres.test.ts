import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { postgresLedger } from './testing/ledgers.ts';
import { describeLedgerStore } from './testing/store-contract.ts';

// The same contract as node:sqlite (ledger-store.test.ts), in a file of its own: starting PostgreSQL takes seconds,
// which a test of the node:sqlite ledger should not pay.
let postgres: PostgresServer;
let url: string;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase('ledger_contract');
});
afterAll(async () => {
  await postgres?.close();
});

describeLedgerStore('PostgreSQL (two pools, as two instances)', async (now, keyWindowMs) => {
  const a = postgresLedger({ url, now, keyWindowMs });
  const b = postgresLedger({ url, now, keyWindowMs });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});
