import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { PRIVACY_KINDS, type PrivacyRequest } from '../../shared/checkouts/privacy.ts';
import { MigratedStore, type Migration } from '../../shared/sql/migrate.ts';
import { isUniqueViolation, type Sql } from '../../shared/sql/sql.ts';
import type { ErasureCounts } from './erasure.ts';

/**
 * The privacy requests the stores sent (docs/privacy.md), in the ledger's database, ids 8xx. One row per request:
 * the platform's delivery id UNIQUE (a retried webhook is one request), the customer as the platform named them
 * (emptied when that customer is erased; a redaction keeps none), the platform's ids of the orders it names, and for a
 * redaction what was erased (counts).
 */
export const PRIVACY_MIGRATIONS: readonly Migration[] = [
  {
    id: '801-privacy-requests',
    sql: `
      CREATE TABLE privacy_requests (
        id TEXT PRIMARY KEY,
        delivery_id TEXT UNIQUE,
        platform TEXT NOT NULL,
        store TEXT NOT NULL,
        kind TEXT NOT NULL,
        customer TEXT NOT NULL,
        orders TEXT NOT NULL,
        request_id TEXT,
        erased TEXT,
        received_at BIGINT NOT NULL
      );
      CREATE INDEX privacy_requests_by_time ON privacy_requests (received_at)
    `,
  },
];

export const StoredPrivacyRequestSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  platform: z.enum(['shopify', 'nuvemshop']),
  store: z.string(),
  kind: z.enum(PRIVACY_KINDS),
  customer: z.object({
    id: z.optional(z.string()),
    email: z.optional(z.string()),
    phone: z.optional(z.string()),
    identification: z.optional(z.string()),
  }),
  orders: z.array(z.string()),
  requestId: z.optional(z.string()),
  erased: z.optional(
    z.object({
      orders: z.number(),
      labels: z.number(),
      approvals: z.number(),
      emails: z.number(),
      requests: z.number(),
    }),
  ),
  receivedAt: z.string(),
});
export type StoredPrivacyRequest = z.infer<typeof StoredPrivacyRequestSchema>;

function toStored(row: Record<string, unknown>): StoredPrivacyRequest {
  return StoredPrivacyRequestSchema.parse({
    id: row.id,
    platform: row.platform,
    store: row.store,
    kind: row.kind,
    customer: JSON.parse(String(row.customer)),
    orders: JSON.parse(String(row.orders)),
    ...(row.request_id === null ? {} : { requestId: row.request_id }),
    ...(row.erased === null ? {} : { erased: JSON.parse(String(row.erased)) }),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
  });
}

/** How many requests the desk lists at most (newest first). */
export const LISTED_REQUESTS = 200;

export class PrivacyRequests extends MigratedStore {
  constructor(sql: Sql, options: { now?: () => number } = {}) {
    super(sql, PRIVACY_MIGRATIONS, options.now);
  }

  /**
   * Keeps a request; `false` when its delivery was kept before (a retry). A redaction's customer is not kept: only
   * what was erased.
   */
  async record(
    request: PrivacyRequest,
    options: { deliveryId?: string; erased?: ErasureCounts },
  ): Promise<boolean> {
    const customer = request.kind === 'data_request' ? request.customer : {};
    try {
      await this.sql.run(
        `INSERT INTO privacy_requests (id, delivery_id, platform, store, kind, customer, orders, request_id, erased,
           received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          randomUUID(),
          options.deliveryId ?? null,
          request.platform,
          request.store,
          request.kind,
          JSON.stringify(customer),
          JSON.stringify(request.orders),
          request.requestId ?? null,
          options.erased ? JSON.stringify(options.erased) : null,
          this.now(),
        ],
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether this delivery was kept before (a platform's retry, answered without doing it again). */
  async seen(deliveryId: string): Promise<boolean> {
    return (
      (await this.sql.one('SELECT id FROM privacy_requests WHERE delivery_id = ?', [deliveryId])) !==
      undefined
    );
  }

  async list(): Promise<StoredPrivacyRequest[]> {
    const rows = await this.sql.all(
      `SELECT * FROM privacy_requests ORDER BY received_at DESC, id LIMIT ${LISTED_REQUESTS}`,
    );
    return rows.map(toStored);
  }

  async get(id: string): Promise<StoredPrivacyRequest | undefined> {
    const row = await this.sql.one('SELECT * FROM privacy_requests WHERE id = ?', [id]);
    return row ? toStored(row) : undefined;
  }
}
