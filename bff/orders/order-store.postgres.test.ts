import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { describeOrderStore, postgresInstances } from './testing/order-store-contract.ts';

// The same contract as node:sqlite (order-store.test.ts), in a file of its own: starting PostgreSQL takes seconds.
let postgres: PostgresServer;
const urls: string[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  for (const name of ['orders_a', 'orders_b', 'orders_c', 'orders_d', 'orders_e'])
    urls.push(await postgres.createDatabase(name));
});
afterAll(async () => {
  await postgres?.close();
});

let next = 0;
describeOrderStore('PostgreSQL (two pools, as two instances)', () => postgresInstances(urls[next++] ?? ''));
