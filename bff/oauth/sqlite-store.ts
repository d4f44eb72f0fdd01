import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type {
  ClientRecord,
  CodeRecord,
  OAuthStore,
  SessionKind,
  Spend,
  TokenRecord,
} from '../../shared/oauth/store.ts';
import { GRANT_COLUMNS, toClient, toCode, toToken } from './rows.ts';

/**
 * OAuth clients, codes and tokens in node:sqlite (`oauth.sqlite` in `BFF_DATA_DIR`), keyed by SHA-256 hashes only.
 * Plain SQL (TEXT, BIGINT, INTEGER, conditional UPDATE) so a PostgreSQL store can implement the same interface.
 */
export class SqliteOAuthStore implements OAuthStore {
  private readonly db: DatabaseSync;

  /** `dataDir: ':memory:'` keeps it in memory (tests only). */
  constructor(options: { dataDir: string }) {
    if (options.dataDir === ':memory:') {
      this.db = new DatabaseSync(':memory:');
    } else {
      mkdirSync(options.dataDir, { recursive: true });
      this.db = new DatabaseSync(join(options.dataDir, 'oauth.sqlite'));
    }
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 5000;
      PRAGMA secure_delete = ON;
      CREATE TABLE IF NOT EXISTS oauth_clients (
        id_hash TEXT PRIMARY KEY,
        metadata TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT
      );
      CREATE TABLE IF NOT EXISTS oauth_codes (
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
      CREATE TABLE IF NOT EXISTS oauth_tokens (
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
      CREATE TABLE IF NOT EXISTS oauth_sessions (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS oauth_codes_grant ON oauth_codes (grant_id);
      CREATE INDEX IF NOT EXISTS oauth_codes_client ON oauth_codes (client_id_hash);
      CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens (grant_id);
      CREATE INDEX IF NOT EXISTS oauth_tokens_client ON oauth_tokens (client_id_hash);
    `);
  }

  async putClient(client: ClientRecord): Promise<void> {
    this.db
      .prepare('INSERT INTO oauth_clients (id_hash, metadata, created_at, last_used_at) VALUES (?, ?, ?, ?)')
      .run(client.idHash, JSON.stringify(client.metadata), client.createdAt, client.lastUsedAt);
  }

  async getClient(idHash: string): Promise<ClientRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM oauth_clients WHERE id_hash = ?').get(idHash);
    return row && toClient(row);
  }

  async listClients(): Promise<ClientRecord[]> {
    return this.db
      .prepare('SELECT * FROM oauth_clients ORDER BY created_at')
      .all()
      .map((row) => toClient(row));
  }

  async deleteClient(idHash: string): Promise<boolean> {
    this.db.exec('BEGIN');
    try {
      this.db.prepare('DELETE FROM oauth_tokens WHERE client_id_hash = ?').run(idHash);
      this.db.prepare('DELETE FROM oauth_codes WHERE client_id_hash = ?').run(idHash);
      const { changes } = this.db.prepare('DELETE FROM oauth_clients WHERE id_hash = ?').run(idHash);
      this.db.exec('COMMIT');
      return Number(changes) > 0;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async touchClient(idHash: string, at: number): Promise<void> {
    this.db.prepare('UPDATE oauth_clients SET last_used_at = ? WHERE id_hash = ?').run(at, idHash);
  }

  async putCode(hash: string, code: CodeRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO oauth_codes (hash, ${GRANT_COLUMNS}, code_challenge, redirect_uri) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        hash,
        code.clientIdHash,
        code.grantId,
        code.subject,
        code.scopes.join(' '),
        code.resource,
        code.expiresAt,
        code.codeChallenge,
        code.redirectUri,
      );
  }

  async getCode(hash: string): Promise<CodeRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM oauth_codes WHERE hash = ?').get(hash);
    return row && toCode(row);
  }

  async spendCode(hash: string): Promise<Spend<CodeRecord>> {
    // One conditional UPDATE: of two concurrent exchanges, exactly one sees a change.
    const { changes } = this.db
      .prepare('UPDATE oauth_codes SET used = 1 WHERE hash = ? AND used = 0')
      .run(hash);
    const record = await this.getCode(hash);
    if (!record) return { state: 'unknown' };
    return { state: Number(changes) === 1 ? 'fresh' : 'reused', record };
  }

  async putToken(hash: string, token: TokenRecord): Promise<void> {
    this.db
      .prepare(`INSERT INTO oauth_tokens (hash, kind, ${GRANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        hash,
        token.kind,
        token.clientIdHash,
        token.grantId,
        token.subject,
        token.scopes.join(' '),
        token.resource,
        token.expiresAt,
      );
  }

  async getToken(hash: string): Promise<(TokenRecord & { used: boolean }) | undefined> {
    const row = this.db.prepare('SELECT * FROM oauth_tokens WHERE hash = ?').get(hash);
    return row && toToken(row);
  }

  async spendToken(hash: string): Promise<Spend<TokenRecord>> {
    const { changes } = this.db
      .prepare("UPDATE oauth_tokens SET used = 1 WHERE hash = ? AND kind = 'refresh' AND used = 0")
      .run(hash);
    const record = await this.getToken(hash);
    if (record?.kind !== 'refresh') return { state: 'unknown' };
    const { used: _used, ...token } = record;
    return { state: Number(changes) === 1 ? 'fresh' : 'reused', record: token };
  }

  async deleteGrant(grantId: string): Promise<void> {
    this.db.prepare('DELETE FROM oauth_tokens WHERE grant_id = ?').run(grantId);
    this.db.prepare('DELETE FROM oauth_codes WHERE grant_id = ?').run(grantId);
  }

  async purgeExpired(now: number): Promise<void> {
    this.db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM oauth_codes WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM oauth_sessions WHERE expires_at < ?').run(now);
  }

  async putSession(hash: string, kind: SessionKind, payload: string, expiresAt: number): Promise<void> {
    this.db
      .prepare('INSERT INTO oauth_sessions (hash, kind, payload, expires_at) VALUES (?, ?, ?, ?)')
      .run(hash, kind, payload, expiresAt);
  }

  async getSession(hash: string, kind: SessionKind, now: number): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT payload FROM oauth_sessions WHERE hash = ? AND kind = ? AND expires_at > ?')
      .get(hash, kind, now);
    return row ? String(row.payload) : undefined;
  }

  async deleteSession(hash: string): Promise<boolean> {
    const { changes } = this.db.prepare('DELETE FROM oauth_sessions WHERE hash = ?').run(hash);
    return Number(changes) > 0;
  }

  async activeScopes(idHash: string, now: number): Promise<string[]> {
    const rows = this.db
      .prepare('SELECT scopes FROM oauth_tokens WHERE client_id_hash = ? AND used = 0 AND expires_at >= ?')
      .all(idHash, now);
    return [...new Set(rows.flatMap((row) => String(row.scopes).split(' ').filter(Boolean)))];
  }

  healthy(): boolean {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.db.close();
  }
}
