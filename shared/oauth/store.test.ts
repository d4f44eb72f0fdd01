import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSql } from '../sql/sqlite.ts';
import { OAuthStore } from './store.ts';
import { describeOAuthStore, pair } from './testing/store-contract.ts';

// The same contract on PostgreSQL is in store.postgres.test.ts, so a node:sqlite run does not wait for it to start.
describeOAuthStore('node:sqlite in memory (the sandbox)', async () => {
  const sql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  const store = new OAuthStore(sql);
  return { a: store, b: store, close: () => sql.close() };
});

describeOAuthStore('node:sqlite (two connections to one file)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'oauth-contract-'));
  return pair(() => new SqliteSql({ dataDir, file: 'oauth.sqlite' }));
});
