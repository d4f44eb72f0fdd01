import type { Migration } from '../../shared/sql/migrate.ts';
import type { SqlTransaction } from '../../shared/sql/sql.ts';

/**
 * The watcher's state and the outbox, in the ledger's database (node:sqlite in `BFF_DATA_DIR`, or the PostgreSQL every
 * instance shares), ids 3xx. Applied after the ledger's own steps (openBackends waits for them): the first step reads
 * `label_attempts`.
 *
 * - `shipment_watches`: one row per label the BFF issued (a `created` attempt with a tracking code): the status and
 *   newest carrier event last seen, when that event was first seen (the stall clock), whether its stall was reported,
 *   when to look again, and a `version` that each recorded look moves by one — the compare-and-set that lets only one
 *   instance record a given look.
 * - `shipment_events`: one row per change; its id is the webhook's `webhook-id`, its body the webhook body byte for
 *   byte; UNIQUE (attempt_id, seq) so one look of one label can never become two events, whatever the code does.
 * - `notification_deliveries`: the outbox, one row per event and channel (UNIQUE), with its state, tries, next try and
 *   the lease of the instance sending it.
 */
export const NOTIFICATION_MIGRATIONS: readonly Migration[] = [
  {
    id: '301-shipment-watches',
    sql: `
      CREATE TABLE shipment_watches (
        attempt_id TEXT PRIMARY KEY,
        tracking_code TEXT NOT NULL,
        status TEXT,
        event_key TEXT,
        changed_at BIGINT NOT NULL,
        stalled INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        next_check_at BIGINT NOT NULL,
        checked_at BIGINT,
        done INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX shipment_watches_due ON shipment_watches (done, next_check_at)
    `,
    run: watchLabelsIssuedBefore,
  },
  {
    id: '302-notification-outbox',
    sql: `
      CREATE TABLE shipment_events (
        id TEXT PRIMARY KEY,
        attempt_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (attempt_id, seq)
      );
      CREATE TABLE notification_deliveries (
        id TEXT PRIMARY KEY,
        event_id TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        channel TEXT NOT NULL,
        target TEXT NOT NULL,
        state TEXT NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        next_at BIGINT NOT NULL,
        give_up_at BIGINT NOT NULL,
        lease_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        created_at BIGINT NOT NULL,
        UNIQUE (event_id, channel)
      );
      CREATE INDEX notification_deliveries_due ON notification_deliveries (state, next_at);
      CREATE INDEX notification_deliveries_by_label ON notification_deliveries (attempt_id, channel, seq);
      CREATE INDEX notification_deliveries_by_time ON notification_deliveries (created_at)
    `,
  },
  // The pickup reminder, once per wait at a unit (changes.ts).
  {
    id: '303-watch-pickup-reminder',
    sql: 'ALTER TABLE shipment_watches ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0',
  },
];

/**
 * Labels issued before this release are watched too, from the first look on: their status is not known yet
 * (`status` NULL), so that look records it without an event — no shopper gets a stale "delivered" for a parcel that
 * arrived weeks ago. Only labels of the last 60 days (`WATCH_DAYS`).
 */
async function watchLabelsIssuedBefore(tx: SqlTransaction): Promise<void> {
  const now = Date.now();
  await tx.run(
    `INSERT INTO shipment_watches (attempt_id, tracking_code, status, changed_at, next_check_at, created_at)
     SELECT id, tracking_code, NULL, ?, ?, created_at FROM label_attempts
     WHERE state = 'created' AND tracking_code IS NOT NULL AND created_at >= ?`,
    [now, now, now - WATCH_DAYS * 86_400_000],
  );
}

/** How long a label is watched after it was issued: longer than any delivery, and any return, takes. */
export const WATCH_DAYS = 60;
