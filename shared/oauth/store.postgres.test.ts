import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { PostgresSql } from '../sql/postgres.ts';
import { describeOAuthStore, pair } from './testing/store-contract.ts';

let postgres: PostgresServer;
let url: string;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase('oauth_contract');
});
afterAll(async () => {
  await postgres?.close();
});

describeOAuthStore('PostgreSQL (two pools, as two instances)', async () => pair(() => new PostgresSql(url)));
