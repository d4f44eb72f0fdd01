import * as z from 'zod/mini';
import type { Migration } from '../../shared/sql/migrate.ts';
import type { Sql, SqlRunner } from '../../shared/sql/sql.ts';

/**
 * The stores connected by an install or a grant (docs/checkout/connect.md), in the ledger's database:
 *
 * - `store_connections`: one row per store (`platform`, `shop`), its token and refresh token sealed (store-key.ts),
 *   when they expire, when to renew and why the last renewal failed, what the install registered. A token and its
 *   refresh token are written together, in one statement, and only over the pair that was read (`swap`): two
 *   instances renewing at once leave one pair, never a token of one answer beside the refresh token of another.
 * - `store_install_states`: the one-use `state` of a Shopify install between the app URL and the callback.
 * - `store_pending_installs`: an install of a platform with no configured store, by a store never connected before,
 *   held until the merchant approves it on `/admin/stores` (issue 44, finding 14: else the first store to install the
 *   app, a stranger's, became the BFF's store). Its token sealed as a connection's; nothing registered; at most
 *   `PENDING_INSTALL_LIMIT` per platform, each for `PENDING_INSTALL_MS`.
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
  {
    id: '612-store-pending-installs',
    sql: `
      CREATE TABLE store_pending_installs (
        platform TEXT NOT NULL,
        shop TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT NOT NULL,
        refresh TEXT,
        issued_at BIGINT NOT NULL,
        expires_at BIGINT,
        refresh_expires_at BIGINT,
        renew_at BIGINT,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (platform, shop)
      )
    `,
  },
];

/** How long an install waits for the merchant's approval: past it, its token is discarded (install again). */
export const PENDING_INSTALL_MS = 24 * 3600_000;
/** Installs a platform holds at once: more are refused until the merchant approves or rejects one. */
export const PENDING_INSTALL_LIMIT = 5;

/** An install waiting for the merchant's approval (its token still sealed). */
export interface PendingInstall {
  platform: StorePlatform;
  shop: string;
  grant: SealedGrant;
  createdAt: number;
}

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
    await connectOn(this.sql, platform, shop, grant, now);
  }

  /**
   * An install's connection, unless another store of the platform is connected: checked again where it is written
   * (one transaction under the platform's lock, as `approvePending`), since the install's own check came before its
   * code exchange. Answers the other store when one is connected (nothing written), else undefined.
   */
  async connectAlone(
    platform: StorePlatform,
    shop: string,
    grant: SealedGrant,
    now: number,
  ): Promise<string | undefined> {
    return this.sql.transaction(async (tx) => {
      await tx.lock(`store-connect:${platform}`);
      const other = await otherConnected(tx, platform, shop);
      if (other === undefined) await connectOn(tx, platform, shop, grant, now);
      return other;
    });
  }

  /**
   * A held install approved: connected unless another store of the platform is, and taken out of the held ones, in
   * one transaction under the platform's lock, so two approves at once (two tabs, two instances) connect one store.
   */
  async approvePending(
    platform: StorePlatform,
    shop: string,
    now: number,
  ): Promise<'approved' | 'not_found' | 'other_connected'> {
    return this.sql.transaction(async (tx) => {
      await tx.lock(`store-connect:${platform}`);
      if ((await otherConnected(tx, platform, shop)) !== undefined) return 'other_connected';
      const held = await takePendingOn(tx, platform, shop, now);
      if (!held) return 'not_found';
      await connectOn(tx, platform, shop, held.grant, now);
      return 'approved';
    });
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
   * the old uninstall) is kept. `updated_at` then says when it was disconnected (connection-windows.ts reads it so).
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

  /**
   * An install held for the merchant's approval, replacing the shop's earlier one: false when the platform already
   * holds `PENDING_INSTALL_LIMIT` others (expired ones pruned first).
   */
  async hold(platform: StorePlatform, shop: string, grant: SealedGrant, now: number): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      await tx.lock(`store-pending:${platform}`);
      await tx.run('DELETE FROM store_pending_installs WHERE created_at < ?', [now - PENDING_INSTALL_MS]);
      const others = await tx.one(
        'SELECT COUNT(*) AS n FROM store_pending_installs WHERE platform = ? AND shop <> ?',
        [platform, shop],
      );
      if (Number(others?.n ?? 0) >= PENDING_INSTALL_LIMIT) return false;
      await tx.run('DELETE FROM store_pending_installs WHERE platform = ? AND shop = ?', [platform, shop]);
      await tx.run(
        `INSERT INTO store_pending_installs (platform, shop, kind, token, refresh, issued_at, expires_at,
           refresh_expires_at, renew_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [platform, shop, ...grantColumns(grant), now],
      );
      return true;
    });
  }

  /** The installs waiting for approval, oldest first (expired ones left out). */
  async pending(now: number): Promise<PendingInstall[]> {
    const rows = await this.sql.all(
      'SELECT * FROM store_pending_installs WHERE created_at >= ? ORDER BY created_at, platform, shop',
      [now - PENDING_INSTALL_MS],
    );
    return rows.map((row) => PendingRowSchema.parse(row)).map(pendingOf);
  }

  /** A pending install taken out (approved or rejected), once: two clicks cannot both take it. */
  async takePending(platform: StorePlatform, shop: string, now: number): Promise<PendingInstall | undefined> {
    return takePendingOn(this.sql, platform, shop, now);
  }
}

const PendingRowSchema = z.object({
  platform: z.enum(['shopify', 'nuvemshop']),
  shop: z.string(),
  kind: z.enum(CONNECTION_KINDS),
  token: z.string(),
  refresh: z.nullable(z.string()),
  issued_at: z.coerce.number(),
  expires_at: z.nullable(z.coerce.number()),
  refresh_expires_at: z.nullable(z.coerce.number()),
  renew_at: z.nullable(z.coerce.number()),
  created_at: z.coerce.number(),
});

function pendingOf(row: z.infer<typeof PendingRowSchema>): PendingInstall {
  return {
    platform: row.platform,
    shop: row.shop,
    grant: {
      kind: row.kind,
      token: row.token,
      refresh: row.refresh,
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
      refreshExpiresAt: row.refresh_expires_at,
      renewAt: row.renew_at,
    },
    createdAt: row.created_at,
  };
}

/** A grant's seven columns, in the order both tables list them (kind, token, refresh and the four times). */
function grantColumns(grant: SealedGrant): (string | number | null)[] {
  return [
    grant.kind,
    grant.token,
    grant.refresh,
    grant.issuedAt,
    grant.expiresAt,
    grant.refreshExpiresAt,
    grant.renewAt,
  ];
}

/** A connection's row written whole, whatever was there (on the database or in a transaction). */
async function connectOn(
  runner: SqlRunner,
  platform: StorePlatform,
  shop: string,
  grant: SealedGrant,
  now: number,
): Promise<void> {
  const values = [...grantColumns(grant), now];
  await runner.run(
    `INSERT INTO store_connections (platform, shop, kind, token, refresh, issued_at, expires_at, refresh_expires_at, renew_at, renew_tries, renew_error, updated_at, connected_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?)
     ON CONFLICT (platform, shop) DO UPDATE SET kind = ?, token = ?, refresh = ?, issued_at = ?, expires_at = ?,
       refresh_expires_at = ?, renew_at = ?, renew_tries = 0, renew_error = NULL, updated_at = ?, connected_at = ?`,
    [platform, shop, ...values, now, ...values, now],
  );
}

/** A held install taken out, once (the DELETE decides: two takers cannot both have it), if not expired. */
async function takePendingOn(
  runner: SqlRunner,
  platform: StorePlatform,
  shop: string,
  now: number,
): Promise<PendingInstall | undefined> {
  const row = await runner.one(
    'SELECT * FROM store_pending_installs WHERE platform = ? AND shop = ? AND created_at >= ?',
    [platform, shop, now - PENDING_INSTALL_MS],
  );
  if (!row) return undefined;
  const held = pendingOf(PendingRowSchema.parse(row));
  const taken = await runner.run(
    'DELETE FROM store_pending_installs WHERE platform = ? AND shop = ? AND created_at = ?',
    [platform, shop, held.createdAt],
  );
  return taken === 0 ? undefined : held;
}

/** Another store of the platform with a token, if any. */
async function otherConnected(
  runner: SqlRunner,
  platform: StorePlatform,
  shop: string,
): Promise<string | undefined> {
  const row = await runner.one(
    'SELECT shop FROM store_connections WHERE platform = ? AND shop <> ? AND token IS NOT NULL LIMIT 1',
    [platform, shop],
  );
  return row ? String(row.shop) : undefined;
}
