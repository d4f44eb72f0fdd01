import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MigratedStore } from '../sql/migrate.ts';
import type { Row, Sql, SqlValue } from '../sql/sql.ts';
import { OAUTH_MIGRATIONS } from './migrations.ts';

/** A registered client as stored: its metadata, without the client id (only its hash is kept). */
export interface ClientRecord {
  /** SHA-256 of the client id, hex: the row's key and the handle `/admin/agents` revokes by. */
  idHash: string;
  metadata: Omit<OAuthClientInformationFull, 'client_id'>;
  createdAt: number;
  /** Epoch ms of the last `/mcp` call with one of its tokens, or null. */
  lastUsedAt: number | null;
  /** Epoch ms of the first consent the merchant gave it, or null: a client never consented to is purged after a day. */
  consentedAt?: number | null;
  /** What the server keeps about it beyond OAuth (the BFF: the agent's policy, JSON), or null. */
  policy?: string | null;
  /**
   * A client identified by a metadata document: its `client_id`, the document's URL (public, unlike a registered
   * client's id, which is kept only hashed); null for a registered client.
   */
  documentUrl?: string | null;
  /** SHA-256 of the address (IPv4, IPv6 /64) it was registered from, or null: the per-address cap counts by it. */
  registeredFrom?: string | null;
}

/** How many registrations without a completed consent are kept, and for how long (`OAuthStore.registerClient`). */
export interface PendingBounds {
  /** A client never consented to is deleted once older than this. */
  maxAgeMs: number;
  /** At most this many in all: the oldest goes first. */
  maxInAll: number;
  /** At most this many from one address: that address's oldest goes first. */
  maxPerAddress: number;
}

/** What a grant (one approved consent) binds: who approved, for what, for which resource. */
export interface GrantFields {
  clientIdHash: string;
  /** Ties every code and token of one consent together, so a replay or a revoke ends them all. */
  grantId: string;
  /** Who approved: a sandbox store id, or `merchant` on the BFF. */
  subject: string;
  scopes: string[];
  resource: string;
  expiresAt: number;
}

export interface CodeRecord extends GrantFields {
  codeChallenge: string;
  redirectUri: string;
}

export interface TokenRecord extends GrantFields {
  kind: 'access' | 'refresh';
}

/** What `useCode`/`useRefreshToken` found: the record when it was unused, `reused` when it had been spent. */
export type Spend<T> = { state: 'fresh'; record: T } | { state: 'reused'; record: T } | { state: 'unknown' };

export type SessionKind = 'consent' | 'admin';

/** Oldest first among clients without consent (`registration` breaks ties of the same millisecond). */
const OLDEST_FIRST = 'ORDER BY created_at, registration, id_hash';

/** The columns every code and token row shares (one approved consent). */
const GRANT_COLUMNS = 'client_id_hash, grant_id, subject, scopes, resource, expires_at';

function grant(row: Row): GrantFields {
  return {
    clientIdHash: String(row.client_id_hash),
    grantId: String(row.grant_id),
    subject: String(row.subject),
    scopes: String(row.scopes).split(' ').filter(Boolean),
    resource: String(row.resource),
    expiresAt: Number(row.expires_at),
  };
}

const grantValues = (record: GrantFields) =>
  [
    record.clientIdHash,
    record.grantId,
    record.subject,
    record.scopes.join(' '),
    record.resource,
    record.expiresAt,
  ] as const;

const toClient = (row: Row): ClientRecord => ({
  idHash: String(row.id_hash),
  metadata: JSON.parse(String(row.metadata)),
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  consentedAt: row.consented_at === null || row.consented_at === undefined ? null : Number(row.consented_at),
  policy: typeof row.policy === 'string' ? row.policy : null,
  documentUrl: typeof row.document_url === 'string' ? row.document_url : null,
  registeredFrom: typeof row.registered_from === 'string' ? row.registered_from : null,
});

const toCode = (row: Row): CodeRecord => ({
  ...grant(row),
  codeChallenge: String(row.code_challenge),
  redirectUri: String(row.redirect_uri),
});

const toToken = (row: Row): TokenRecord & { used: boolean } => ({
  ...grant(row),
  kind: row.kind === 'refresh' ? 'refresh' : 'access',
  used: Number(row.used) === 1,
});

/**
 * Storage of OAuth clients, codes and tokens, keyed by SHA-256 hashes (a leaked table holds no usable secret), over
 * the one SQL layer: node:sqlite (the BFF's `oauth.sqlite`; the sandbox in memory) or PostgreSQL (shared by every
 * BFF instance). Single use comes from one conditional `UPDATE … RETURNING`: of two exchanges of one code at once,
 * in one process or two instances, exactly one sees it fresh.
 */
export class OAuthStore extends MigratedStore {
  constructor(sql: Sql) {
    super(sql, OAUTH_MIGRATIONS);
  }

  async putClient(client: ClientRecord): Promise<void> {
    await this.sql.run(
      'INSERT INTO oauth_clients (id_hash, metadata, created_at, last_used_at) VALUES (?, ?, ?, ?)',
      [client.idHash, JSON.stringify(client.metadata), client.createdAt, client.lastUsedAt],
    );
  }

  /**
   * Stores a document client as of the merchant's consent: inserted the first time, its metadata replaced after
   * (policy, consent and last use are kept). One statement, so two consents at once leave one row.
   */
  async putDocumentClient(client: ClientRecord & { documentUrl: string }): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_clients (id_hash, metadata, created_at, last_used_at, document_url) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id_hash) DO UPDATE SET metadata = excluded.metadata, document_url = excluded.document_url`,
      [
        client.idHash,
        JSON.stringify(client.metadata),
        client.createdAt,
        client.lastUsedAt,
        client.documentUrl,
      ],
    );
  }

  /**
   * Registers a client (dynamic registration) within the bounds on clients without a completed consent, in one
   * transaction: those older than `maxAgeMs` are deleted, then the oldest of its address beyond `maxPerAddress`, then
   * the oldest of all beyond `maxInAll`, and then it is inserted. A registration is never refused (no lockout), and a
   * client the merchant consented to is never touched. Clients without consent hold no code or token.
   */
  async registerClient(client: ClientRecord, bounds: PendingBounds): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.lock('oauth_clients');
      await tx.run('DELETE FROM oauth_clients WHERE consented_at IS NULL AND created_at < ?', [
        client.createdAt - bounds.maxAgeMs,
      ]);
      const evict = async (of: { where: string; params: SqlValue[] }, keep: number) => {
        const held = await tx.one(
          `SELECT COUNT(*) AS n FROM oauth_clients WHERE consented_at IS NULL ${of.where}`,
          of.params,
        );
        const over = Number(held?.n ?? 0) - keep;
        if (over <= 0) return;
        await tx.run(
          `DELETE FROM oauth_clients WHERE id_hash IN (SELECT id_hash FROM oauth_clients
             WHERE consented_at IS NULL ${of.where} ${OLDEST_FIRST} LIMIT ?)`,
          [...of.params, over],
        );
      };
      if (client.registeredFrom) {
        await evict(
          { where: 'AND registered_from = ?', params: [client.registeredFrom] },
          bounds.maxPerAddress - 1,
        );
      }
      await evict({ where: '', params: [] }, bounds.maxInAll - 1);
      const last = await tx.one('SELECT MAX(registration) AS n FROM oauth_clients');
      await tx.run(
        `INSERT INTO oauth_clients (id_hash, metadata, created_at, last_used_at, registered_from, registration)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [
          client.idHash,
          JSON.stringify(client.metadata),
          client.createdAt,
          client.lastUsedAt,
          client.registeredFrom ?? null,
          Number(last?.n ?? 0) + 1,
        ],
      );
    });
  }

  async getClient(idHash: string): Promise<ClientRecord | undefined> {
    const row = await this.sql.one('SELECT * FROM oauth_clients WHERE id_hash = ?', [idHash]);
    return row && toClient(row);
  }

  async listClients(): Promise<ClientRecord[]> {
    return (await this.sql.all('SELECT * FROM oauth_clients ORDER BY created_at')).map(toClient);
  }

  /**
   * One page of the clients the merchant consented to, the most recently consented first (`/admin/agents`): one
   * query, whatever the number of registrations.
   */
  async consentedClients(page: { limit: number; offset: number }): Promise<ClientRecord[]> {
    const rows = await this.sql.all(
      `SELECT * FROM oauth_clients WHERE consented_at IS NOT NULL
       ORDER BY consented_at DESC, id_hash LIMIT ? OFFSET ?`,
      [page.limit, page.offset],
    );
    return rows.map(toClient);
  }

  /** How many clients the merchant consented to. */
  async countConsentedClients(): Promise<number> {
    const row = await this.sql.one('SELECT COUNT(*) AS n FROM oauth_clients WHERE consented_at IS NOT NULL');
    return Number(row?.n ?? 0);
  }

  /** Deletes the client and every code and token it holds. */
  async deleteClient(idHash: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      await tx.run('DELETE FROM oauth_tokens WHERE client_id_hash = ?', [idHash]);
      await tx.run('DELETE FROM oauth_codes WHERE client_id_hash = ?', [idHash]);
      return (await tx.run('DELETE FROM oauth_clients WHERE id_hash = ?', [idHash])) > 0;
    });
  }

  async touchClient(idHash: string, at: number): Promise<void> {
    await this.sql.run('UPDATE oauth_clients SET last_used_at = ? WHERE id_hash = ?', [at, idHash]);
  }

  /** Records the merchant's first consent to a client (a later one keeps the first time). */
  async markConsented(idHash: string, at: number): Promise<void> {
    await this.sql.run(
      'UPDATE oauth_clients SET consented_at = ? WHERE id_hash = ? AND consented_at IS NULL',
      [at, idHash],
    );
  }

  /** Sets (or, with null, clears) what the server keeps about a client beyond OAuth: the BFF's agent policy. */
  async setPolicy(idHash: string, policy: string | null): Promise<boolean> {
    return (
      (await this.sql.run('UPDATE oauth_clients SET policy = ? WHERE id_hash = ?', [policy, idHash])) === 1
    );
  }

  async putCode(hash: string, code: CodeRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_codes (hash, ${GRANT_COLUMNS}, code_challenge, redirect_uri) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [hash, ...grantValues(code), code.codeChallenge, code.redirectUri],
    );
  }

  async getCode(hash: string): Promise<CodeRecord | undefined> {
    const row = await this.sql.one('SELECT * FROM oauth_codes WHERE hash = ?', [hash]);
    return row && toCode(row);
  }

  /** Marks the code used; answers whether it was fresh, already used, or unknown. */
  async spendCode(hash: string): Promise<Spend<CodeRecord>> {
    const fresh = await this.sql.one(
      'UPDATE oauth_codes SET used = 1 WHERE hash = ? AND used = 0 RETURNING *',
      [hash],
    );
    if (fresh) return { state: 'fresh', record: toCode(fresh) };
    const record = await this.getCode(hash);
    return record ? { state: 'reused', record } : { state: 'unknown' };
  }

  async putToken(hash: string, token: TokenRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_tokens (hash, kind, ${GRANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [hash, token.kind, ...grantValues(token)],
    );
  }

  /** The token, `used` once a refresh token was rotated. */
  async getToken(hash: string): Promise<(TokenRecord & { used: boolean }) | undefined> {
    const row = await this.sql.one('SELECT * FROM oauth_tokens WHERE hash = ?', [hash]);
    return row && toToken(row);
  }

  /** Marks a refresh token used (rotation); answers whether it was fresh, already used, or unknown (or not one). */
  async spendToken(hash: string): Promise<Spend<TokenRecord>> {
    const fresh = await this.sql.one(
      "UPDATE oauth_tokens SET used = 1 WHERE hash = ? AND kind = 'refresh' AND used = 0 RETURNING *",
      [hash],
    );
    const found = fresh ? toToken(fresh) : await this.getToken(hash);
    if (found?.kind !== 'refresh') return { state: 'unknown' };
    const { used: _used, ...record } = found;
    return { state: fresh ? 'fresh' : 'reused', record };
  }

  /** Deletes every code and token of a grant. */
  async deleteGrant(grantId: string): Promise<void> {
    await this.sql.run('DELETE FROM oauth_tokens WHERE grant_id = ?', [grantId]);
    await this.sql.run('DELETE FROM oauth_codes WHERE grant_id = ?', [grantId]);
  }

  /** Deletes codes, tokens and sessions expired before `now`. */
  async purgeExpired(now: number): Promise<void> {
    await this.sql.run('DELETE FROM oauth_tokens WHERE expires_at < ?', [now]);
    await this.sql.run('DELETE FROM oauth_codes WHERE expires_at < ?', [now]);
    await this.sql.run('DELETE FROM oauth_sessions WHERE expires_at < ?', [now]);
  }

  /** The scopes the live tokens of each of these clients hold, in one query (a page of `/admin/agents`). */
  async activeScopesOf(idHashes: readonly string[], now: number): Promise<Map<string, string[]>> {
    const scopes = new Map<string, Set<string>>(idHashes.map((id) => [id, new Set<string>()]));
    if (idHashes.length === 0) return new Map();
    const rows = await this.sql.all(
      `SELECT client_id_hash, scopes FROM oauth_tokens
       WHERE client_id_hash IN (${idHashes.map(() => '?').join(', ')}) AND used = 0 AND expires_at >= ?`,
      [...idHashes, now],
    );
    for (const row of rows) {
      const held = scopes.get(String(row.client_id_hash));
      for (const scope of String(row.scopes).split(' ').filter(Boolean)) held?.add(scope);
    }
    return new Map([...scopes].map(([id, set]) => [id, [...set]]));
  }

  /**
   * Short-lived records keyed by the hash of a secret the browser holds: consent tickets (`consent`) and `/admin`
   * sessions (`admin`). Stored here, not in process memory, so any instance can take the next step.
   */
  async putSession(hash: string, kind: SessionKind, payload: string, expiresAt: number): Promise<void> {
    await this.sql.run('INSERT INTO oauth_sessions (hash, kind, payload, expires_at) VALUES (?, ?, ?, ?)', [
      hash,
      kind,
      payload,
      expiresAt,
    ]);
  }

  /** The payload, or undefined when unknown, of another kind, or expired at `now`. */
  async getSession(hash: string, kind: SessionKind, now: number): Promise<string | undefined> {
    const row = await this.sql.one(
      'SELECT payload FROM oauth_sessions WHERE hash = ? AND kind = ? AND expires_at > ?',
      [hash, kind, now],
    );
    return row ? String(row.payload) : undefined;
  }

  /** Deletes it; answers whether it existed (so of two concurrent uses, one wins). */
  async deleteSession(hash: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM oauth_sessions WHERE hash = ?', [hash])) > 0;
  }

  /** Forgets everything (the sandbox's reset). */
  async clear(): Promise<void> {
    for (const table of ['oauth_tokens', 'oauth_codes', 'oauth_sessions', 'oauth_clients']) {
      await this.sql.run(`DELETE FROM ${table}`);
    }
  }
}
