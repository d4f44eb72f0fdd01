import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

/** A registered client as stored: its metadata, without the client id (only its hash is kept). */
export interface ClientRecord {
  /** SHA-256 of the client id, hex: the row's key and the handle `/admin/agents` revokes by. */
  idHash: string;
  metadata: Omit<OAuthClientInformationFull, 'client_id'>;
  createdAt: number;
  /** Epoch ms of the last `/mcp` call with one of its tokens, or null. */
  lastUsedAt: number | null;
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

/**
 * Storage of OAuth clients, codes and tokens, keyed by SHA-256 hashes (a leaked table holds no usable secret).
 * Async so a network database fits behind it; `spend*` must be atomic (single use under concurrency).
 */
export interface OAuthStore {
  putClient(client: ClientRecord): Promise<void>;
  getClient(idHash: string): Promise<ClientRecord | undefined>;
  listClients(): Promise<ClientRecord[]>;
  /** Deletes the client and every code and token it holds. */
  deleteClient(idHash: string): Promise<boolean>;
  touchClient(idHash: string, at: number): Promise<void>;
  putCode(hash: string, code: CodeRecord): Promise<void>;
  getCode(hash: string): Promise<CodeRecord | undefined>;
  /** Marks the code used; answers whether it was fresh, already used, or unknown. */
  spendCode(hash: string): Promise<Spend<CodeRecord>>;
  putToken(hash: string, token: TokenRecord): Promise<void>;
  /** The token, `used` once a refresh token was rotated. */
  getToken(hash: string): Promise<(TokenRecord & { used: boolean }) | undefined>;
  /** Marks a refresh token used (rotation); answers whether it was fresh, already used, or unknown (or not one). */
  spendToken(hash: string): Promise<Spend<TokenRecord>>;
  /** Deletes every code and token of a grant. */
  deleteGrant(grantId: string): Promise<void>;
  /** Deletes codes and tokens expired before `now`. */
  purgeExpired(now: number): Promise<void>;
  /** The scopes a client's live tokens hold (`/admin/agents`). */
  activeScopes(idHash: string, now: number): Promise<string[]>;
  /**
   * Short-lived records keyed by the hash of a secret the browser holds: consent tickets (`consent`) and `/admin`
   * sessions (`admin`). Stored here, not in process memory, so any instance can take the next step.
   */
  putSession(hash: string, kind: SessionKind, payload: string, expiresAt: number): Promise<void>;
  /** The payload, or undefined when unknown, of another kind, or expired at `now`. */
  getSession(hash: string, kind: SessionKind, now: number): Promise<string | undefined>;
  /** Deletes it; answers whether it existed (so of two concurrent uses, one wins). */
  deleteSession(hash: string): Promise<boolean>;
}

export type SessionKind = 'consent' | 'admin';

/** The in-memory store (the sandbox; tests of the BFF's provider logic). */
export class MemoryOAuthStore implements OAuthStore {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly codes = new Map<string, { record: CodeRecord; used: boolean }>();
  private readonly tokens = new Map<string, { record: TokenRecord; used: boolean }>();
  private readonly sessions = new Map<string, { kind: SessionKind; payload: string; expiresAt: number }>();

  async putClient(client: ClientRecord): Promise<void> {
    this.clients.set(client.idHash, structuredClone(client));
  }
  async getClient(idHash: string): Promise<ClientRecord | undefined> {
    const client = this.clients.get(idHash);
    return client && structuredClone(client);
  }
  async listClients(): Promise<ClientRecord[]> {
    return [...this.clients.values()].map((client) => structuredClone(client));
  }
  async deleteClient(idHash: string): Promise<boolean> {
    for (const [hash, { record }] of this.codes) if (record.clientIdHash === idHash) this.codes.delete(hash);
    for (const [hash, { record }] of this.tokens)
      if (record.clientIdHash === idHash) this.tokens.delete(hash);
    return this.clients.delete(idHash);
  }
  async touchClient(idHash: string, at: number): Promise<void> {
    const client = this.clients.get(idHash);
    if (client) client.lastUsedAt = at;
  }
  async putCode(hash: string, code: CodeRecord): Promise<void> {
    this.codes.set(hash, { record: structuredClone(code), used: false });
  }
  async getCode(hash: string): Promise<CodeRecord | undefined> {
    const entry = this.codes.get(hash);
    return entry && structuredClone(entry.record);
  }
  async spendCode(hash: string): Promise<Spend<CodeRecord>> {
    return spend(this.codes.get(hash));
  }
  async putToken(hash: string, token: TokenRecord): Promise<void> {
    this.tokens.set(hash, { record: structuredClone(token), used: false });
  }
  async getToken(hash: string): Promise<(TokenRecord & { used: boolean }) | undefined> {
    const entry = this.tokens.get(hash);
    return entry && { ...structuredClone(entry.record), used: entry.used };
  }
  async spendToken(hash: string): Promise<Spend<TokenRecord>> {
    const entry = this.tokens.get(hash);
    return entry?.record.kind === 'refresh' ? spend(entry) : { state: 'unknown' };
  }
  async deleteGrant(grantId: string): Promise<void> {
    for (const [hash, { record }] of this.codes) if (record.grantId === grantId) this.codes.delete(hash);
    for (const [hash, { record }] of this.tokens) if (record.grantId === grantId) this.tokens.delete(hash);
  }
  async purgeExpired(now: number): Promise<void> {
    for (const [hash, { record }] of this.codes) if (record.expiresAt < now) this.codes.delete(hash);
    for (const [hash, { record }] of this.tokens) if (record.expiresAt < now) this.tokens.delete(hash);
    for (const [hash, session] of this.sessions) if (session.expiresAt < now) this.sessions.delete(hash);
  }
  async putSession(hash: string, kind: SessionKind, payload: string, expiresAt: number): Promise<void> {
    this.sessions.set(hash, { kind, payload, expiresAt });
  }
  async getSession(hash: string, kind: SessionKind, now: number): Promise<string | undefined> {
    const session = this.sessions.get(hash);
    return session && session.kind === kind && session.expiresAt > now ? session.payload : undefined;
  }
  async deleteSession(hash: string): Promise<boolean> {
    return this.sessions.delete(hash);
  }
  async activeScopes(idHash: string, now: number): Promise<string[]> {
    const scopes = new Set<string>();
    for (const { record, used } of this.tokens.values()) {
      if (record.clientIdHash === idHash && !used && record.expiresAt >= now)
        for (const s of record.scopes) scopes.add(s);
    }
    return [...scopes];
  }
  clear(): void {
    this.clients.clear();
    this.codes.clear();
    this.tokens.clear();
    this.sessions.clear();
  }
}

function spend<T>(entry: { record: T; used: boolean } | undefined): Spend<T> {
  if (!entry) return { state: 'unknown' };
  if (entry.used) return { state: 'reused', record: structuredClone(entry.record) };
  entry.used = true;
  return { state: 'fresh', record: structuredClone(entry.record) };
}
