import { afterAll, beforeAll } from 'vitest';
import { createPool } from '../cluster/postgres.ts';
import { type PostgresServer, startPostgres } from '../cluster/test-servers.ts';
import { PostgresLedgerStore } from './postgres-store.ts';
import { describeLedgerStore } from './store-contract.ts';

// The same contract as node:sqlite (store-contract.test.ts), in a file of its own: starting PostgreSQL takes
// seconds, which a test of the node:sqlite store should not pay.
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
  const pools = [createPool(url), createPool(url)] as const;
  const [a, b] = await Promise.all(pools.map((pool) => PostgresLedgerStore.open({ pool, now, keyWindowMs })));
  return {
    a: a as PostgresLedgerStore,
    b: b as PostgresLedgerStore,
    close: async () => void (await Promise.all(pools.map((pool) => pool.end()))),
  };
});
