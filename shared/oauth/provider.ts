import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';
import { type BearerCheck, checkBearer } from './bearer.ts';
import { type DocumentResolver, OAuthClients, redirectRegistered } from './clients.ts';
import { checkResource, checkScopes } from './scopes.ts';
import type { OAuthStore } from './store.ts';
import { CodesAndTokens } from './tokens.ts';

export interface OAuthProviderOptions {
  store: OAuthStore;
  /** `<origin>/mcp`: the only resource tokens are issued for (RFC 8707). */
  resource: string;
  /** Scopes a client may ask for. */
  scopes: readonly string[];
  /** Renders the login page for a request the SDK and this provider validated (client, redirect URI, PKCE S256). */
  renderLogin(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> | void;
  /**
   * Client ID Metadata Documents: with a resolver, an `https` URL is accepted as `client_id` and its document stands
   * for a registration (the BFF); without one, only registered clients exist (the sandbox).
   */
  clientMetadata?: DocumentResolver;
  now?: () => number;
}

/**
 * Our OAuth 2.1 authorization server behind the SDK's `mcpAuthRouter`, wired from its nouns: the clients
 * (clients.ts: registration, redirect URIs, client ID metadata documents), the codes and tokens (tokens.ts, which it
 * extends) and the bearer check on `/mcp` (bearer.ts). The login and consent pages belong to each server.
 */
export class OAuthProvider extends CodesAndTokens implements OAuthServerProvider {
  readonly clientMetadata: DocumentResolver | undefined;
  private readonly renderLogin: OAuthProviderOptions['renderLogin'];

  constructor(options: OAuthProviderOptions) {
    const now = options.now ?? Date.now;
    const clients = new OAuthClients({ ...options, clientMetadata: options.clientMetadata, now });
    super({ ...options, clients, now });
    this.renderLogin = options.renderLogin;
    this.clientMetadata = options.clientMetadata;
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId) => this.clients.getClient(clientId),
      registerClient: (client) => this.clients.registerClient(client as OAuthClientInformationFull),
    };
  }

  /** See `OAuthClients.getClient`. */
  getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    return this.clients.getClient(clientId);
  }

  /** See `OAuthClients.withinRequest`. */
  withinRequest<T>(client: OAuthClientInformationFull, next: () => T): T {
    return this.clients.withinRequest(client, next);
  }

  /** Every scope is one this server offers, else `invalid_scope`. */
  checkScopes(scopes: string[]): void {
    checkScopes(this.scopes, scopes);
  }

  /** Tokens are issued for this resource only (RFC 8707), else `invalid_target`. */
  checkResource(resource: URL | string | undefined): void {
    checkResource(this.resource, resource);
  }

  /** Called by the SDK after it checked client_id, redirect_uri, response_type and the S256 challenge. */
  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    this.checkResource(params.resource);
    this.checkScopes(params.scopes ?? []);
    await this.renderLogin(client, params, res);
  }

  /** See `redirectRegistered` (clients.ts). */
  redirectRegistered(client: OAuthClientInformationFull, uri: string): boolean {
    return redirectRegistered(client, uri);
  }

  /** What a `/mcp` request's `Authorization` header amounts to: nothing sent, not valid, or an OAuth token. */
  checkBearer(authorization: string | undefined): Promise<BearerCheck> {
    return checkBearer(authorization, (token) => this.verifyAccessToken(token), this.resource);
  }
}
