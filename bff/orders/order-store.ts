import * as z from 'zod/mini';
import { isBound } from '../../shared/orders/label-binding.ts';
import {
  DimensionsSchema,
  type OrderSource,
  type OrderState,
  type Review,
  type StoreOrder,
  StoreOrderSchema,
} from '../../shared/orders/order.ts';
import { MigratedStore } from '../../shared/sql/migrate.ts';
import { isUniqueViolation, type Sql, type SqlTransaction } from '../../shared/sql/sql.ts';
import type { ConnectionWindow } from '../stores/connection-windows.ts';
import { changesBetween, type LabelledContent, labelledContent } from './order-changes.ts';
import { ORDER_MIGRATIONS } from './order-migrations.ts';

/** What receiving an order came to. */
export type Received =
  /** A new order. */
  | 'created'
  /** A newer version of an order without labels: replaced. */
  | 'updated'
  /** A newer version of an order that has labels, its address, items or service changed: kept as labelled, flagged. */
  | 'flagged'
  /** A newer version of an order that has labels, nothing of its labels changed (a tag, a note, its fulfillment). */
  | 'unchanged'
  /** The store cancelled, refunded or voided it: no longer to ship (flagged when a label was issued). */
  | 'cancelled'
  /** This delivery was taken before, or this version is not newer than the one kept: nothing changed. */
  | 'duplicate'
  /** Another order (another source or platform order) already has this `orderId`: nothing changed. */
  | 'conflict';

/** An order as stored, with where it stands. */
export interface StoredOrder extends StoreOrder {
  receivedAt: number;
  updatedAt: number;
  /** How many volumes its labels were planned in (set when the desk issues them). */
  plannedVolumes: number | null;
}

/** What the label ledger and the watcher say of one order. */
export interface OrderLabels {
  state: OrderState;
  labels: {
    attemptId: string;
    volume: number;
    state: string;
    trackingCode: string | null;
    status: string | null;
  }[];
}

/** A product's saved sizes and weight (the desk's presets), by SKU or name. */
export const PresetSchema = /* @__PURE__ */ z.strictObject({
  key: z.string().check(z.minLength(1), z.maxLength(200)),
  dimensions: z.optional(DimensionsSchema),
  weightGrams: z.optional(z.int().check(z.gte(1), z.lte(100_000))),
});
export type Preset = z.infer<typeof PresetSchema>;

/** The key a product's preset is saved under: its SKU, else its name, trimmed and in lower case. */
export function presetKey(item: { sku?: string | undefined; name: string }): string {
  return (item.sku?.trim() || item.name.trim()).toLowerCase();
}

const ORDER_COLUMNS = 'order_id, source, body, planned_volumes, received_at, updated_at';

function toStored(row: Record<string, unknown>): StoredOrder {
  const order = StoreOrderSchema.parse(JSON.parse(String(row.body)));
  return {
    ...order,
    receivedAt: Number(row.received_at),
    updatedAt: Number(row.updated_at),
    plannedVolumes: row.planned_volumes === null ? null : Number(row.planned_volumes),
  };
}

/**
 * The orders to ship (docs/orders.md), on node:sqlite or PostgreSQL. Its guarantees come from the storage: a
 * platform delivery is taken once (`store_webhooks` PRIMARY KEY), one platform order is one order (UNIQUE source and
 * external id), and an `orderId` is one order (PRIMARY KEY), whichever instance receives what.
 */
export class OrderStore extends MigratedStore {
  constructor(sql: Sql, options: { now?: () => number } = {}) {
    super(sql, ORDER_MIGRATIONS, options.now);
  }

  /**
   * Takes an order a store sent (or the CSV import made), in one transaction:
   *
   * 1. a delivery id seen before (`deliveryId`, e.g. `shopify:<X-Shopify-Webhook-Id>`) → `duplicate`;
   * 2. a new `orderId` → `created` (`cancelled` when it comes cancelled: kept so a late `paid` cannot revive it);
   * 3. the same platform order again: a version not newer than the kept one → `duplicate`; a cancelled order stays
   *    cancelled (`duplicate`); newer and cancelled → `cancelled` (a labelled one keeps its labelled content and is
   *    flagged `cancelled_after_label`); newer, no label yet → replaced (`updated`); newer, with a label → kept as
   *    labelled, and flagged `changed_after_label` with what changed when the recipient, the items or the service
   *    differ from the platform's previous version (`flagged`), else `unchanged`;
   * 4. the `orderId` of another order → `conflict`.
   *
   * `sent`: the order's label content as the platform sent it (bff/orders/order-changes.ts), kept to compare the next
   * version with; default the order's own. `store`: the store it came from (the Shopify shop, the Nuvemshop store id),
   * kept with a new order so a store's erasure finds its orders.
   */
  async receive(
    order: StoreOrder,
    options: { deliveryId?: string; version?: string; sent?: LabelledContent; store?: string } = {},
  ): Promise<Received> {
    const now = this.now();
    const sent = JSON.stringify(options.sent ?? labelledContent(order));
    return this.sql.transaction(async (tx) => {
      if (options.deliveryId) {
        await tx.lock(`store-webhook:${options.deliveryId}`);
        const seen = await tx.one('SELECT id FROM store_webhooks WHERE id = ?', [options.deliveryId]);
        if (seen) return 'duplicate';
        await tx.run('INSERT INTO store_webhooks (id, order_id, received_at) VALUES (?, ?, ?)', [
          options.deliveryId,
          order.orderId,
          now,
        ]);
      }
      await tx.lock(`store-order:${order.orderId}`);
      const kept = await tx.one(
        'SELECT source, external_id, body, version, as_sent FROM store_orders WHERE order_id = ?',
        [order.orderId],
      );
      if (!kept) {
        const created = await this.insert(tx, order, options, sent, now);
        return created === 'created' && order.cancelled ? 'cancelled' : created;
      }
      if (kept.source !== order.source || (kept.external_id ?? null) !== (order.externalId ?? null))
        return 'conflict';
      if (!isNewer(options.version, kept.version)) return 'duplicate';
      const stored = StoreOrderSchema.parse(JSON.parse(String(kept.body)));
      const write = (body: StoreOrder) =>
        tx.run(
          'UPDATE store_orders SET body = ?, version = ?, as_sent = ?, updated_at = ? WHERE order_id = ?',
          [JSON.stringify(body), options.version ?? null, sent, now, order.orderId],
        );
      // Cancelled is final: Shopify and Nuvemshop cannot reopen a cancelled order.
      if (stored.cancelled) {
        await write(stored);
        return 'duplicate';
      }
      const labelled = await hasLabels(tx, order.orderId);
      if (order.cancelled) {
        await write(
          labelled
            ? withReview(
                { ...stored, cancelled: order.cancelled },
                { field: 'order', reason: 'cancelled_after_label' },
              )
            : order,
        );
        return 'cancelled';
      }
      if (!labelled) {
        await write(order);
        return 'updated';
      }
      const before = kept.as_sent
        ? (JSON.parse(String(kept.as_sent)) as LabelledContent)
        : labelledContent(stored);
      const changes = changesBetween(before, options.sent ?? labelledContent(order));
      if (changes.length === 0) {
        await write(stored);
        return 'unchanged';
      }
      await write(
        withReview(stored, { field: 'order', reason: 'changed_after_label', detail: changes.join('; ') }),
      );
      return 'flagged';
    });
  }

  private async insert(
    tx: SqlTransaction,
    order: StoreOrder,
    options: { version?: string; store?: string },
    sent: string,
    now: number,
  ): Promise<Received> {
    try {
      await tx.run(
        `INSERT INTO store_orders (order_id, source, store, external_id, body, version, as_sent, received_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          order.orderId,
          order.source,
          options.store ?? null,
          order.externalId ?? null,
          JSON.stringify(order),
          options.version ?? null,
          sent,
          now,
          now,
        ],
      );
      return 'created';
    } catch (error) {
      // The same platform order under another name: one platform order is one order.
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * The orders taken before the store was kept with them (migration 503), each given the store of its platform that
   * was connected when it was received (`received_at` in that store's window, both ends included; where two windows
   * hold it, the one connected last, as `windows` come), else `fallback` (the configured store, else the one connected
   * last: an order received before any known connection, or in a connection the row no longer remembers). At start,
   * so a store's erasure finds them; one transaction under a lock, so instances starting together fill once, and only
   * rows with no store, so running it again changes nothing. Answers how many.
   */
  async fillStores(
    source: OrderSource,
    windows: readonly ConnectionWindow[],
    fallback: string | undefined,
  ): Promise<number> {
    await this.ready;
    return this.sql.transaction(async (tx) => {
      await tx.lock(`store-orders-fill:${source}`);
      let filled = 0;
      for (const { shop, from, until } of windows)
        filled += await tx.run(
          `UPDATE store_orders SET store = ? WHERE source = ? AND store IS NULL AND received_at >= ?
             AND received_at <= ?`,
          [shop, source, from, until ?? Number.MAX_SAFE_INTEGER],
        );
      if (fallback !== undefined)
        filled += await tx.run('UPDATE store_orders SET store = ? WHERE source = ? AND store IS NULL', [
          fallback,
          source,
        ]);
      return filled;
    });
  }

  async get(orderId: string): Promise<StoredOrder | undefined> {
    const row = await this.sql.one(`SELECT ${ORDER_COLUMNS} FROM store_orders WHERE order_id = ?`, [orderId]);
    return row ? toStored(row) : undefined;
  }

  /** The orders, newest first (at most `limit`). */
  async list(limit = 200): Promise<StoredOrder[]> {
    const rows = await this.sql.all(
      `SELECT ${ORDER_COLUMNS} FROM store_orders ORDER BY received_at DESC, order_id LIMIT ?`,
      [limit],
    );
    return rows.map(toStored);
  }

  /** Which of these `orderId`s are taken. */
  async taken(orderIds: readonly string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const orderId of orderIds) {
      if (await this.sql.one('SELECT 1 AS one FROM store_orders WHERE order_id = ?', [orderId]))
        taken.add(orderId);
    }
    return taken;
  }

  /** The operator's review of an order (bff/orders/desk-routes.ts): its content replaced, its version kept. */
  async replace(order: StoreOrder): Promise<void> {
    await this.sql.run('UPDATE store_orders SET body = ?, updated_at = ? WHERE order_id = ?', [
      JSON.stringify(order),
      this.now(),
      order.orderId,
    ]);
  }

  /** The volumes an order's labels are planned in (the desk sets it before issuing them). */
  async plan(orderId: string, volumes: number): Promise<void> {
    await this.sql.run('UPDATE store_orders SET planned_volumes = ? WHERE order_id = ?', [volumes, orderId]);
  }

  /**
   * Where each order stands, from the ledger (its bound labels: its `order_id` and its CEP) and the watcher (each label's parcel status):
   * labelled when every planned volume has a created label, posted when the carrier has every one of them.
   */
  async labelsOf(orders: readonly StoredOrder[]): Promise<Map<string, OrderLabels>> {
    const result = new Map<string, OrderLabels>();
    for (const order of orders) {
      const rows = await this.sql.all(
        `SELECT a.id, a.order_id, a.request, a.volume, a.state, a.tracking_code, w.status FROM label_attempts a
         LEFT JOIN shipment_watches w ON w.attempt_id = a.id
         WHERE a.order_id = ? ORDER BY a.volume, a.created_at`,
        [order.orderId],
      );
      // Only the labels bound to the order (its number and its CEP) make its state (bff/orders/binding.ts).
      const bound = rows.filter((row) =>
        isBound(order, { orderId: String(row.order_id), request: String(row.request) }),
      );
      const labels = bound.map((row) => ({
        attemptId: String(row.id),
        volume: Number(row.volume ?? 1),
        state: String(row.state),
        trackingCode: row.tracking_code === null ? null : String(row.tracking_code),
        status: row.status === null || row.status === undefined ? null : String(row.status),
      }));
      result.set(order.orderId, { state: stateOf(order, labels), labels });
    }
    return result;
  }

  async presets(): Promise<Preset[]> {
    const rows = await this.sql.all('SELECT body FROM product_presets ORDER BY product_key');
    return rows.map((row) => PresetSchema.parse(JSON.parse(String(row.body))));
  }

  async savePreset(preset: Preset): Promise<Preset> {
    const saved = { ...preset, key: preset.key.trim().toLowerCase() };
    const body = JSON.stringify(saved);
    await this.sql.run(
      `INSERT INTO product_presets (product_key, body, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (product_key) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
      [saved.key, body, this.now()],
    );
    return saved;
  }
}

/** The order with one more review; one of the same field and reason is replaced (its detail the newest, joined). */
function withReview(order: StoreOrder, review: Review): StoreOrder {
  const same = order.needsReview.find((r) => r.field === review.field && r.reason === review.reason);
  const detail = [same?.detail, review.detail].filter(Boolean).join('; ');
  const merged: Review = detail ? { ...review, detail: detail.slice(-500) } : review;
  return { ...order, needsReview: [...order.needsReview.filter((r) => r !== same), merged] };
}

/** A version is newer when it sorts after the kept one (ISO 8601 times); none kept or none given: newer. */
function isNewer(version: string | undefined, kept: unknown): boolean {
  if (version === undefined) return false;
  if (kept === null || kept === undefined) return true;
  return Date.parse(version) > Date.parse(String(kept));
}

async function hasLabels(tx: SqlTransaction, orderId: string): Promise<boolean> {
  const row = await tx.one(
    `SELECT 1 AS one FROM label_attempts WHERE order_id = ? AND state IN ('created', 'pending', 'unknown') LIMIT 1`,
    [orderId],
  );
  return row !== undefined;
}

const NOT_YET_POSTED = new Set([null, 'no-events', 'not-found']);

function stateOf(order: StoredOrder, labels: OrderLabels['labels']): OrderState {
  if (order.cancelled) return 'cancelled';
  if (order.pickup) return 'not_shipped';
  const created = labels.filter((label) => label.state === 'created');
  if (created.length === 0) return 'new';
  const planned = Math.max(order.plannedVolumes ?? 1, ...labels.map((label) => label.volume));
  const volumes = new Set(created.map((label) => label.volume));
  if (volumes.size < planned) return 'partly_labelled';
  return created.every((label) => !NOT_YET_POSTED.has(label.status)) ? 'posted' : 'labelled';
}
