import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { describeOrderStoreBackfill } from './testing/order-store-backfill.ts';

// The same cases as node:sqlite (order-store-backfill.test.ts), each on a database of its own.
let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.close();
});

let next = 0;
describeOrderStoreBackfill('PostgreSQL', async () => ({
  BFF_DATABASE_URL: await postgres.createDatabase(`backfill_${next++}`),
}));
