import type pg from 'pg';
import type { OAuthStore } from '../../shared/oauth/store.ts';
import type { BffConfig } from '../config.ts';
import type { LedgerStore } from '../labels/ledger.ts';
import { PostgresLedgerStore } from '../labels/postgres-store.ts';
import { PostgresOAuthStore } from '../oauth/postgres-store.ts';
import { createPool } from './postgres.ts';

/** The BFF's durable storage when several instances share it: the label ledger and OAuth, in one PostgreSQL. */
export interface SharedStores {
  ledger: LedgerStore;
  oauth: OAuthStore;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Opens `BFF_DATABASE_URL`: one pool, the migrations of the ledger and of OAuth (idempotent, safe when instances start
 * together). Throws when PostgreSQL cannot be reached at start: the BFF does not start on a ledger it cannot write.
 */
export async function openSharedStores(
  config: Pick<BffConfig, 'databaseUrl' | 'idempotencyKeyDays'>,
  now: () => number = Date.now,
): Promise<SharedStores | undefined> {
  if (!config.databaseUrl) return undefined;
  const pool = createPool(config.databaseUrl);
  try {
    const ledger = await PostgresLedgerStore.open({
      pool,
      now,
      keyWindowMs: config.idempotencyKeyDays * 86_400_000,
    });
    const oauth = await PostgresOAuthStore.open(pool);
    return { ledger, oauth, pool, close: () => pool.end() };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
