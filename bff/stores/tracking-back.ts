import * as z from 'zod/mini';
import { OUTBOX_STATES, OutboxDrain, OutboxTable } from '../../shared/sql/outbox.ts';
import { placeholders, type Sql } from '../../shared/sql/sql.ts';
import type { BffConfig } from '../config.ts';
import { type Logger, messageOf } from '../logger.ts';
import { NuvemshopApi } from '../nuvemshop/api-client.ts';
import type { StoredOrder } from '../orders/order-store.ts';
import { ShopifyFulfillment, ShopifyFulfillmentRefused } from '../shopify/fulfillment.ts';
import type { AccessOf, StoreAccess } from './connections.ts';
import { isStoreRefused } from './store-api.ts';

/**
 * The tracking code going back to the store (docs/orders.md, "Tracking back to the store"): once an order of Shopify
 * or Nuvemshop has a label for every volume, the store's order gets the codes and the tracking page's URL — Shopify
 * its shipping location's fulfillment orders fulfilled with tracking (bff/shopify/fulfillment.ts), Nuvemshop its
 * order fulfilled with the tracking number — so the shopper's account shows them (and the store's e-mails, unless the
 * kit e-mails the shopper itself: `BFF_STORE_NOTIFY_CUSTOMER`). A store's order that cannot be fulfilled yet (held,
 * scheduled) is `waiting`, looked at again; a cancelled one is withdrawn.
 *
 * A user of the one outbox (shared/sql/outbox.ts: its states, its lease, its backoff, tried for 24 h), as the
 * notifications are, in its own table (`store_fulfillments`) because its unit is an order, not a shipment event. Once per order comes from the storage (PRIMARY KEY `order_id`), and from the platform: before
 * sending, the sender reads whether the store's order is already fulfilled (a lost answer is not sent twice).
 */
export const FULFILLMENT_WINDOW_MS = 24 * 3_600_000;
/** How often tracking waiting on a held or scheduled fulfillment order looks again (the webhooks wake it sooner). */
export const WAITING_POLL_MS = 30 * 60_000;
/** How long it waits for a release before it is `failed` ("send again" on the desk starts it over). */
export const WAITING_WINDOW_MS = 14 * 24 * 3_600_000;

/**
 * Where an order's tracking back stands: the outbox's states, and `waiting` — the store's order cannot be fulfilled
 * yet (held, scheduled): not a failure, looked at again.
 */
export const FULFILLMENT_STATES = [...OUTBOX_STATES, 'waiting'] as const;
export type FulfillmentState = (typeof FULFILLMENT_STATES)[number];

export interface TrackingCode {
  code: string;
  url: string;
}

const RowSchema = z.object({
  order_id: z.string(),
  platform: z.enum(['shopify', 'nuvemshop']),
  external_id: z.string(),
  tracking: z.string(),
  state: z.enum(FULFILLMENT_STATES),
  tries: z.number(),
  next_at: z.number(),
  last_error: z.nullable(z.string()),
  sent_at: z.nullable(z.number()),
  created_at: z.number(),
});

/** One order's tracking going back, as the desk shows it. */
export interface Fulfillment {
  orderId: string;
  platform: 'shopify' | 'nuvemshop';
  externalId: string;
  tracking: TrackingCode[];
  state: FulfillmentState;
  tries: number;
  nextAt: number;
  lastError: string | null;
  sentAt: number | null;
}

function toFulfillment(row: unknown): Fulfillment {
  const parsed = RowSchema.parse(row);
  return {
    orderId: parsed.order_id,
    platform: parsed.platform,
    externalId: parsed.external_id,
    tracking: z.array(z.object({ code: z.string(), url: z.string() })).parse(JSON.parse(parsed.tracking)),
    state: parsed.state,
    tries: parsed.tries,
    nextAt: parsed.next_at,
    lastError: parsed.last_error,
    sentAt: parsed.sent_at,
  };
}

const COLUMNS =
  'order_id, platform, external_id, tracking, state, tries, next_at, last_error, sent_at, created_at';

/** `store_fulfillments`: claimed for a lease, tried once, marked sent, retrying or failed. */
export class FulfillmentStore {
  private readonly sql: Sql;
  private readonly table: OutboxTable;

  constructor(sql: Sql) {
    this.sql = sql;
    this.table = new OutboxTable(sql, {
      table: 'store_fulfillments',
      key: 'order_id',
      alsoOpen: ['waiting'],
    });
  }

  /** Queues the order's tracking once (a second call for the same order changes nothing); answers whether it did. */
  async enqueue(order: StoredOrder, tracking: TrackingCode[], now: number): Promise<boolean> {
    if ((order.source !== 'shopify' && order.source !== 'nuvemshop') || !order.externalId) return false;
    const changed = await this.sql.run(
      `INSERT INTO store_fulfillments (order_id, platform, external_id, tracking, state, next_at, give_up_at, created_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
      [
        order.orderId,
        order.source,
        order.externalId,
        JSON.stringify(tracking),
        now,
        now + FULFILLMENT_WINDOW_MS,
        now,
      ],
    );
    return changed > 0;
  }

  /** Up to `limit` orders due at `now` (waiting ones too), each leased until `leaseUntil` and counted as a try. */
  claim(limit: number, now: number, leaseUntil: number): Promise<Fulfillment[]> {
    return this.table.claim(limit, now, leaseUntil, async (tx, orderIds) => {
      const rows = await tx.all(
        `SELECT ${COLUMNS} FROM store_fulfillments WHERE order_id IN (${placeholders(orderIds.length)})`,
        orderIds,
      );
      return rows.map(toFulfillment);
    });
  }

  sent(orderId: string, now: number): Promise<void> {
    return this.table.sent(orderId, now);
  }

  /** The store's order cannot be fulfilled yet (`why`): looked at again at `nextAt`, failed after the waiting window. */
  async waiting(orderId: string, why: string, now: number, nextAt: number): Promise<FulfillmentState> {
    const row = await this.sql.one('SELECT created_at FROM store_fulfillments WHERE order_id = ?', [orderId]);
    const state: FulfillmentState =
      row === undefined || now - Number(row.created_at) > WAITING_WINDOW_MS ? 'failed' : 'waiting';
    await this.table.mark(orderId, state, nextAt, why);
    return state;
  }

  /** A held fulfillment order of the platform was released: its waiting tracking is due now. Answers how many. */
  async wake(platform: 'shopify' | 'nuvemshop', now: number): Promise<number> {
    return this.sql.run(
      `UPDATE store_fulfillments SET next_at = ? WHERE platform = ? AND state = 'waiting'`,
      [now, platform],
    );
  }

  /** The store cancelled the order: what was not sent yet never is (`why` shown on the desk). */
  withdraw(orderId: string, why: string, now: number): Promise<void> {
    return this.table.mark(orderId, 'failed', now, why);
  }

  /** Failed this time: tried again after the outbox's backoff, or given up (refused for good, or past its window). */
  retry(
    orderId: string,
    failure: { tries: number; error: string; permanent: boolean },
    now: number,
    random?: () => number,
  ): Promise<FulfillmentState> {
    return this.table.retry(orderId, failure, now, random);
  }

  /** The desk's "send again" after a failure, or while waiting: due now, with a new window. */
  async resend(orderId: string, now: number): Promise<Fulfillment | undefined> {
    await this.sql.run(
      `UPDATE store_fulfillments SET state = 'pending', next_at = ?, give_up_at = ?, created_at = ?, lease_until = NULL
       WHERE order_id = ? AND state IN ('failed', 'waiting')`,
      [now, now + FULFILLMENT_WINDOW_MS, now, orderId],
    );
    return this.get(orderId);
  }

  async get(orderId: string): Promise<Fulfillment | undefined> {
    const row = await this.sql.one(`SELECT ${COLUMNS} FROM store_fulfillments WHERE order_id = ?`, [orderId]);
    return row ? toFulfillment(row) : undefined;
  }

  async of(orderIds: readonly string[]): Promise<Map<string, Fulfillment>> {
    const found = new Map<string, Fulfillment>();
    if (orderIds.length === 0) return found;
    const rows = await this.sql.all(
      `SELECT ${COLUMNS} FROM store_fulfillments WHERE order_id IN (${placeholders(orderIds.length)})`,
      [...orderIds],
    );
    for (const row of rows) {
      const fulfillment = toFulfillment(row);
      found.set(fulfillment.orderId, fulfillment);
    }
    return found;
  }

  /** node:sqlite only (one writer): a lease left in the file belongs to a process that is gone. */
  async releaseLeases(): Promise<void> {
    await this.table.releaseLeases();
  }
}

/** Why one try failed, and whether trying again can help. */
class SendFailure extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

export interface TrackingBackOptions {
  store: FulfillmentStore;
  config: Pick<BffConfig, 'checkout'>;
  logger: Logger;
  now?: () => number;
  random?: () => number;
  fetch?: typeof fetch | undefined;
  /** How long a claimed fulfillment is this sender's (default 60 s). */
  leaseMs?: number;
  /** The stores' tokens, installed, granted or static (bff/stores/connections.ts). */
  access: AccessOf;
  /** Whether a platform's store is connected (bff/stores/connections.ts). */
  isConnected: (platform: 'shopify' | 'nuvemshop') => Promise<boolean>;
}

/** Where a Nuvemshop order's shipping stands (Orders API v1). */
const ShippingStateSchema = z.looseObject({
  shipping_status: z.optional(z.nullable(z.string())),
  shipping_tracking_number: z.optional(z.nullable(z.string())),
});

/**
 * Sends what `store_fulfillments` holds, due first; any instance may run one (the lease decides who sends what).
 * Whether the store has the integration is read from the configuration: a platform without its token is not sent to
 * (the order's tracking waits, `failed` with why).
 */
export class TrackingBack {
  private readonly options: TrackingBackOptions;
  private readonly outboxDrain: OutboxDrain<Fulfillment>;

  constructor(options: TrackingBackOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    const leaseMs = options.leaseMs ?? 60_000;
    this.outboxDrain = new OutboxDrain(
      () => options.store.claim(8, now(), now() + leaseMs),
      (fulfillment) => this.deliver(fulfillment),
    );
  }

  /** Whether the store's platform can be told: installed or granted (connections.ts), or a static token configured. */
  connected(platform: 'shopify' | 'nuvemshop'): Promise<boolean> {
    return this.options.isConnected(platform);
  }

  /** Sends everything due now; a call while one runs makes it look once more. Answers the tries made. */
  drain(): Promise<number> {
    return this.outboxDrain.drain();
  }

  private async deliver(fulfillment: Fulfillment): Promise<void> {
    const { store, logger } = this.options;
    const now = this.options.now ?? Date.now;
    const fields = { order: fulfillment.orderId, platform: fulfillment.platform, tries: fulfillment.tries };
    try {
      const waiting = await this.send(fulfillment);
      if (waiting !== undefined) {
        const state = await store.waiting(fulfillment.orderId, waiting, now(), now() + WAITING_POLL_MS);
        logger.info({ ...fields, state, why: waiting }, 'orders: tracking waits for the store');
        return;
      }
      await store.sent(fulfillment.orderId, now());
      logger.info(fields, 'orders: tracking sent back to the store');
    } catch (error) {
      const failure =
        error instanceof SendFailure
          ? error
          : isStoreRefused(error)
            ? new SendFailure(error.message, !error.retryable)
            : error instanceof ShopifyFulfillmentRefused
              ? new SendFailure(error.message, true)
              : new SendFailure(`an unexpected error: ${messageOf(error)}`, false);
      const state = await store.retry(
        fulfillment.orderId,
        { tries: fulfillment.tries, error: failure.message, permanent: failure.permanent },
        now(),
        this.options.random,
      );
      logger.warn({ ...fields, state, error: failure.message }, 'orders: tracking not sent back');
    }
  }

  /** Sends one order's tracking; answers why it waits, when the store cannot take it yet. */
  private async send(fulfillment: Fulfillment): Promise<string | undefined> {
    const access = await this.options.access(fulfillment.platform);
    if (!access)
      throw new SendFailure(
        fulfillment.platform === 'shopify'
          ? 'Shopify is not connected: set BFF_SHOPIFY_SHOP and BFF_SHOPIFY_TOKEN.'
          : 'Nuvemshop is not connected: set BFF_NUVEMSHOP_STORE_ID and BFF_NUVEMSHOP_TOKEN.',
        true,
      );
    if (fulfillment.platform === 'shopify') return this.shopify(fulfillment, access);
    await this.nuvemshop(fulfillment, access);
    return undefined;
  }

  /** Shopify: per fulfillment order of the shipping location (bff/shopify/fulfillment.ts). */
  private async shopify(fulfillment: Fulfillment, access: StoreAccess): Promise<string | undefined> {
    const sender = new ShopifyFulfillment({
      apiUrl: access.apiUrl,
      token: access.token,
      locationId: this.options.config.checkout.shopify.locationId,
      fetch: this.options.fetch,
    });
    const outcome = await sender.send(fulfillment.externalId, {
      codes: fulfillment.tracking.map((t) => t.code),
      urls: fulfillment.tracking.map((t) => t.url),
      notifyCustomer: this.options.config.checkout.notifyCustomer,
    });
    return outcome.kind === 'waiting' ? outcome.why : undefined;
  }

  /** Nuvemshop: the order fulfilled with its tracking number(s) and the tracking page's URL. */
  private async nuvemshop(fulfillment: Fulfillment, access: StoreAccess): Promise<void> {
    const api = new NuvemshopApi({
      apiUrl: access.apiUrl,
      storeId: access.shop,
      token: access.token,
      fetch: this.options.fetch,
    });
    const path = `/orders/${encodeURIComponent(fulfillment.externalId)}`;
    const codes = fulfillment.tracking.map((t) => t.code).join(', ');
    const order = ShippingStateSchema.safeParse(await api.call('GET', path, 'read_orders'));
    // Already fulfilled with these codes: an earlier try got through and its answer was lost.
    if (
      order.success &&
      order.data.shipping_status === 'shipped' &&
      order.data.shipping_tracking_number === codes
    )
      return;
    await api.call('POST', `${path}/fulfill`, 'write_orders', {
      shipping_tracking_number: codes,
      shipping_tracking_url: fulfillment.tracking[0]?.url ?? '',
      // Orders API v1 `POST /orders/{id}/fulfill`: "notify_customer — Notify the customer about the fulfillment".
      notify_customer: this.options.config.checkout.notifyCustomer,
    });
  }
}
