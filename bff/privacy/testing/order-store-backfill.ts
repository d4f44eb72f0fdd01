import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Backends, openBackends } from '../../backends/backends.ts';
import { parseConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';

/**
 * The fill of the orders taken before `store_orders.store` (migration 503), on node:sqlite and PostgreSQL
 * (order-store-backfill.test.ts, order-store-backfill.postgres.test.ts). Review of finding 13: it filed every such
 * order under one store per platform, the one connected last, so where two stores of a platform were connected one
 * after the other before the upgrade, the former's `shop/redact` / `store/redact` (48 h after its uninstall) erased
 * none of its shoppers and the later store's erased them. Each order now goes to the store connected when it was
 * received (bff/stores/connection-windows.ts), else to the store connected last.
 */
export const T0 = 1_763_800_000_000;
const logger = createLogger({ level: 'silent' });
const grant = {
  kind: 'nuvemshop' as const,
  token: 'v1.sealed.x.y',
  refresh: null,
  issuedAt: T0,
  expiresAt: null,
  refreshExpiresAt: null,
  renewAt: null,
};

/** What happened to the platform's stores before the upgrade, in order: a store connected or disconnected at a time. */
type Step = ['connect' | 'disconnect', shop: string, at: number];

/** A database of its own for one case: the variables that name it (a data directory, or a PostgreSQL database). */
export type DatabaseOf = () => Promise<Record<string, string>>;

async function open(env: Record<string, string>, now: number): Promise<Backends> {
  const config = parseConfig({
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'order-store-backfill-')),
    BFF_PUBLIC_URL: 'http://127.0.0.1',
    ...env,
  });
  return openBackends(config, { logger, now: () => now });
}

/**
 * The stores' steps and the Nuvemshop orders (id, received at) written as before 503 (no store), then the BFF
 * started again: each order's store, by id.
 */
async function filled(
  database: DatabaseOf,
  steps: readonly Step[],
  orders: readonly (readonly [string, number])[],
  variables: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const env = { ...(await database()), ...variables };
  const first = await open(env, T0);
  try {
    for (const [step, shop, at] of steps)
      if (step === 'connect') await first.connections.connect('nuvemshop', shop, grant, at);
      else await first.connections.disconnect('nuvemshop', shop, at);
    for (const [id, at] of orders)
      await first.sql.run(
        `INSERT INTO store_orders (order_id, source, store, external_id, body, received_at, updated_at)
         VALUES (?, 'nuvemshop', NULL, ?, '{}', ?, ?)`,
        [id, id, at, at],
      );
  } finally {
    await first.close();
  }
  const again = await open(env, T0 + 10_000);
  try {
    const rows = await again.sql.all('SELECT order_id, store FROM store_orders ORDER BY order_id');
    return Object.fromEntries(rows.map((row) => [row.order_id, row.store]));
  } finally {
    await again.close();
  }
}

export function describeOrderStoreBackfill(name: string, database: DatabaseOf): void {
  describe(`the orders taken before migration 503, filled at start (${name})`, () => {
    it('are each filed under the store connected when they came (finding 13, backfill)', async () => {
      // Store 1001 connected, took order #A, was uninstalled; store 2002 connected since and took order #B.
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0],
          ['disconnect', '1001', T0 + 100],
          ['connect', '2002', T0 + 200],
        ],
        [
          ['#A', T0 + 50],
          ['#B', T0 + 250],
        ],
      );
      expect(stores).toEqual({ '#A': '1001', '#B': '2002' });
    });

    it("holds both ends of a window, and at one store's disconnect that is another's connect, the later store", async () => {
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0],
          ['disconnect', '1001', T0 + 100],
          ['connect', '2002', T0 + 200],
          ['disconnect', '2002', T0 + 300],
          ['connect', '3003', T0 + 300],
        ],
        [
          ['#at-1001-connect', T0],
          ['#at-1001-disconnect', T0 + 100],
          ['#at-2002-connect', T0 + 200],
          ['#at-2002-disconnect-3003-connect', T0 + 300],
        ],
      );
      expect(stores).toEqual({
        '#at-1001-connect': '1001',
        '#at-1001-disconnect': '1001',
        '#at-2002-connect': '2002',
        '#at-2002-disconnect-3003-connect': '3003',
      });
    });

    it('files an order received before any connection, or between two, under the store connected last', async () => {
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0 + 100],
          ['disconnect', '1001', T0 + 200],
          ['connect', '2002', T0 + 300],
          ['disconnect', '2002', T0 + 400],
        ],
        [
          ['#before', T0],
          ['#between', T0 + 250],
          ['#after', T0 + 500],
        ],
      );
      expect(stores).toEqual({ '#before': '2002', '#between': '2002', '#after': '2002' });
    });

    it("files an order no window holds under the configured store, one in another store's window under that store", async () => {
      // As the BFF talks to the connected store before the configured one (Connections.shopOf).
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0 + 100],
          ['disconnect', '1001', T0 + 200],
        ],
        [
          ['#before', T0],
          ['#1001', T0 + 150],
          ['#after', T0 + 250],
        ],
        { BFF_NUVEMSHOP_STORE_ID: '9009' },
      );
      expect(stores).toEqual({ '#before': '9009', '#1001': '1001', '#after': '9009' });
    });

    it("files every Shopify order under BFF_SHOPIFY_SHOP, whatever another shop's row says (the webhooks took no other)", async () => {
      // Before installs were pinned to the configured shop (528e7fe), any shop could install the listed app: its row
      // stays connected, yet Shopify's webhook route has always taken only BFF_SHOPIFY_SHOP's deliveries
      // (bff/stores/webhooks.ts). Filed by that row's window, the merchant's orders became the stranger's: its
      // shop/redact (48 h after it uninstalls) would erase the merchant's shoppers, and the merchant's would miss them.
      const env = { ...(await database()), BFF_SHOPIFY_SHOP: 'loja.myshopify.com' };
      const first = await open(env, T0);
      try {
        await first.connections.connect(
          'shopify',
          'estranha.myshopify.com',
          { ...grant, kind: 'expiring' },
          T0,
        );
        await first.sql.run(
          `INSERT INTO store_orders (order_id, source, store, external_id, body, received_at, updated_at)
           VALUES ('#1001', 'shopify', NULL, '#1001', '{}', ?, ?)`,
          [T0 + 50, T0 + 50],
        );
      } finally {
        await first.close();
      }
      const again = await open(env, T0 + 100);
      try {
        const rows = await again.sql.all('SELECT order_id, store FROM store_orders');
        expect(rows.map((row) => [row.order_id, row.store])).toEqual([['#1001', 'loja.myshopify.com']]);
      } finally {
        await again.close();
      }
    });

    it('knows only the last window of a store reconnected, and files the earlier one by the store connected last', async () => {
      // 1001 twice (its row keeps the second connection only), 2002 between, and 3003 connected last.
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0],
          ['disconnect', '1001', T0 + 100],
          ['connect', '2002', T0 + 200],
          ['disconnect', '2002', T0 + 300],
          ['connect', '1001', T0 + 400],
          ['disconnect', '1001', T0 + 500],
          ['connect', '3003', T0 + 600],
        ],
        [
          ['#1001-first', T0 + 50],
          ['#2002', T0 + 250],
          ['#1001-second', T0 + 450],
          ['#3003', T0 + 650],
        ],
      );
      // #1001-first is 1001's, but no row remembers that window: the store connected last gets it, as before the fix.
      expect(stores).toEqual({
        '#1001-first': '3003',
        '#2002': '2002',
        '#1001-second': '1001',
        '#3003': '3003',
      });
    });

    it('files a store reconnected after another under its windows, the earlier one by the store connected last', async () => {
      const stores = await filled(
        database,
        [
          ['connect', '1001', T0],
          ['disconnect', '1001', T0 + 100],
          ['connect', '2002', T0 + 200],
          ['disconnect', '2002', T0 + 300],
          ['connect', '1001', T0 + 400],
        ],
        [
          ['#1001-first', T0 + 50],
          ['#2002', T0 + 250],
          ['#1001-second', T0 + 450],
        ],
      );
      expect(stores).toEqual({ '#1001-first': '1001', '#2002': '2002', '#1001-second': '1001' });
    });

    it('fills once: a later start changes no order, whatever was connected since', async () => {
      const env = await database();
      const first = await open(env, T0);
      await first.connections.connect('nuvemshop', '1001', grant, T0);
      await first.sql.run(
        `INSERT INTO store_orders (order_id, source, store, external_id, body, received_at, updated_at)
         VALUES ('#A', 'nuvemshop', NULL, '#A', '{}', ?, ?)`,
        [T0 + 50, T0 + 50],
      );
      await first.close();
      const second = await open(env, T0 + 100);
      try {
        // Another store connected since, whose window (back-dated here) would hold #A were it still unfilled.
        await second.connections.disconnect('nuvemshop', '1001', T0 + 100);
        await second.connections.connect('nuvemshop', '2002', grant, T0 - 1);
        expect(
          await second.orders.fillStores('nuvemshop', [{ shop: '2002', from: T0 - 1, until: null }], '2002'),
        ).toBe(0);
      } finally {
        await second.close();
      }
      const third = await open(env, T0 + 200);
      try {
        const rows = await third.sql.all('SELECT order_id, store FROM store_orders');
        expect(rows.map((row) => [row.order_id, row.store])).toEqual([['#A', '1001']]);
      } finally {
        await third.close();
      }
    });
  });
}
