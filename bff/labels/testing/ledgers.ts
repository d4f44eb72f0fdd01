import { PostgresSql } from '../../../shared/sql/postgres.ts';
import { SqliteSql } from '../../../shared/sql/sqlite.ts';
import { LedgerStore, type LedgerStoreOptions } from '../ledger-store.ts';

/** A ledger a test owns, with its database: `close()` closes both. */
export type TestLedger = LedgerStore & { close(): Promise<void> };

/** The ledger on node:sqlite: `labels.sqlite` in `dataDir`, or in memory (`':memory:'`, gone when closed). */
export function sqliteLedger(options: LedgerStoreOptions & { dataDir: string }): TestLedger {
  const sql = new SqliteSql({ dataDir: options.dataDir, file: 'labels.sqlite' });
  return Object.assign(new LedgerStore(sql, options), { close: () => sql.close() });
}

/** The ledger on the PostgreSQL at `url` (its own pool, as another instance would have). */
export function postgresLedger(options: LedgerStoreOptions & { url: string }): TestLedger {
  const sql = new PostgresSql(options.url);
  return Object.assign(new LedgerStore(sql, options), { close: () => sql.close() });
}
