import type { Migration } from '../../shared/sql/migrate.ts';

/**
 * The store's transit history, in the ledger's database (node:sqlite in `BFF_DATA_DIR`, or the PostgreSQL every
 * instance shares), ids 4xx. One row per label the BFF issued and watches (`parcel_transits`):
 *
 * - the label's tracking code (the tracking page shows the promise of the codes it looks up);
 * - the lane: the store's origin (the sender's CEP, five digits), the service, the destination's 3-digit prefix,
 *   state, capital or interior and region (shared/lanes.ts);
 * - the promise it was sold with (`promised_*`, São Paulo dates; `promised_level`: the lane level its history rested
 *   on), when one could be made, and the platform's count it was quoted (`platform_days`, the `deliveryDays` the
 *   history learns its offset from);
 * - what the carrier did: the São Paulo day numbers of its posting and of its delivery or return (`outcome`), the
 *   business days between them when it was delivered and they can be believed (`transit_days`), and the score
 *   against the promise (`late_days`: business days after the promised date, negative when early);
 * - `at_risk_at`: when a "promise at risk" event was made for it (once).
 *
 * Bounded: rows of labels older than `HISTORY_DAYS` are deleted (history-store.ts).
 */
export const PROMISE_MIGRATIONS: readonly Migration[] = [
  {
    id: '401-parcel-transits',
    sql: `
      CREATE TABLE parcel_transits (
        attempt_id TEXT PRIMARY KEY,
        tracking_code TEXT NOT NULL,
        origin TEXT NOT NULL,
        service_id TEXT NOT NULL,
        dest_prefix TEXT NOT NULL,
        dest_uf TEXT NOT NULL,
        dest_area TEXT NOT NULL,
        dest_region TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        created_day INTEGER NOT NULL,
        promised_from TEXT,
        promised_to TEXT,
        promised_basis TEXT,
        promised_parcels INTEGER,
        promised_level TEXT,
        platform_days INTEGER,
        outcome TEXT NOT NULL DEFAULT 'open',
        posted_day INTEGER,
        ended_day INTEGER,
        transit_days INTEGER,
        late_days INTEGER,
        at_risk_at BIGINT,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX parcel_transits_by_service ON parcel_transits (service_id, outcome, ended_day);
      CREATE INDEX parcel_transits_by_time ON parcel_transits (created_at);
      CREATE INDEX parcel_transits_by_code ON parcel_transits (tracking_code)
    `,
  },
];

/** How long the history keeps a parcel: a year, so every season (and the last strike) is in it once. */
export const HISTORY_DAYS = 365;
