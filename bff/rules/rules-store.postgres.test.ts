import { afterAll, beforeAll } from 'vitest';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { describeRulesStore } from './testing/store-contract.ts';

// The same contract as node:sqlite (rules-store.test.ts), in a file of its own: PostgreSQL takes seconds to start.
let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.close();
});

describeRulesStore('PostgreSQL', async () => {
  const url = await postgres.createDatabase(`rules_${++databases}`);
  return [new PostgresSql(url), new PostgresSql(url)];
});
