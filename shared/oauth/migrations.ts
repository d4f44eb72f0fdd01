import type { Migration } from '../sql/migrate.ts';

/** The OAuth tables, on node:sqlite and PostgreSQL alike (`IF NOT EXISTS`: earlier node:sqlite files had them unrecorded). */
export const OAUTH_MIGRATIONS: readonly Migration[] = [
  {
    id: '101-oauth',
    sql: `
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
      CREATE INDEX IF NOT EXISTS oauth_tokens_client ON oauth_tokens (client_id_hash)
    `,
  },
  {
    // When the merchant first consented (clients never consented to are purged), and the agent's policy (BFF).
    id: '102-client-consent-policy',
    sql: `
      ALTER TABLE oauth_clients ADD COLUMN consented_at BIGINT;
      ALTER TABLE oauth_clients ADD COLUMN policy TEXT;
      UPDATE oauth_clients SET consented_at = coalesce(last_used_at, created_at)
        WHERE last_used_at IS NOT NULL OR id_hash IN (SELECT client_id_hash FROM oauth_tokens);
      CREATE INDEX oauth_clients_unconsented ON oauth_clients (created_at) WHERE consented_at IS NULL
    `,
  },
  {
    // Clients identified by a Client ID Metadata Document: the document's URL (their client_id, public).
    id: '103-client-document-url',
    sql: 'ALTER TABLE oauth_clients ADD COLUMN document_url TEXT',
  },
  {
    // Where a client was registered from (hashed), and the order registrations came in (ties of created_at), so the
    // bounds on clients without consent push out the oldest, per address and in all.
    id: '110-client-registration-bounds',
    sql: `
      ALTER TABLE oauth_clients ADD COLUMN registered_from TEXT;
      ALTER TABLE oauth_clients ADD COLUMN registration BIGINT;
      CREATE INDEX oauth_clients_unconsented_from ON oauth_clients (registered_from, created_at)
        WHERE consented_at IS NULL;
      CREATE INDEX oauth_clients_consented ON oauth_clients (consented_at) WHERE consented_at IS NOT NULL
    `,
  },
];
