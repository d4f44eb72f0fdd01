import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../shared/sql/migrate.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { parseConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { CONNECTION_MIGRATIONS, ConnectionStore, type SealedGrant } from './connection-store.ts';
import { StoreConnections } from './connections.ts';
import { TokenBox } from './store-key.ts';

/**
 * "Approve" on /admin/stores connects a held install (finding 14) only while no other store of the platform is the
 * BFF's: not one connected, not the one of the variables. The check and the connection are one step, so two approves
 * of two held stores at once (two tabs, two instances) cannot both connect.
 */
const NOW = 1_000_000;
const held = (token: string): SealedGrant => ({
  kind: 'nuvemshop',
  token,
  refresh: null,
  issuedAt: NOW,
  expiresAt: null,
  refreshExpiresAt: null,
  renewAt: null,
});
const logger = createLogger({ level: 'silent' });

function connectionsOf(sql: Sql, env: Record<string, string> = {}): StoreConnections {
  return new StoreConnections({
    store: new ConnectionStore(sql),
    box: new TokenBox(randomBytes(32)),
    config: parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_demo', ...env }),
    logger,
    now: () => NOW,
  });
}

function describeApprove(name: string, open: () => Promise<[Sql, Sql]>) {
  describe(name, () => {
    it('connects one of two held stores approved at once, and says the other is not', async () => {
      const [one, two] = await open();
      await migrate(one, CONNECTION_MIGRATIONS);
      const store = new ConnectionStore(one);
      await store.hold('nuvemshop', '1001', held('sealed-1001'), NOW);
      await store.hold('nuvemshop', '2002', held('sealed-2002'), NOW);
      const outcomes = await Promise.all([
        connectionsOf(one).approve('nuvemshop', '1001'),
        connectionsOf(two).approve('nuvemshop', '2002'),
      ]);
      expect(outcomes.toSorted()).toEqual(['approved', 'other_connected']);
      const connected = await one.all(
        "SELECT shop FROM store_connections WHERE platform = 'nuvemshop' AND token IS NOT NULL",
      );
      expect(connected).toHaveLength(1);
      // The one refused still waits: the merchant may disconnect the other and approve it.
      expect((await store.pending(NOW)).map((p) => p.shop)).toHaveLength(1);
    });

    it('refuses a held store while the store of BFF_NUVEMSHOP_STORE_ID is the BFF’s', async () => {
      const [one] = await open();
      await migrate(one, CONNECTION_MIGRATIONS);
      const store = new ConnectionStore(one);
      // Held before the merchant set the variables (a restart with BFF_NUVEMSHOP_STORE_ID since).
      await store.hold('nuvemshop', '3003', held('sealed-3003'), NOW);
      const connections = connectionsOf(one, {
        BFF_NUVEMSHOP_STORE_ID: '4004',
        BFF_NUVEMSHOP_TOKEN: 'static-token-of-the-merchant-4004',
      });
      expect(await connections.approve('nuvemshop', '3003')).toBe('other_connected');
      expect(await store.connected('nuvemshop')).toBeUndefined();
      expect((await connections.access('nuvemshop'))?.shop).toBe('4004');
    });
  });
}

let postgres: PostgresServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  await postgres?.close();
});

describeApprove('node:sqlite', async () => {
  const sql = new SqliteSql({ dataDir: ':memory:', file: 'approve.sqlite' });
  closers.push(() => sql.close());
  return [sql, sql];
});

let databases = 0;
describeApprove('PostgreSQL (two pools, as two instances)', async () => {
  postgres ??= await startPostgres();
  databases += 1;
  const url = await postgres.createDatabase(`approve${databases}`);
  const one = new PostgresSql(url);
  const two = new PostgresSql(url);
  closers.push(
    () => one.close(),
    () => two.close(),
  );
  return [one, two];
});
