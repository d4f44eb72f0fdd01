import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CustomOAuthError,
  InvalidClientError,
  InvalidClientMetadataError,
  OAuthError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../security/hash.ts';
import { isLoopbackHostname } from '../security/loopback.ts';
import {
  type ClientMetadataDocument,
  ClientMetadataError,
  type ClientMetadataResolver,
  isClientIdUrl,
} from './client-metadata.ts';
import { checkScopes } from './scopes.ts';
import type { OAuthStore, PendingBounds } from './store.ts';

/**
 * Registration is open to anyone (RFC 7591), so clients that never got the merchant's consent are bounded: deleted
 * after a day, at most 20 per address (IPv4, IPv6 /64) and 1,000 in all, the oldest going first — a new registration
 * is never refused. Measured before: 20,000 registrations from rotating addresses added 81 MB, never purged.
 */
export const PENDING_CLIENTS: PendingBounds = {
  maxAgeMs: 24 * 3_600_000,
  maxInAll: 1_000,
  maxPerAddress: 20,
};

/**
 * The address key (shared/security/address.ts) of the request being registered: the SDK's registration handler
 * hands the provider the metadata only, so the router runs it inside this context (`AuthorizationServer.routes`).
 */
export const registrationSender = new AsyncLocalStorage<string>();

const MAX_REDIRECT_URIS = 10;
const TOUCH_EVERY_MS = 60_000;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/** The only grants a client may use (and has when it names none): the code flow and refresh. */
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/**
 * RFC 6749 §3.1.2 / OAuth 2.1 §2.3.1: https, http on a loopback host (native apps), or a private-use scheme; never a
 * fragment, never a scheme a browser would run.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return 'redirect_uri is too long';
  const url = URL.parse(uri);
  if (!url) return 'redirect_uri is not a URL';
  if (url.hash || uri.includes('#')) return 'redirect_uri must not have a fragment';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `redirect_uri scheme ${url.protocol} is not allowed`;
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname))
    return 'http redirect_uri must be a loopback address';
  return undefined;
}

/** Where a redirect URI sends the browser, as the consent page names it (host, or the app scheme). */
export function redirectHost(uri: string): string {
  const url = new URL(uri);
  return /^https?:$/.test(url.protocol) ? url.host : url.protocol;
}

/** The CSP source that lets a form's redirect reach `uri` (Chromium applies `form-action` to redirects). */
export function formActionSource(uri: string): string {
  const url = new URL(uri);
  return /^https?:$/.test(url.protocol) ? url.origin : url.protocol;
}

/**
 * Whether `uri` is one of the client's redirect URIs: exact match, except that a loopback URI may use any port
 * (RFC 8252 §7.3: native apps take an ephemeral port).
 */
export function redirectRegistered(client: OAuthClientInformationFull, uri: string): boolean {
  const a = URL.parse(uri);
  return client.redirect_uris.some((registered) => {
    if (registered === uri) return true;
    const b = URL.parse(registered);
    return (
      a !== null &&
      b !== null &&
      isLoopbackHostname(a.hostname) &&
      a.protocol === 'http:' &&
      a.protocol === b.protocol &&
      a.hostname === b.hostname &&
      a.pathname === b.pathname &&
      a.search === b.search &&
      !a.hash
    );
  });
}

/** Where a client's metadata document comes from (`ClientMetadataResolver`: fetched and cached). */
export type DocumentResolver = Pick<ClientMetadataResolver, 'resolve'>;

export interface OAuthClientsOptions {
  store: OAuthStore;
  /** Scopes a client may ask for. */
  scopes: readonly string[];
  /** See `OAuthProviderOptions.clientMetadata`. */
  clientMetadata: DocumentResolver | undefined;
  now: () => number;
}

/**
 * The clients of the authorization server: public clients registered dynamically (RFC 7591, bounded by
 * `PENDING_CLIENTS` until the merchant consents), and, with a resolver, clients described by a Client ID Metadata
 * Document, held to the same rules. Stored by the hash of their id.
 */
export class OAuthClients {
  private readonly store: OAuthStore;
  private readonly scopes: readonly string[];
  private readonly clientMetadata: DocumentResolver | undefined;
  private readonly now: () => number;
  private readonly touched = new LRUCache<string, number>({ max: 10_000 });
  /** Document clients already resolved for the request being served (`withinRequest`). */
  private readonly requestClients = new AsyncLocalStorage<Map<string, OAuthClientInformationFull>>();

  constructor(options: OAuthClientsOptions) {
    this.store = options.store;
    this.scopes = options.scopes;
    this.clientMetadata = options.clientMetadata;
    this.now = options.now;
  }

  /**
   * The client of a `client_id`: a registered one from the store, or, for an `https` URL, the client its metadata
   * document describes (fetched, or from the cache; a `ClientMetadataError` — `invalid_client` — when it cannot be
   * used). The document's redirect URIs are then the ones every step of the flow is held to.
   */
  async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (isClientIdUrl(clientId)) return this.documentClient(clientId);
    if (clientId.length > 200) return undefined;
    const record = await this.store.getClient(sha256Hex(clientId));
    return record && { ...record.metadata, client_id: clientId };
  }

  private async documentClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (!this.clientMetadata) return undefined;
    const known = this.requestClients.getStore()?.get(clientId);
    if (known) return known;
    const document = await this.clientMetadata.resolve(clientId);
    return this.clientOfDocument(clientId, document);
  }

  /** A document as a client: held to the rules of a registration, or refused as `invalid_client` naming the rule. */
  private clientOfDocument(clientId: string, document: ClientMetadataDocument): OAuthClientInformationFull {
    const client = {
      client_id: clientId,
      client_name: document.client_name,
      redirect_uris: document.redirect_uris,
      grant_types: document.grant_types ?? GRANT_TYPES,
      response_types: document.response_types ?? ['code'],
      token_endpoint_auth_method: 'none',
      ...(document.client_uri === undefined ? {} : { client_uri: document.client_uri }),
      ...(document.logo_uri === undefined ? {} : { logo_uri: document.logo_uri }),
    };
    try {
      this.checkClientMetadata(client, { scopes: false });
    } catch (error) {
      if (error instanceof OAuthError) throw new ClientMetadataError('document', clientId, error.message);
      throw error;
    }
    return client;
  }

  /**
   * Runs `next` (the rest of an HTTP request) with `client` known by its id, so that every step of that request (the
   * pages' checks, the SDK's handler, the consent) sees one document, fetched once.
   */
  withinRequest<T>(client: OAuthClientInformationFull, next: () => T): T {
    const known = new Map(this.requestClients.getStore());
    known.set(client.client_id, client);
    return this.requestClients.run(known, next);
  }

  /**
   * The rules every client's metadata meets, registered or described by a document: 1 to 10 redirect URIs that
   * `redirectUriProblem` accepts, a name of at most 100 characters, only the code flow and refresh, and (for a
   * registration) only scopes this server offers. A document's `scope` is not checked: the document is shared by
   * every server the client talks to; the scopes of each request are.
   */
  private checkClientMetadata(
    client: Pick<
      OAuthClientInformationFull,
      'redirect_uris' | 'client_name' | 'grant_types' | 'response_types' | 'scope'
    >,
    check: { scopes: boolean },
  ): void {
    const uris = client.redirect_uris;
    if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
      throw new InvalidClientMetadataError(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
    }
    if ((client.client_name?.length ?? 0) > MAX_NAME_LENGTH) {
      throw new InvalidClientMetadataError(`client_name must have at most ${MAX_NAME_LENGTH} characters`);
    }
    if ((client.grant_types ?? GRANT_TYPES).some((grant) => !GRANT_TYPES.includes(grant))) {
      throw new InvalidClientMetadataError('grant_types may only be authorization_code and refresh_token');
    }
    if ((client.response_types ?? ['code']).some((type) => type !== 'code')) {
      throw new InvalidClientMetadataError('response_types may only be code');
    }
    if (check.scopes && client.scope !== undefined) {
      checkScopes(this.scopes, client.scope.split(' ').filter(Boolean));
    }
  }

  /** RFC 7591 for public clients: a client asking for a secret is registered public (the server may change values). */
  async registerClient(client: OAuthClientInformationFull): Promise<OAuthClientInformationFull> {
    this.checkClientMetadata(client, { scopes: true });
    const {
      client_id: clientId,
      client_secret: _secret,
      client_secret_expires_at: _expires,
      ...rest
    } = client;
    const metadata = {
      ...rest,
      grant_types: client.grant_types ?? GRANT_TYPES,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      client_id_issued_at: client.client_id_issued_at ?? Math.floor(this.now() / 1000),
    };
    const sender = registrationSender.getStore();
    await this.store.registerClient(
      {
        idHash: sha256Hex(clientId),
        metadata,
        createdAt: this.now(),
        lastUsedAt: null,
        registeredFrom: sender === undefined ? null : sha256Hex(sender),
      },
      PENDING_CLIENTS,
    );
    return { ...metadata, client_id: clientId };
  }

  /**
   * The merchant consented: the client is kept (unconsented ones are purged after a day). A document client gets its
   * row in the store here, not before (so strangers' URLs fill nothing): keyed by the hash of its URL like any client,
   * with the metadata the merchant consented to, so `/admin/agents` lists it, its tokens and policy hang on it, and
   * revoking it deletes them. Each consent refreshes the metadata; the policy, first consent and last use stay.
   */
  async keep(clientId: string): Promise<void> {
    if (isClientIdUrl(clientId)) {
      const client = await this.getClient(clientId);
      if (!client) throw new InvalidClientError('client_id is not a client of this server');
      const { client_id: _id, ...metadata } = client;
      await this.store.putDocumentClient({
        idHash: sha256Hex(clientId),
        documentUrl: clientId,
        metadata,
        createdAt: this.now(),
        lastUsedAt: null,
      });
    }
    await this.store.markConsented(sha256Hex(clientId), this.now());
  }

  /**
   * Records the client's last use at most once a minute: a durable write per `/mcp` call would cost each call an
   * fsync (measured: +8 ms median on the BFF's node:sqlite).
   */
  async touch(idHash: string): Promise<void> {
    const now = this.now();
    const last = this.touched.get(idHash);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.touched.set(idHash, now);
    await this.store.touchClient(idHash, now);
  }
}
