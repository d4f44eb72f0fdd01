import { afterAll, beforeAll } from 'vitest';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { describeTransitHistory } from './testing/history-contract.ts';

// The same contract as node:sqlite (history-store.test.ts), in a file of its own: PostgreSQL takes seconds to start.
let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.close();
});

describeTransitHistory('PostgreSQL', async () => {
  const url = await postgres.createDatabase(`transits_${++databases}`);
  return [new PostgresSql(url), new PostgresSql(url)];
});
