import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../shared/sql/migrate.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import {
  CONNECTION_MIGRATIONS,
  ConnectionStore,
  INSTALL_STATE_MS,
  PENDING_INSTALL_LIMIT,
  PENDING_INSTALL_MS,
  type SealedGrant,
} from './connection-store.ts';

const SHOP = 'loja.myshopify.com';
const grant = (token: string, refresh: string): SealedGrant => ({
  kind: 'expiring',
  token,
  refresh,
  issuedAt: 1000,
  expiresAt: 3_601_000,
  refreshExpiresAt: 7_776_001_000,
  renewAt: 1_801_000,
});

/** The guarantees that come from the storage, on both databases: one pair after racing renewals, a state used once. */
function describeStore(name: string, open: () => Promise<[Sql, Sql]>) {
  describe(name, () => {
    let a: ConnectionStore;
    let b: ConnectionStore;
    beforeAll(async () => {
      const [one, two] = await open();
      await migrate(one, CONNECTION_MIGRATIONS);
      a = new ConnectionStore(one);
      b = new ConnectionStore(two);
    });

    it('keeps one whole pair when two instances renew from the same read at once', async () => {
      await a.connect('shopify', SHOP, grant('t0', 'r0'), 1000);
      const swaps = await Promise.all([
        a.swap('shopify', SHOP, 't0', grant('t1', 'r1'), 2000),
        b.swap('shopify', SHOP, 't0', grant('t2', 'r2'), 2000),
      ]);
      expect(swaps.filter(Boolean)).toHaveLength(1);
      const row = await a.get('shopify', SHOP);
      expect([
        ['t1', 'r1'],
        ['t2', 'r2'],
      ]).toContainEqual([row?.token, row?.refresh]);
      expect(await b.swap('shopify', SHOP, 't0', grant('t3', 'r3'), 3000)).toBe(false);
    });

    it('takes an install state once, for its platform, and not after 10 minutes', async () => {
      await a.addState('s1', 'shopify', SHOP, 10_000);
      const taken = await Promise.all([
        a.takeState('s1', 'shopify', 10_001),
        b.takeState('s1', 'shopify', 10_001),
      ]);
      expect(taken.filter((shop) => shop === SHOP)).toHaveLength(1);
      await a.addState('s2', 'shopify', SHOP, 10_000);
      expect(await a.takeState('s2', 'nuvemshop', 10_001)).toBeUndefined();
      expect(await a.takeState('s2', 'shopify', 10_000 + INSTALL_STATE_MS + 1)).toBeUndefined();
      expect(await a.takeState('s2', 'shopify', 10_001)).toBeUndefined();
    });

    it('holds at most PENDING_INSTALL_LIMIT installs per platform, for PENDING_INSTALL_MS, each taken once', async () => {
      const t0 = 10_000;
      for (let i = 0; i < PENDING_INSTALL_LIMIT; i++)
        expect(await a.hold('nuvemshop', `30${i}`, grant(`p${i}`, ''), t0 + i)).toBe(true);
      // Full: another store is refused, the same store's new install replaces its own, another platform is apart.
      expect(await a.hold('nuvemshop', '399', grant('px', ''), t0 + 10)).toBe(false);
      expect(await a.hold('nuvemshop', '300', grant('p0-again', ''), t0 + 10)).toBe(true);
      expect(await a.hold('shopify', 'held.myshopify.com', grant('ps', 'rs'), t0 + 10)).toBe(true);
      expect((await a.pending(t0 + 10)).filter((p) => p.platform === 'nuvemshop')).toHaveLength(
        PENDING_INSTALL_LIMIT,
      );
      const [first, second] = await Promise.all([
        a.takePending('nuvemshop', '300', t0 + 20),
        b.takePending('nuvemshop', '300', t0 + 20),
      ]);
      expect([first?.grant.token, second?.grant.token].filter(Boolean)).toEqual(['p0-again']);
      // Past their age they are gone: not listed, not taken, and a new install has room again.
      const later = t0 + PENDING_INSTALL_MS + 100;
      expect(await a.pending(later)).toEqual([]);
      expect(await a.takePending('nuvemshop', '301', later)).toBeUndefined();
      expect(await a.hold('nuvemshop', '399', grant('py', ''), later)).toBe(true);
      expect((await a.pending(later)).map((p) => p.shop)).toEqual(['399']);
    });

    it('deletes the tokens on disconnect, keeps the row, and renews nothing of it', async () => {
      expect(await a.disconnect('shopify', SHOP, 4000)).toBe(true);
      const row = await a.get('shopify', SHOP);
      expect(row).toMatchObject({ token: null, refresh: null, renew_at: null, carrier: 'missing' });
      expect(await a.connected('shopify')).toBeUndefined();
      expect(await a.due(Number.MAX_SAFE_INTEGER)).toEqual([]);
      expect(await a.disconnect('shopify', SHOP, 5000)).toBe(false);
    });
  });
}

let postgres: PostgresServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  await postgres?.close();
});

describeStore('node:sqlite', async () => {
  const sql = new SqliteSql({ dataDir: ':memory:', file: 'connections.sqlite' });
  closers.push(() => sql.close());
  return [sql, sql];
});

describeStore('PostgreSQL (two pools, as two instances)', async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('connections');
  const one = new PostgresSql(url);
  const two = new PostgresSql(url);
  closers.push(
    () => one.close(),
    () => two.close(),
  );
  return [one, two];
});
