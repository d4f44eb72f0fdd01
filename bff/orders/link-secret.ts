import { randomBytes } from 'node:crypto';
import type { Migration } from '../../shared/sql/migrate.ts';
import type { Sql } from '../../shared/sql/sql.ts';

/** Secrets the BFF makes for itself, in the ledger's database, so every instance sharing it holds the same ones. */
export const SECRET_MIGRATIONS: readonly Migration[] = [
  {
    id: '311-bff-secrets',
    sql: 'CREATE TABLE bff_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at BIGINT NOT NULL)',
  },
];

/**
 * The HMAC key of signed tracking links: `BFF_LINK_SECRET` when set; otherwise 32 random bytes generated once and kept
 * in the ledger's database (`bff_secrets`: the node:sqlite file in `BFF_DATA_DIR`, or the PostgreSQL every instance
 * shares — the first instance to start writes it, every other one reads the same). Losing it (a new database) only
 * makes the links already sent stop working; the order number and CEP still find the order.
 */
export async function linkSecret(sql: Sql, configured: string | undefined): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await sql.run(
    `INSERT INTO bff_secrets (name, value, created_at) VALUES ('tracking-links', ?, ?) ON CONFLICT (name) DO NOTHING`,
    [randomBytes(32).toString('hex'), Date.now()],
  );
  const row = await sql.one(`SELECT value FROM bff_secrets WHERE name = 'tracking-links'`);
  if (!row) throw new Error('the tracking-link secret could not be stored');
  return Buffer.from(String(row.value), 'hex');
}
