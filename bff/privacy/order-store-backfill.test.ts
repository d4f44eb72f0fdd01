import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBackends } from '../backends/backends.ts';
import { parseConfig } from '../config.ts';
import { createLogger } from '../logger.ts';

/**
 * Review of finding 13: the orders taken before `store_orders.store` (migration 503) are filled at start with one store
 * per platform, the one connected last. Where two stores of a platform were connected one after the other before the
 * upgrade, the former store's orders are filed under the later one: the former's `shop/redact` / `store/redact`
 * (which comes 48 h after its uninstall) then erases none of its shoppers, and the later store's erases them. Each
 * connection's row knows when it connected and when it was disconnected, so an order received in between could be
 * filed under it. Not fixed (the fill is in bff/backends/backends.ts, being changed by another branch now).
 */
const T0 = 1_763_800_000_000;
const logger = createLogger({ level: 'silent' });
const config = (dataDir: string) =>
  parseConfig({
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    BFF_DATA_DIR: dataDir,
    BFF_PUBLIC_URL: 'http://127.0.0.1',
  });

describe('the orders of two stores connected one after the other before migration 503', () => {
  it.fails('are each filed under the store connected when they came (finding 13, backfill)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'order-store-backfill-'));
    const first = await openBackends(config(dataDir), { logger, now: () => T0 });
    const grant = {
      kind: 'nuvemshop' as const,
      token: 'v1.sealed.x.y',
      refresh: null,
      issuedAt: T0,
      expiresAt: null,
      refreshExpiresAt: null,
      renewAt: null,
    };
    // Store 1001 connected, took order #A, was uninstalled; store 2002 connected since and took order #B.
    await first.connections.connect('nuvemshop', '1001', grant, T0);
    await first.connections.disconnect('nuvemshop', '1001', T0 + 100);
    await first.connections.connect('nuvemshop', '2002', grant, T0 + 200);
    for (const [id, at] of [
      ['#A', T0 + 50],
      ['#B', T0 + 250],
    ] as const)
      await first.sql.run(
        `INSERT INTO store_orders (order_id, source, store, external_id, body, received_at, updated_at)
         VALUES (?, 'nuvemshop', NULL, ?, '{}', ?, ?)`,
        [id, id, at, at],
      );
    await first.close();
    const again = await openBackends(config(dataDir), { logger, now: () => T0 + 300 });
    try {
      const rows = await again.sql.all('SELECT order_id, store FROM store_orders ORDER BY order_id');
      expect(rows.map((row) => [row.order_id, row.store])).toEqual([
        ['#A', '1001'],
        ['#B', '2002'],
      ]);
    } finally {
      await again.close();
    }
  });
});
