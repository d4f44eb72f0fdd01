import type { ClientRecord, CodeRecord, TokenRecord } from '../../shared/oauth/store.ts';

/** A row of the OAuth tables as node:sqlite and PostgreSQL return it (numbers may come back as strings). */
export type Row = Record<string, unknown>;

/** The columns every code and token row shares (one approved consent). */
export const GRANT_COLUMNS = 'client_id_hash, grant_id, subject, scopes, resource, expires_at';

function grant(row: Row) {
  return {
    clientIdHash: String(row.client_id_hash),
    grantId: String(row.grant_id),
    subject: String(row.subject),
    scopes: String(row.scopes).split(' ').filter(Boolean),
    resource: String(row.resource),
    expiresAt: Number(row.expires_at),
  };
}

export const toClient = (row: Row): ClientRecord => ({
  idHash: String(row.id_hash),
  metadata: JSON.parse(String(row.metadata)),
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

export const toCode = (row: Row): CodeRecord => ({
  ...grant(row),
  codeChallenge: String(row.code_challenge),
  redirectUri: String(row.redirect_uri),
});

export const toToken = (row: Row): TokenRecord & { used: boolean } => ({
  ...grant(row),
  kind: row.kind === 'refresh' ? 'refresh' : 'access',
  used: Number(row.used) === 1,
});
