import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { SHIPMENT_EVENT_TYPES, type ShipmentEventType } from '../../shared/shipment-events.ts';
import { OUTBOX_STATES, OutboxTable } from '../../shared/sql/outbox.ts';
import { type CamelCased, fromRow } from '../../shared/sql/rows.ts';
import { placeholders, type Sql, type SqlTransaction, type SqlValue } from '../../shared/sql/sql.ts';

export const CHANNELS = ['webhook', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Where a delivery stands: the outbox's states (shared/sql/outbox.ts), tried for 24 h. The desk's log shows these. */
export const DELIVERY_STATES = OUTBOX_STATES;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** An event as the watcher makes it, with where it goes. */
export interface NewEvent {
  /** The webhook-id: `msg_` and 32 hex digits, the same on every try. */
  id: string;
  type: ShipmentEventType;
  /** The webhook body (JSON), byte for byte the same on every try. */
  body: string;
  deliveries: { channel: Channel; target: string }[];
}

/** How long an event is tried (Standard Webhooks' retry schedules span about a day). */
export const DELIVERY_WINDOW_MS = 24 * 3_600_000;

/** A new event id (the `webhook-id`). */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** One delivery of one event on one channel, with its event: a row as stored, validated on the way out. */
const DeliveryRowSchema = z.object({
  id: z.string(),
  event_id: z.string(),
  attempt_id: z.string(),
  seq: z.number(),
  channel: z.enum(CHANNELS),
  /** The webhook URL, or the shopper's e-mail address. */
  target: z.string(),
  state: z.enum(DELIVERY_STATES),
  tries: z.number(),
  next_at: z.number(),
  give_up_at: z.number(),
  last_error: z.nullable(z.string()),
  sent_at: z.nullable(z.number()),
  created_at: z.number(),
  type: z.enum(SHIPMENT_EVENT_TYPES),
  body: z.string(),
});

export type Delivery = CamelCased<z.output<typeof DeliveryRowSchema>>;

function toDelivery(row: unknown): Delivery {
  return fromRow(DeliveryRowSchema, row);
}

const SELECT = `SELECT d.id, d.event_id, d.attempt_id, d.seq, d.channel, d.target, d.state, d.tries, d.next_at,
  d.give_up_at, d.last_error, d.sent_at, d.created_at, e.type, e.body
  FROM notification_deliveries d JOIN shipment_events e ON e.id = d.event_id`;

/** Writes an event and its deliveries, in the transaction that recorded the look that made it. */
export async function enqueueEvent(
  tx: SqlTransaction,
  event: NewEvent & { attemptId: string; seq: number },
  now: number,
): Promise<void> {
  await tx.run(
    'INSERT INTO shipment_events (id, attempt_id, seq, type, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [event.id, event.attemptId, event.seq, event.type, event.body, now],
  );
  for (const delivery of event.deliveries) {
    await tx.run(
      `INSERT INTO notification_deliveries (id, event_id, attempt_id, seq, channel, target, state, next_at, give_up_at,
         created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      [
        `ntf_${randomUUID().replaceAll('-', '')}`,
        event.id,
        event.attemptId,
        event.seq,
        delivery.channel,
        delivery.target,
        now,
        now + DELIVERY_WINDOW_MS,
        now,
      ],
    );
  }
}

/** What the desk's log selects: one state, most recent first, older than a cursor. */
export interface DeliveryFilter {
  state?: DeliveryState | undefined;
  before?: { createdAt: number; id: string } | undefined;
  limit?: number | undefined;
}

/**
 * The notifications' outbox (`notification_deliveries`), a user of the one outbox (shared/sql/outbox.ts): claimed for
 * a lease, sent outside any transaction, then marked. A delivery that goes again carries the same event (the same
 * `webhook-id`). A label's deliveries on one channel go in the order of its events: one is claimed only when none
 * before it is still waiting.
 */
export class Outbox {
  private readonly sql: Sql;
  private readonly table: OutboxTable;

  constructor(sql: Sql) {
    this.sql = sql;
    this.table = new OutboxTable(sql, {
      table: 'notification_deliveries',
      key: 'id',
      claimable: `NOT EXISTS (
        SELECT 1 FROM notification_deliveries b
        WHERE b.attempt_id = o.attempt_id AND b.channel = o.channel AND b.seq < o.seq
          AND b.state IN ('pending', 'retrying'))`,
      order: 'o.next_at, o.seq, o.id',
    });
  }

  /** Up to `limit` deliveries due at `now`, each leased until `leaseUntil` and counted as a try. */
  claim(limit: number, now: number, leaseUntil: number): Promise<Delivery[]> {
    return this.table.claim(limit, now, leaseUntil, async (tx, ids) => {
      const rows = await tx.all(`${SELECT} WHERE d.id IN (${placeholders(ids.length)})`, ids);
      return rows.map(toDelivery).sort((a, b) => a.nextAt - b.nextAt || a.seq - b.seq);
    });
  }

  /** Delivered (a 2xx, or the SMTP server took the message). */
  sent(id: string, now: number): Promise<void> {
    return this.table.sent(id, now);
  }

  /** Failed this time: tried again after the outbox's backoff, or given up (refused for good, or past its window). */
  retry(
    id: string,
    failure: { tries: number; error: string; permanent: boolean },
    now: number,
    random?: () => number,
  ): Promise<DeliveryState> {
    return this.table.retry(id, failure, now, random);
  }

  /** node:sqlite only: at start, the leases of a process that is gone end (the deliveries are due again now). */
  releaseLeases(): Promise<number> {
    return this.table.releaseLeases();
  }

  /** The desk's "send again": due now, with a new window of tries; the same event, so the same `webhook-id`. */
  async resend(id: string, now: number): Promise<Delivery | undefined> {
    await this.sql.run(
      `UPDATE notification_deliveries SET state = 'pending', next_at = ?, give_up_at = ?, lease_until = NULL
       WHERE id = ?`,
      [now, now + DELIVERY_WINDOW_MS, id],
    );
    return this.get(id);
  }

  async get(id: string): Promise<Delivery | undefined> {
    const row = await this.sql.one(`${SELECT} WHERE d.id = ?`, [id]);
    return row ? toDelivery(row) : undefined;
  }

  /** The log: most recent first. */
  async list(filter: DeliveryFilter = {}): Promise<Delivery[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.state) {
      where.push('d.state = ?');
      params.push(filter.state);
    }
    if (filter.before) {
      where.push('(d.created_at < ? OR (d.created_at = ? AND d.id > ?))');
      params.push(filter.before.createdAt, filter.before.createdAt, filter.before.id);
    }
    params.push(filter.limit ?? 100);
    const rows = await this.sql.all(
      `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY d.created_at DESC, d.id LIMIT ?`,
      params,
    );
    return rows.map(toDelivery);
  }
}
