import * as z from 'zod/mini';
import { type Lane, REGIONS_LIST, UFS } from '../../shared/lanes.ts';
import { type CamelCased, fromRow, nullish } from '../../shared/sql/rows.ts';
import { placeholders, type Sql, type SqlRunner } from '../../shared/sql/sql.ts';
import { type DeliveredParcel, LANE_LEVELS, type LaneLevel, type OpenParcel } from './estimate.ts';
import { HISTORY_DAYS } from './migrations.ts';

const DAY_MS = 86_400_000;

const TransitRowSchema = z.object({
  attempt_id: z.string(),
  tracking_code: z.string(),
  origin: z.string(),
  service_id: z.string(),
  dest_prefix: z.string(),
  dest_uf: z.enum(UFS),
  dest_area: z.enum(['capital', 'interior']),
  dest_region: z.enum(REGIONS_LIST),
  created_at: z.number(),
  created_day: z.number(),
  promised_from: nullish(z.string()),
  promised_to: nullish(z.string()),
  promised_basis: nullish(z.enum(['history', 'platform'])),
  promised_parcels: nullish(z.number()),
  promised_level: nullish(z.enum(LANE_LEVELS)),
  platform_days: nullish(z.number()),
  outcome: z.enum(['open', 'delivered', 'returned']),
  posted_day: nullish(z.number()),
  ended_day: nullish(z.number()),
  transit_days: nullish(z.number()),
  late_days: nullish(z.number()),
  at_risk_at: nullish(z.number()),
});

/** One parcel of the history: its lane, the promise it was sold with, and what the carrier did. */
export type TransitRow = CamelCased<z.output<typeof TransitRowSchema>>;

/** A new parcel: its lane and the promise it was sold with (none when neither history nor the platform gave one). */
export interface NewTransit {
  attemptId: string;
  trackingCode: string;
  origin: string;
  serviceId: string;
  lane: Lane;
  createdAt: number;
  createdDay: number;
  promise?: { from: string; to: string; basis: 'history' | 'platform'; parcels: number } | undefined;
  /** The lane level a history promise rested on. */
  level?: LaneLevel | undefined;
  /** The platform's count the label was quoted (`deliveryDays`); unknown: its transit is kept, not learnt from. */
  platformDays?: number | undefined;
}

/** What a look taught of a parcel (written in the look's own transaction). */
export interface TransitChange {
  outcome?: 'open' | 'delivered' | 'returned';
  postedDay?: number | null;
  endedDay?: number | null;
  transitDays?: number | null;
  lateDays?: number | null;
  atRiskAt?: number | null;
}

const COLUMNS: Record<keyof TransitChange, string> = {
  outcome: 'outcome',
  postedDay: 'posted_day',
  endedDay: 'ended_day',
  transitDays: 'transit_days',
  lateDays: 'late_days',
  atRiskAt: 'at_risk_at',
};

/** A label the history has no row of yet. */
export interface UnrecordedLabel {
  attemptId: string;
  trackingCode: string;
  request: string;
  serviceCode: string | null;
  createdAt: number;
}

function laneOfRow(row: TransitRow): Lane {
  return { prefix: row.destPrefix, uf: row.destUf, area: row.destArea, region: row.destRegion };
}

/**
 * The store's transit history (`parcel_transits`, migrations.ts) over the ledger's `Sql`: a row is started for each
 * label the watcher follows, with the promise it was sold with, and each look of the watcher writes what it learnt in
 * the same transaction as the look (so a crash loses both or neither). Reads give the estimator its samples.
 */
export class TransitHistory {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /**
   * Labels issued since `since` (`created` attempts with a tracking code) that have no row yet, oldest first: the
   * ones to start a history for.
   */
  async unrecorded(since: number, limit = 200): Promise<UnrecordedLabel[]> {
    const rows = await this.sql.all(
      `SELECT a.id, a.tracking_code, a.request, a.service_code, a.created_at FROM label_attempts a
       WHERE a.state = 'created' AND a.tracking_code IS NOT NULL AND a.created_at >= ?
         AND NOT EXISTS (SELECT 1 FROM parcel_transits t WHERE t.attempt_id = a.id)
       ORDER BY a.created_at, a.id LIMIT ?`,
      [since, limit],
    );
    return rows.map((row) => ({
      attemptId: String(row.id),
      trackingCode: String(row.tracking_code),
      request: String(row.request),
      serviceCode:
        row.service_code === null || row.service_code === undefined ? null : String(row.service_code),
      createdAt: Number(row.created_at),
    }));
  }

  /** Starts the rows of new parcels; a row that exists already stays as it is. Answers how many were started. */
  async start(parcels: readonly NewTransit[], now: number): Promise<number> {
    let started = 0;
    for (const parcel of parcels) {
      const { lane, promise } = parcel;
      started += await this.sql.run(
        `INSERT INTO parcel_transits (attempt_id, tracking_code, origin, service_id, dest_prefix, dest_uf, dest_area,
           dest_region, created_at, created_day, promised_from, promised_to, promised_basis, promised_parcels,
           promised_level, platform_days, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (attempt_id) DO NOTHING`,
        [
          parcel.attemptId,
          parcel.trackingCode,
          parcel.origin,
          parcel.serviceId,
          lane.prefix,
          lane.uf,
          lane.area,
          lane.region,
          parcel.createdAt,
          parcel.createdDay,
          promise?.from ?? null,
          promise?.to ?? null,
          promise?.basis ?? null,
          promise?.parcels ?? null,
          parcel.level ?? null,
          parcel.platformDays ?? null,
          now,
        ],
      );
    }
    return started;
  }

  /** The rows of these labels (those that have one). */
  async of(attemptIds: readonly string[]): Promise<Map<string, TransitRow>> {
    if (attemptIds.length === 0) return new Map();
    const rows = await this.sql.all(
      `SELECT * FROM parcel_transits WHERE attempt_id IN (${placeholders(attemptIds.length)})`,
      [...attemptIds],
    );
    return new Map(rows.map((row) => fromRow(TransitRowSchema, row)).map((row) => [row.attemptId, row]));
  }

  /** Writes what a look taught, on `runner` (the look's transaction). */
  async change(runner: SqlRunner, attemptId: string, change: TransitChange, now: number): Promise<void> {
    const entries = (Object.keys(COLUMNS) as (keyof TransitChange)[]).filter(
      (key) => change[key] !== undefined,
    );
    if (entries.length === 0) return;
    await runner.run(
      `UPDATE parcel_transits SET ${entries.map((key) => `${COLUMNS[key]} = ?`).join(', ')}, updated_at = ?
       WHERE attempt_id = ?`,
      [...entries.map((key) => change[key] ?? null), now, attemptId],
    );
  }

  /** The delivered parcels of a service since `sinceDay` (São Paulo day number) whose transit can be believed. */
  async delivered(serviceId: string, sinceDay: number): Promise<(DeliveredParcel & { origin: string })[]> {
    const rows = await this.sql.all(
      `SELECT * FROM parcel_transits
       WHERE service_id = ? AND outcome = 'delivered' AND ended_day >= ? AND transit_days IS NOT NULL
         AND platform_days IS NOT NULL`,
      [serviceId, sinceDay],
    );
    return rows.map((raw) => {
      const row = fromRow(TransitRowSchema, raw);
      return {
        ...laneOfRow(row),
        origin: row.origin,
        days: row.transitDays ?? 0,
        platformDays: row.platformDays ?? 0,
        endedDay: row.endedDay ?? 0,
        labelledAt: row.createdAt,
      };
    });
  }

  /** The parcels of a service posted and still on the way. */
  async open(serviceId: string): Promise<(OpenParcel & { origin: string })[]> {
    const rows = await this.sql.all(
      `SELECT * FROM parcel_transits
       WHERE service_id = ? AND outcome = 'open' AND posted_day IS NOT NULL AND platform_days IS NOT NULL`,
      [serviceId],
    );
    return rows.map((raw) => {
      const row = fromRow(TransitRowSchema, raw);
      return {
        ...laneOfRow(row),
        origin: row.origin,
        postedDay: row.postedDay ?? 0,
        platformDays: row.platformDays ?? 0,
        labelledAt: row.createdAt,
      };
    });
  }

  /** Delivered parcels sold with a promise and scored against it, delivered since `sinceDay`: the desk's table. */
  async scored(sinceDay: number): Promise<TransitRow[]> {
    const rows = await this.sql.all(
      `SELECT * FROM parcel_transits WHERE outcome = 'delivered' AND late_days IS NOT NULL AND ended_day >= ?`,
      [sinceDay],
    );
    return rows.map((row) => fromRow(TransitRowSchema, row));
  }

  /**
   * The promises the parcels of these tracking codes were sold with, while they are on the way (a delivered or
   * returned parcel has no promise left to show): the tracking page's "previsão".
   */
  async promisedFor(codes: readonly string[]): Promise<Map<string, TransitRow>> {
    if (codes.length === 0) return new Map();
    const rows = await this.sql.all(
      `SELECT * FROM parcel_transits
       WHERE tracking_code IN (${placeholders(codes.length)}) AND outcome = 'open' AND promised_to IS NOT NULL`,
      [...codes],
    );
    return new Map(rows.map((row) => fromRow(TransitRowSchema, row)).map((row) => [row.trackingCode, row]));
  }

  /** Forgets the parcels of labels issued more than `HISTORY_DAYS` ago; answers how many. */
  prune(now: number): Promise<number> {
    return this.sql.run('DELETE FROM parcel_transits WHERE created_at < ?', [now - HISTORY_DAYS * DAY_MS]);
  }
}
