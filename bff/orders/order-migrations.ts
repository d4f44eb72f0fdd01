import type { Migration } from '../../shared/sql/migrate.ts';

/**
 * The orders to ship (docs/orders.md), in the ledger's database (node:sqlite in `BFF_DATA_DIR`, or the PostgreSQL
 * every instance shares), ids 5xx, applied after the ledger's steps (an order's state is read from `label_attempts`).
 *
 * - `store_orders`: one row per order (its `orderId` is the label ledger's), the order as JSON columns, the platform's
 *   own id UNIQUE per source (one platform order is one order, however often it arrives), the platform's version
 *   (`updated_at`) so an older change arriving late is ignored, and the volumes its labels were planned in.
 * - `store_webhooks`: every platform delivery taken, by its id: the same delivery again is answered without a second
 *   order (UNIQUE: two instances receiving it at once cannot both take it).
 * - `product_presets`: the sizes and weight the merchant saved for a product (by SKU, else name) on the desk.
 * - `store_orders.store`: the store the order came from (the shop, the store id), what a store's erasure goes by.
 * - `store_fulfillments`: the tracking going back to the store, one row per order (PRIMARY KEY: sent once), with its
 *   tries and lease like the notification outbox.
 */
export const ORDER_MIGRATIONS: readonly Migration[] = [
  {
    id: '501-store-orders',
    sql: `
      CREATE TABLE store_orders (
        order_id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        external_id TEXT,
        body TEXT NOT NULL,
        version TEXT,
        planned_volumes INTEGER,
        received_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (source, external_id)
      );
      CREATE INDEX store_orders_received ON store_orders (received_at);
      CREATE TABLE store_webhooks (
        id TEXT PRIMARY KEY,
        order_id TEXT,
        received_at BIGINT NOT NULL
      );
      CREATE TABLE product_presets (
        product_key TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE store_fulfillments (
        order_id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        external_id TEXT NOT NULL,
        tracking TEXT NOT NULL,
        state TEXT NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        next_at BIGINT NOT NULL,
        give_up_at BIGINT NOT NULL,
        lease_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX store_fulfillments_due ON store_fulfillments (state, next_at)
    `,
  },
  {
    // The order's label content as the platform last sent it (bff/orders/order-changes.ts): what the next version is
    // compared with, so only a change of the recipient, the items or the service flags a labelled order.
    id: '502-store-orders-as-sent',
    sql: 'ALTER TABLE store_orders ADD COLUMN as_sent TEXT',
  },
  {
    // The store an order came from (a Shopify shop, a Nuvemshop store id; none for the CSV import): a store's
    // `shop/redact` / `store/redact` erases that store's orders, not every order of its platform (issue 44, finding
    // 13). Rows taken before it are filled at start with the store connected when each was received
    // (OrderStore.fillStores).
    id: '503-store-orders-store',
    sql: `
      ALTER TABLE store_orders ADD COLUMN store TEXT;
      CREATE INDEX store_orders_store ON store_orders (source, store)
    `,
  },
];
