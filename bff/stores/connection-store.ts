import * as z from 'zod/mini';
import type { Migration } from '../../shared/sql/migrate.ts';
import type { Sql } from '../../shared/sql/sql.ts';

/**
 * The stores connected by an install or a grant (docs/checkout/connect.md), in the ledger's database:
 *
 * - `store_connections`: one row per store (`platform`, `shop`), its token and refresh token sealed (store-key.ts),
 *   when they expire, when to renew and why the last renewal failed, what the install registered. A token and its
 *   refresh token are written together, in one statement, and only over the pair that was read (`swap`): two
 *   instances renewing at once leave one pair, never a token of one answer beside the refresh token of another.
 * - `store_install_states`: the one-use `state` of a Shopify install between the app URL and the callback.
 */
export const CONNECTION_MIGRATIONS: readonly Migration[] = [
  {
    id: '611-store-connections',
    sql: `
      CREATE TABLE store_connections (
        platform TEXT NOT NULL,
        shop TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT,
        refresh TEXT,
        issued_at BIGINT,
        expires_at BIGINT,
        refresh_expires_at BIGINT,
        renew_at BIGINT,
        renew_tries INTEGER NOT NULL DEFAULT 0,
        renew_error TEXT,
        carrier TEXT NOT NULL DEFAULT 'missing',
        webhooks TEXT NOT NULL DEFAULT '[]',
        connected_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (platform, shop)
      );
      CREATE TABLE store_install_states (
        state TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        shop TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )
    `,
  },
];

export const CONNECTION_KINDS = ['static', 'client_credentials', 'expiring', 'nuvemshop'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];
export type StorePlatform = 'shopify' | 'nuvemshop';

const RowSchema = z.object({
  platform: z.enum(['shopify', 'nuvemshop']),
  shop: z.string(),
  kind: z.enum(CONNECTION_KINDS),
  token: z.nullable(z.string()),
  refresh: z.nullable(z.string()),
  issued_at: z.nullable(z.coerce.number()),
  expires_at: z.nullable(z.coerce.number()),
  refresh_expires_at: z.nullable(z.coerce.number()),
  renew_at: z.nullable(z.coerce.number()),
  renew_tries: z.coerce.number(),
  renew_error: z.nullable(z.string()),
  carrier: z.enum(['registered', 'missing', 'error']),
  webhooks: z.string(),
  updated_at: z.coerce.number(),
});
/** A row as stored: `token` and `refresh` still sealed. */
export type ConnectionRow = z.infer<typeof RowSchema>;

/** A token pair as a grant answered it, sealed by the caller. */
export interface SealedGrant {
  kind: ConnectionKind;
  token: string;
  refresh: string | null;
  issuedAt: number;
  expiresAt: number | null;
  refreshExpiresAt: number | null;
  renewAt: number | null;
}

const COLUMNS =
  'platform, shop, kind, token, refresh, issued_at, expires_at, refresh_expires_at, renew_at, renew_tries, renew_error, carrier, webhooks, updated_at';

/** How long an install's `state` may wait for its callback (the contract: 10 minutes). */
export const INSTALL_STATE_MS = 10 * 60_000;
/** The install states a shop keeps at once (the newest): a replayed app URL cannot grow the table without bound. */
export const INSTALL_STATE_LIMIT = 5;

export class ConnectionStore {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async get(platform: StorePlatform, shop: string): Promise<ConnectionRow | undefined> {
    const row = await this.sql.one(
      `SELECT ${COLUMNS} FROM store_connections WHERE platform = ? AND shop = ?`,
      [platform, shop],
    );
    return row ? RowSchema.parse(row) : undefined;
  }

  async list(): Promise<ConnectionRow[]> {
    const rows = await this.sql.all(`SELECT ${COLUMNS} FROM store_connections ORDER BY platform, shop`);
    return rows.map((row) => RowSchema.parse(row));
  }

  /** The platform's store that has a token, the most recently connected first. */
  async connected(platform: StorePlatform): Promise<ConnectionRow | undefined> {
    const row = await this.sql.one(
      `SELECT ${COLUMNS} FROM store_connections WHERE platform = ? AND token IS NOT NULL ORDER BY updated_at DESC LIMIT 1`,
      [platform],
    );
    return row ? RowSchema.parse(row) : undefined;
  }

  /** The platform's store connected last, with a token or since uninstalled (whose orders the kit took). */
  async latest(platform: StorePlatform): Promise<string | undefined> {
    const row = await this.sql.one(
      'SELECT shop FROM store_connections WHERE platform = ? ORDER BY updated_at DESC LIMIT 1',
      [platform],
    );
    return row ? String(row.shop) : undefined;
  }

  /** A new connection (an install, a first grant): the row written whole, whatever was there. */
  async connect(platform: StorePlatform, shop: string, grant: SealedGrant, now: number): Promise<void> {
    const values = [
      grant.kind,
      grant.token,
      grant.refresh,
      grant.issuedAt,
      grant.expiresAt,
      grant.refreshExpiresAt,
      grant.renewAt,
      now,
    ];
    await this.sql.run(
      `INSERT INTO store_connections (platform, shop, kind, token, refresh, issued_at, expires_at, refresh_expires_at, renew_at, renew_tries, renew_error, updated_at, connected_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?)
       ON CONFLICT (platform, shop) DO UPDATE SET kind = ?, token = ?, refresh = ?, issued_at = ?, expires_at = ?,
         refresh_expires_at = ?, renew_at = ?, renew_tries = 0, renew_error = NULL, updated_at = ?, connected_at = ?`,
      [platform, shop, ...values, now, ...values, now],
    );
  }

  /**
   * A renewal's pair written over the one it was renewed from (`readToken`), in one statement: false when another
   * instance renewed first (its pair stays) or the store was disconnected meanwhile.
   */
  async swap(
    platform: StorePlatform,
    shop: string,
    readToken: string,
    grant: SealedGrant,
    now: number,
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE store_connections SET token = ?, refresh = ?, issued_at = ?, expires_at = ?, refresh_expires_at = ?,
         renew_at = ?, renew_tries = 0, renew_error = NULL, updated_at = ?
       WHERE platform = ? AND shop = ? AND token = ?`,
      [
        grant.token,
        grant.refresh,
        grant.issuedAt,
        grant.expiresAt,
        grant.refreshExpiresAt,
        grant.renewAt,
        now,
        platform,
        shop,
        readToken,
      ],
    );
    return changed > 0;
  }

  /** A failed renewal: when to try again and why it failed (shown on the desk). */
  async renewFailed(platform: StorePlatform, shop: string, error: string, retryAt: number): Promise<void> {
    await this.sql.run(
      `UPDATE store_connections SET renew_tries = renew_tries + 1, renew_error = ?, renew_at = ?
       WHERE platform = ? AND shop = ? AND token IS NOT NULL`,
      [error.slice(0, 300), retryAt, platform, shop],
    );
  }

  async registered(
    platform: StorePlatform,
    shop: string,
    carrier: ConnectionRow['carrier'],
    webhooks: string[],
  ): Promise<void> {
    await this.sql.run(
      'UPDATE store_connections SET carrier = ?, webhooks = ? WHERE platform = ? AND shop = ?',
      [carrier, JSON.stringify(webhooks), platform, shop],
    );
  }

  /**
   * Uninstalled or disconnected: the tokens gone, the row kept so the desk says how to reconnect. `happenedAt`: when
   * the platform says the uninstall happened; a connection made after it (a reinstall, then the platform's late retry of
   * the old uninstall) is kept.
   */
  async disconnect(
    platform: StorePlatform,
    shop: string,
    now: number,
    happenedAt = Number.MAX_SAFE_INTEGER,
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE store_connections SET token = NULL, refresh = NULL, expires_at = NULL, refresh_expires_at = NULL,
         renew_at = NULL, renew_error = NULL, carrier = 'missing', webhooks = '[]', updated_at = ?
       WHERE platform = ? AND shop = ? AND token IS NOT NULL AND connected_at <= ?`,
      [now, platform, shop, happenedAt],
    );
    return changed > 0;
  }

  /** A store known only from the variables, recorded as disconnected (no token): nothing is sent to it until it connects. */
  async markDisconnected(
    platform: StorePlatform,
    shop: string,
    kind: ConnectionKind,
    now: number,
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO store_connections (platform, shop, kind, token, refresh, updated_at, connected_at)
       VALUES (?, ?, ?, NULL, NULL, ?, ?) ON CONFLICT (platform, shop) DO NOTHING`,
      [platform, shop, kind, now, now],
    );
    return changed > 0;
  }

  /** The connections whose renewal is due. */
  async due(now: number): Promise<ConnectionRow[]> {
    const rows = await this.sql.all(
      `SELECT ${COLUMNS} FROM store_connections WHERE token IS NOT NULL AND renew_at IS NOT NULL AND renew_at <= ?`,
      [now],
    );
    return rows.map((row) => RowSchema.parse(row));
  }

  async addState(state: string, platform: StorePlatform, shop: string, now: number): Promise<void> {
    await this.sql.run('DELETE FROM store_install_states WHERE created_at < ?', [now - INSTALL_STATE_MS]);
    await this.sql.run(
      'INSERT INTO store_install_states (state, platform, shop, created_at) VALUES (?, ?, ?, ?)',
      [state, platform, shop, now],
    );
    await this.sql.run(
      `DELETE FROM store_install_states WHERE platform = ? AND shop = ? AND state NOT IN (
         SELECT state FROM store_install_states WHERE platform = ? AND shop = ?
         ORDER BY created_at DESC, state LIMIT ${INSTALL_STATE_LIMIT})`,
      [platform, shop, platform, shop],
    );
  }

  /** The state's shop, once (the DELETE decides: two callbacks with it cannot both take it), if not expired. */
  async takeState(state: string, platform: StorePlatform, now: number): Promise<string | undefined> {
    const row = await this.sql.one(
      'SELECT shop, created_at FROM store_install_states WHERE state = ? AND platform = ?',
      [state, platform],
    );
    if (!row) return undefined;
    const taken = await this.sql.run('DELETE FROM store_install_states WHERE state = ?', [state]);
    if (taken === 0 || Number(row.created_at) < now - INSTALL_STATE_MS) return undefined;
    return String(row.shop);
  }
}
