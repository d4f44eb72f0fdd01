import type { SqlRunner } from '../../shared/sql/sql.ts';
import type { StorePlatform } from './connection-store.ts';

/**
 * When a store of a platform was connected, as far as `store_connections` knows: from `connected_at` (its last
 * connection: a reconnect writes the row whole, so an earlier connection is forgotten) until its disconnect (the row's
 * `updated_at` once its token is gone: `disconnect` and `markDisconnected` write it, nothing else touches it on a
 * tokenless row), or still open (`until` null). What the fill of the orders taken before migration 503 goes by
 * (`OrderStore.fillStores`): an order received in a window was that store's.
 */
export interface ConnectionWindow {
  shop: string;
  from: number;
  /** When it was disconnected; null while connected. */
  until: number | null;
}

/** The platform's known windows, the one connected last first (where two hold an order, that one wins). */
export async function connectionWindows(
  runner: SqlRunner,
  platform: StorePlatform,
): Promise<ConnectionWindow[]> {
  const rows = await runner.all(
    `SELECT shop, connected_at, CASE WHEN token IS NULL THEN updated_at END AS disconnected_at FROM store_connections
     WHERE platform = ? ORDER BY connected_at DESC, shop`,
    [platform],
  );
  return rows.map((row) => ({
    shop: String(row.shop),
    from: Number(row.connected_at),
    until: row.disconnected_at == null ? null : Number(row.disconnected_at),
  }));
}
