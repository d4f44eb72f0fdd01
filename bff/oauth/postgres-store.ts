import type pg from 'pg';
import type {
  ClientRecord,
  CodeRecord,
  OAuthStore,
  SessionKind,
  Spend,
  TokenRecord,
} from '../../shared/oauth/store.ts';
import { answers, inTransaction, type Migration, migrate } from '../cluster/postgres.ts';
import { GRANT_COLUMNS, toClient, toCode, toToken } from './rows.ts';

/** The same tables as node:sqlite's `oauth.sqlite`, keyed by SHA-256 hashes only. */
export const OAUTH_MIGRATIONS: Migration[] = [
  {
    id: '101-oauth',
    sql: `
      CREATE TABLE oauth_clients (
        id_hash TEXT PRIMARY KEY,
        metadata TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT
      );
      CREATE TABLE oauth_codes (
        hash TEXT PRIMARY KEY,
        client_id_hash TEXT NOT NULL,
        grant_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        scopes TEXT NOT NULL,
        resource TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        code_challenge TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        used INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE oauth_tokens (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        client_id_hash TEXT NOT NULL,
        grant_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        scopes TEXT NOT NULL,
        resource TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        used INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE oauth_sessions (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX oauth_codes_grant ON oauth_codes (grant_id);
      CREATE INDEX oauth_codes_client ON oauth_codes (client_id_hash);
      CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
      CREATE INDEX oauth_tokens_client ON oauth_tokens (client_id_hash);
    `,
  },
];

/**
 * OAuth clients, codes and tokens in PostgreSQL (`BFF_DATABASE_URL`), shared by every BFF instance. Single use comes
 * from one conditional `UPDATE … RETURNING`: of two instances exchanging one code at once, exactly one sees it fresh.
 */
export class PostgresOAuthStore implements OAuthStore {
  private readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Runs the OAuth migrations (idempotent), then opens the store. */
  static async open(pool: pg.Pool): Promise<PostgresOAuthStore> {
    await migrate(pool, OAUTH_MIGRATIONS);
    return new PostgresOAuthStore(pool);
  }

  async putClient(client: ClientRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO oauth_clients (id_hash, metadata, created_at, last_used_at) VALUES ($1, $2, $3, $4)',
      [client.idHash, JSON.stringify(client.metadata), client.createdAt, client.lastUsedAt],
    );
  }

  async getClient(idHash: string): Promise<ClientRecord | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM oauth_clients WHERE id_hash = $1', [idHash]);
    return rows[0] && toClient(rows[0]);
  }

  async listClients(): Promise<ClientRecord[]> {
    const { rows } = await this.pool.query('SELECT * FROM oauth_clients ORDER BY created_at');
    return rows.map(toClient);
  }

  async deleteClient(idHash: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM oauth_tokens WHERE client_id_hash = $1', [idHash]);
      await client.query('DELETE FROM oauth_codes WHERE client_id_hash = $1', [idHash]);
      const { rowCount } = await client.query('DELETE FROM oauth_clients WHERE id_hash = $1', [idHash]);
      return (rowCount ?? 0) > 0;
    });
  }

  async touchClient(idHash: string, at: number): Promise<void> {
    await this.pool.query('UPDATE oauth_clients SET last_used_at = $1 WHERE id_hash = $2', [at, idHash]);
  }

  async putCode(hash: string, code: CodeRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO oauth_codes (hash, ${GRANT_COLUMNS}, code_challenge, redirect_uri)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        hash,
        code.clientIdHash,
        code.grantId,
        code.subject,
        code.scopes.join(' '),
        code.resource,
        code.expiresAt,
        code.codeChallenge,
        code.redirectUri,
      ],
    );
  }

  async getCode(hash: string): Promise<CodeRecord | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM oauth_codes WHERE hash = $1', [hash]);
    return rows[0] && toCode(rows[0]);
  }

  async spendCode(hash: string): Promise<Spend<CodeRecord>> {
    const { rows } = await this.pool.query(
      'UPDATE oauth_codes SET used = 1 WHERE hash = $1 AND used = 0 RETURNING *',
      [hash],
    );
    if (rows[0]) return { state: 'fresh', record: toCode(rows[0]) };
    const record = await this.getCode(hash);
    return record ? { state: 'reused', record } : { state: 'unknown' };
  }

  async putToken(hash: string, token: TokenRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO oauth_tokens (hash, kind, ${GRANT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hash,
        token.kind,
        token.clientIdHash,
        token.grantId,
        token.subject,
        token.scopes.join(' '),
        token.resource,
        token.expiresAt,
      ],
    );
  }

  async getToken(hash: string): Promise<(TokenRecord & { used: boolean }) | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM oauth_tokens WHERE hash = $1', [hash]);
    return rows[0] && toToken(rows[0]);
  }

  async spendToken(hash: string): Promise<Spend<TokenRecord>> {
    const { rows } = await this.pool.query(
      "UPDATE oauth_tokens SET used = 1 WHERE hash = $1 AND kind = 'refresh' AND used = 0 RETURNING *",
      [hash],
    );
    const fresh = rows[0];
    if (fresh) {
      const { used: _used, ...record } = toToken(fresh);
      return { state: 'fresh', record };
    }
    const existing = await this.getToken(hash);
    if (existing?.kind !== 'refresh') return { state: 'unknown' };
    const { used: _used, ...record } = existing;
    return { state: 'reused', record };
  }

  async deleteGrant(grantId: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_tokens WHERE grant_id = $1', [grantId]);
    await this.pool.query('DELETE FROM oauth_codes WHERE grant_id = $1', [grantId]);
  }

  async purgeExpired(now: number): Promise<void> {
    await this.pool.query('DELETE FROM oauth_tokens WHERE expires_at < $1', [now]);
    await this.pool.query('DELETE FROM oauth_codes WHERE expires_at < $1', [now]);
    await this.pool.query('DELETE FROM oauth_sessions WHERE expires_at < $1', [now]);
  }

  async putSession(hash: string, kind: SessionKind, payload: string, expiresAt: number): Promise<void> {
    await this.pool.query(
      'INSERT INTO oauth_sessions (hash, kind, payload, expires_at) VALUES ($1, $2, $3, $4)',
      [hash, kind, payload, expiresAt],
    );
  }

  async getSession(hash: string, kind: SessionKind, now: number): Promise<string | undefined> {
    const { rows } = await this.pool.query(
      'SELECT payload FROM oauth_sessions WHERE hash = $1 AND kind = $2 AND expires_at > $3',
      [hash, kind, now],
    );
    return rows[0] ? String(rows[0].payload) : undefined;
  }

  async deleteSession(hash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM oauth_sessions WHERE hash = $1', [hash]);
    return (rowCount ?? 0) > 0;
  }

  async activeScopes(idHash: string, now: number): Promise<string[]> {
    const { rows } = await this.pool.query(
      'SELECT scopes FROM oauth_tokens WHERE client_id_hash = $1 AND used = 0 AND expires_at >= $2',
      [idHash, now],
    );
    return [...new Set(rows.flatMap((row) => String(row.scopes).split(' ').filter(Boolean)))];
  }

  healthy(): Promise<boolean> {
    return answers(this.pool);
  }
}
