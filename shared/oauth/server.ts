import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { senderKey } from '../security/address.ts';
import type { WindowedCounter } from '../windowed-counter.ts';
import { bearerChallenge } from './bearer.ts';
import {
  type ClientMetadataResolver,
  clientIdHost,
  isClientIdUrl,
  isClientMetadataError,
} from './client-metadata.ts';
import { registrationSender } from './clients.ts';
import { LoginGuard } from './login-guard.ts';
import { AuthorizationPages, type AuthorizationPagesOptions } from './pages.ts';
import { OAuthProvider } from './provider.ts';
import type { OAuthStore } from './store.ts';
import { OAUTH_CSS } from './style.ts';

/** Where each server serves the pages' stylesheet (CSP `style-src 'self'`; `/admin` links it too). */
export const OAUTH_CSS_PATH = '/oauth/style.css';

export interface AuthorizationServerOptions {
  store: OAuthStore;
  /** The public origin as configured (no trailing slash): the issuer; `<issuer>/mcp` is the protected resource. */
  issuer: string;
  /** The scopes a client may ask for. */
  scopes: readonly string[];
  /** The resource's name in its metadata (RFC 9728 `resource_name`). */
  resourceName: string;
  /** The SDK's per-address limits on /authorize, /token, /register and /revoke (default on). */
  rateLimits?: boolean;
  /** How the login and consent pages read (what differs between the servers: who logs in, the scope labels). */
  pages: Omit<
    AuthorizationPagesOptions,
    'provider' | 'cssHref' | 'secureCookies' | 'formOrigins' | 'now' | 'guard'
  >;
  /**
   * Where login attempts are counted (default: this process's memory, on `now`), and the key that signs device cookies
   * (`LoginGuard`).
   */
  logins: { failures?: WindowedCounter; deviceSecret: Buffer | string };
  /**
   * Client ID Metadata Documents (the BFF): advertised as `client_id_metadata_document_supported`, and an `https`
   * URL is accepted as `client_id`. Without it only registered clients exist (the sandbox, as the platform's spec 5.2).
   */
  clientMetadata?: ClientMetadataResolver;
  now?: () => number;
}

/**
 * The OAuth 2.1 authorization server of an MCP host, the same on both servers (docs/architecture.md, "OAuth for MCP"):
 * the provider (clients, codes, tokens, all hashed), the login and consent pages, and `routes()` — discovery
 * (RFC 8414 and RFC 9728), the SDK's register/authorize/token/revoke handlers, the pages and their stylesheet. The
 * sandbox (fixture merchants, one scope, in memory) and the BFF (the merchant's password, picked scopes, stored) differ
 * only in these options (`SandboxOAuth` and `BffOAuth` extend it with them). Express at run time, as the SDK's router
 * is: the only such import in `shared/`.
 */
export class AuthorizationServer {
  readonly store: OAuthStore;
  readonly provider: OAuthProvider;
  readonly pages: AuthorizationPages;
  /** Who may try a login now: the OAuth login page's rule, and the BFF's `/admin/login`'s. */
  readonly guard: LoginGuard;
  readonly resourceMetadataUrl: string;
  readonly #options: AuthorizationServerOptions;

  constructor(options: AuthorizationServerOptions) {
    this.#options = options;
    this.store = options.store;
    const { issuer } = options;
    const resource = `${issuer}/mcp`;
    this.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
    const now = options.now ? { now: options.now } : {};
    let pages: AuthorizationPages | undefined;
    this.provider = new OAuthProvider({
      store: options.store,
      resource,
      scopes: options.scopes,
      renderLogin: (client, params, res) => pages?.renderLogin(client, params, res),
      ...(options.clientMetadata ? { clientMetadata: options.clientMetadata } : {}),
      ...now,
    });
    this.guard = new LoginGuard({
      ...(options.logins.failures ? { counter: options.logins.failures } : {}),
      secret: options.logins.deviceSecret,
      secureCookies: issuer.startsWith('https:'),
      ...now,
    });
    pages = new AuthorizationPages({
      ...options.pages,
      guard: this.guard,
      provider: this.provider,
      cssHref: OAUTH_CSS_PATH,
      secureCookies: issuer.startsWith('https:'),
      // Forms post from this server's own pages: its public origin, or the loopback address it was reached on.
      formOrigins: { publicUrl: issuer, loopback: 'this-port' },
      ...now,
    });
    this.pages = pages;
  }

  /** The `WWW-Authenticate` of a 401 from `/mcp` (no `error` when no credentials were sent, RFC 6750 §3.1). */
  challenge(authorization: string | undefined): string {
    return bearerChallenge(this.resourceMetadataUrl, Boolean(authorization?.trim()));
  }

  /** Discovery, registration, authorize/token/revoke (the SDK's handlers) and our login and consent pages. */
  routes(): Router {
    const { issuer, scopes, resourceName } = this.#options;
    const router = express.Router();
    const metadata = {
      ...createOAuthMetadata({
        provider: this.provider,
        issuerUrl: new URL(issuer),
        scopesSupported: [...scopes],
      }),
      // The issuer as configured (no trailing slash), identical to `authorization_servers` below (RFC 8414 §3.3).
      issuer,
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      ...(this.#options.clientMetadata ? { client_id_metadata_document_supported: true } : {}),
    };
    router.use('/.well-known/oauth-authorization-server', metadataHandler(metadata));
    router.use(
      '/.well-known/oauth-protected-resource/mcp',
      metadataHandler({
        resource: this.provider.resource,
        authorization_servers: [issuer],
        scopes_supported: [...scopes],
        bearer_methods_supported: ['header'],
        resource_name: resourceName,
      }),
    );
    router.get(OAUTH_CSS_PATH, (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type('css').send(OAUTH_CSS);
    });
    const form = express.urlencoded({ extended: false, limit: '16kb' });
    router.use('/authorize', form, this.documentClient, this.pages.precheck);
    // The provider bounds registrations per address: the body is read here (the SDK's own parser then finds it read)
    // and the rest of the registration runs knowing its sender.
    router.post('/register', express.json(), (req, _res, next) =>
      registrationSender.run(senderKey(req), next),
    );
    const unlimited = { rateLimit: false } as const;
    router.use(
      mcpAuthRouter({
        provider: this.provider,
        issuerUrl: new URL(issuer),
        resourceServerUrl: new URL(this.provider.resource),
        scopesSupported: [...scopes],
        resourceName,
        ...(this.#options.rateLimits === false
          ? {
              authorizationOptions: unlimited,
              clientRegistrationOptions: unlimited,
              tokenOptions: unlimited,
              revocationOptions: unlimited,
            }
          : {}),
      }),
    );
    router.post('/oauth/login', form, this.documentClient, this.pages.login);
    router.post('/oauth/consent', form, this.documentClient, this.pages.consent);
    return router;
  }

  /**
   * Before a page of the flow, for a URL `client_id`: fetches its metadata document once for the whole request, or
   * answers an HTML page naming why it cannot be used (`invalid_client`; RFC 6749 §4.1.2.1: never a redirect, the
   * redirect URI is not known to be the client's).
   */
  private documentClient = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const clientId = params?.client_id;
    if (typeof clientId !== 'string' || !isClientIdUrl(clientId)) return next();
    let client: Awaited<ReturnType<OAuthProvider['getClient']>>;
    try {
      client = await this.provider.getClient(clientId);
    } catch (error) {
      if (!isClientMetadataError(error)) throw error;
      return this.pages.errorPage(
        res,
        'Aplicativo recusado',
        `O documento que identifica este aplicativo (${clientIdHost(clientId) ?? 'endereço inválido'}) não pôde ser usado; nada foi enviado a ele. Motivo (invalid_client): ${error.message}`,
      );
    }
    if (!client) return next();
    return this.provider.withinRequest(client, next);
  };
}
