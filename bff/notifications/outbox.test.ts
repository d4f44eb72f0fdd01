import { describe, expect, it } from 'vitest';
import { migrate } from '../../shared/sql/migrate.ts';
import { OUTBOX_COLUMNS } from '../../shared/sql/outbox.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { LedgerStore } from '../labels/ledger-store.ts';
import { OrderStore } from '../orders/order-store.ts';
import { NOTIFICATION_MIGRATIONS } from './migrations.ts';

const COLUMNS = `SELECT name, type, "notnull", dflt_value FROM pragma_table_info(?)`;

/** `OUTBOX_COLUMNS` as node:sqlite describes them, read from a table made of them alone. */
async function outboxColumns() {
  const sql = new SqliteSql({ dataDir: ':memory:', file: '' });
  try {
    await sql.run(`CREATE TABLE shape (${OUTBOX_COLUMNS})`);
    return await sql.all(COLUMNS, ['shape']);
  } finally {
    await sql.close();
  }
}

// The two users of the one outbox (shared/sql/outbox.ts) keep their own tables; the claim and marks are written once
// for the columns they share.
describe.each([
  ['notification_deliveries', (sql: SqliteSql) => migrate(sql, NOTIFICATION_MIGRATIONS)],
  ['store_fulfillments', (sql: SqliteSql) => new OrderStore(sql).ready],
])('%s', (table, migrated) => {
  it('has every column of the one outbox, of the same type', async () => {
    const sql = new SqliteSql({ dataDir: ':memory:', file: '' });
    try {
      await new LedgerStore(sql).ready;
      await migrated(sql);
      const outbox = await outboxColumns();
      const columns = await sql.all(COLUMNS, [table]);
      expect(columns.filter((column) => outbox.some((o) => o.name === column.name))).toEqual(outbox);
    } finally {
      await sql.close();
    }
  });
});
