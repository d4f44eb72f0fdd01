import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createPool } from '../cluster/postgres.ts';
import { type PostgresServer, startPostgres } from '../cluster/test-servers.ts';
import { PostgresLedgerStore } from './postgres-store.ts';
import { SqliteLedgerStore } from './sqlite-store.ts';
import { describeLedgerStore } from './store-contract.ts';

describeLedgerStore('node:sqlite (two connections to one file)', async (now, keyWindowMs) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
  const a = new SqliteLedgerStore({ dataDir, now, keyWindowMs });
  const b = new SqliteLedgerStore({ dataDir, now, keyWindowMs });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});

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
