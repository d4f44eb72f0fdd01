import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomToken, sha256Hex } from '../security/hash.ts';
import { type OAuthClients, redirectRegistered } from './clients.ts';
import { checkResource, checkScopes } from './scopes.ts';
import type { OAuthStore, TokenRecord } from './store.ts';

/** Lifetimes (ms). Codes are spent within seconds by a real client; an access token lasts an hour (contract). */
export const OAUTH_TTL = { codeMs: 60_000, accessMs: 3_600_000, refreshMs: 30 * 24 * 3_600_000 } as const;

/** A PKCE S256 code challenge: a SHA-256, base64url (43 characters). */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** An authorization request as the login and consent forms carry it (hidden fields, re-validated on every POST). */
export interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string | undefined;
  scopes: string[];
}

export interface CodesAndTokensOptions {
  store: OAuthStore;
  clients: OAuthClients;
  /** `<origin>/mcp`: the only resource tokens are issued for (RFC 8707). */
  resource: string;
  /** Scopes a client may ask for. */
  scopes: readonly string[];
  now: () => number;
}

/**
 * Authorization codes and the tokens they are exchanged for: codes single-use and short-lived, refresh tokens rotated
 * with replay detection (a reused code or refresh token ends its whole grant), everything stored hashed. The SDK's
 * half of `OAuthProvider` (provider.ts), which extends it.
 */
export class CodesAndTokens {
  readonly store: OAuthStore;
  protected readonly clients: OAuthClients;
  /** `<origin>/mcp`: the only resource tokens are issued for (RFC 8707). */
  readonly resource: string;
  readonly scopes: readonly string[];
  protected readonly now: () => number;

  constructor(options: CodesAndTokensOptions) {
    this.store = options.store;
    this.clients = options.clients;
    this.resource = options.resource;
    this.scopes = options.scopes;
    this.now = options.now;
  }

  /**
   * Re-validates a pending authorization posted back by a form (the browser may have changed any hidden field):
   * the client exists, the redirect URI is one of its own and every scope is one this server offers (else the
   * approval would fail in `issueCode`, a 500). Undefined when not, and then nothing may redirect.
   */
  async pendingClient(pending: PendingAuthorization): Promise<OAuthClientInformationFull | undefined> {
    const client = await this.clients.getClient(pending.clientId);
    if (!client || !redirectRegistered(client, pending.redirectUri)) return undefined;
    if (!CODE_CHALLENGE.test(pending.codeChallenge)) return undefined;
    if (pending.scopes.some((scope) => !this.scopes.includes(scope))) return undefined;
    return client;
  }

  /** Issues a code for an approved authorization; the caller redirects with it. */
  async issueCode(pending: PendingAuthorization, subject: string, scopes: string[]): Promise<string> {
    checkScopes(this.scopes, scopes);
    await this.store.purgeExpired(this.now());
    await this.clients.keep(pending.clientId);
    const code = randomToken();
    await this.store.putCode(sha256Hex(code), {
      clientIdHash: sha256Hex(pending.clientId),
      grantId: crypto.randomUUID(),
      subject,
      scopes,
      resource: this.resource,
      expiresAt: this.now() + OAUTH_TTL.codeMs,
      codeChallenge: pending.codeChallenge,
      redirectUri: pending.redirectUri,
    });
    return code;
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const record = await this.store.getCode(sha256Hex(code));
    if (!record || record.clientIdHash !== sha256Hex(client.client_id)) {
      throw new InvalidGrantError('the authorization code is not valid');
    }
    return record.codeChallenge;
  }

  /** The SDK checked the PKCE verifier against `challengeForAuthorizationCode` before this. */
  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const spent = await this.store.spendCode(sha256Hex(code));
    if (spent.state === 'unknown') throw new InvalidGrantError('the authorization code is not valid');
    const record = spent.record;
    if (spent.state === 'reused') {
      // OAuth 2.1 §4.1.3: a code used twice revokes the tokens issued with it.
      await this.store.deleteGrant(record.grantId);
      throw new InvalidGrantError('the authorization code was already used');
    }
    if (record.clientIdHash !== sha256Hex(client.client_id)) {
      throw new InvalidGrantError('the authorization code is not valid');
    }
    if (record.expiresAt < this.now()) throw new InvalidGrantError('the authorization code has expired');
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) {
      throw new InvalidGrantError('redirect_uri does not match the authorization request');
    }
    checkResource(this.resource, resource);
    return this.issueTokens(record);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const hash = sha256Hex(refreshToken);
    const record = await this.store.getToken(hash);
    if (record?.kind !== 'refresh' || record.clientIdHash !== sha256Hex(client.client_id)) {
      throw new InvalidGrantError('the refresh token is not valid');
    }
    if (record.used) {
      // A rotated refresh token came back: someone holds a copy. End the grant (OAuth 2.1 §4.3.1).
      await this.store.deleteGrant(record.grantId);
      throw new InvalidGrantError('the refresh token was already used');
    }
    if (record.expiresAt < this.now()) throw new InvalidGrantError('the refresh token has expired');
    // A refused request spends nothing: checked before the rotation, or the client's next, correct refresh would
    // look like a replay and end the grant.
    const narrowed = scopes?.filter(Boolean) ?? record.scopes;
    if (narrowed.some((scope) => !record.scopes.includes(scope))) {
      throw new InvalidScopeError('a refresh cannot widen the granted scopes');
    }
    checkResource(this.resource, resource);
    if ((await this.store.spendToken(hash)).state !== 'fresh') {
      await this.store.deleteGrant(record.grantId);
      throw new InvalidGrantError('the refresh token was already used');
    }
    return this.issueTokens({ ...record, scopes: narrowed });
  }

  private async issueTokens(grant: Omit<TokenRecord, 'kind' | 'expiresAt'>): Promise<OAuthTokens> {
    const access = randomToken();
    const refresh = randomToken();
    await this.store.putToken(sha256Hex(access), {
      ...grant,
      kind: 'access',
      expiresAt: this.now() + OAUTH_TTL.accessMs,
    });
    await this.store.putToken(sha256Hex(refresh), {
      ...grant,
      kind: 'refresh',
      expiresAt: this.now() + OAUTH_TTL.refreshMs,
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: OAUTH_TTL.accessMs / 1000,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
    };
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const record = await this.store.getToken(sha256Hex(token));
    if (record?.kind !== 'access') throw new InvalidTokenError('the access token is not valid');
    if (record.expiresAt <= this.now()) throw new InvalidTokenError('the access token has expired');
    await this.clients.touch(record.clientIdHash);
    return {
      token,
      clientId: record.clientIdHash,
      scopes: record.scopes,
      expiresAt: Math.floor(record.expiresAt / 1000),
      resource: new URL(record.resource),
      extra: { subject: record.subject },
    };
  }

  /** RFC 7009: revoking either token of a grant ends the grant; an unknown or foreign token is ignored. */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const record = await this.store.getToken(sha256Hex(request.token));
    if (record && record.clientIdHash === sha256Hex(client.client_id)) {
      await this.store.deleteGrant(record.grantId);
    }
  }
}
