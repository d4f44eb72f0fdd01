import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import express, { Router } from 'express';
import { LoginThrottle } from '../../shared/oauth/login-throttle.ts';
import { AuthorizationPages } from '../../shared/oauth/pages.ts';
import { bearerChallenge, OAuthProvider } from '../../shared/oauth/provider.ts';
import type { OAuthStore } from '../../shared/oauth/store.ts';
import { OAUTH_CSS } from '../../shared/oauth/style.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { isLoopbackHostname } from '../../shared/security/loopback.ts';
import { AGENT_SCOPES, type AgentScope, type BffConfig, ConfigError } from '../config.ts';
import type { AgentTokenSource } from '../mcp/agent-auth.ts';
import { SqliteOAuthStore } from './sqlite-store.ts';

/** pt-BR names of the agent scopes on the consent page. */
export const SCOPE_LABELS: Record<AgentScope, string> = {
  rates: 'Cotar fretes (rates)',
  tracking: 'Rastrear encomendas (tracking)',
  labels: 'Emitir etiquetas — cobradas — (labels)',
};

export interface BffOAuthOptions {
  config: BffConfig;
  now?: () => number;
  /** Login slow-down (tests pass a clock). */
  throttle?: LoginThrottle;
  /** The SDK's per-IP limits on /authorize, /token, /register, /revoke (default on; suites that register many clients turn them off). */
  rateLimits?: boolean;
  /** Where clients and tokens live (default: node:sqlite `oauth.sqlite` in `BFF_DATA_DIR`). */
  store?: OAuthStore | undefined;
}

/**
 * The BFF as OAuth 2.1 authorization server for its own `/mcp` (ARCHITECTURE.md, "OAuth for MCP"): the merchant logs
 * in with `BFF_ADMIN_PASSWORD` and picks the scopes; clients and tokens live hashed in `oauth.sqlite`.
 */
export class BffOAuth implements AgentTokenSource {
  readonly provider: OAuthProvider;
  readonly pages: AuthorizationPages;
  readonly store: OAuthStore;
  readonly throttle: LoginThrottle;
  readonly resourceMetadataUrl: string;
  private readonly config: BffConfig;
  private readonly rateLimits: boolean;
  private readonly ownStore: SqliteOAuthStore | undefined;

  constructor(options: BffOAuthOptions) {
    const { config } = options;
    this.rateLimits = options.rateLimits ?? true;
    const password = config.adminPassword;
    if (!password) throw new Error('BffOAuth needs BFF_ADMIN_PASSWORD');
    const origin = new URL(config.publicUrl);
    if (origin.protocol !== 'https:' && !isLoopbackHostname(origin.hostname)) {
      // RFC 8414 / OAuth 2.1: an issuer is https; plain http only on this machine.
      throw new ConfigError(
        'BFF_PUBLIC_URL must be https:// for OAuth (http only on a loopback address: 127.0.0.1, localhost, [::1])',
      );
    }
    this.config = config;
    const resource = `${config.publicUrl}/mcp`;
    this.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
    // PostgreSQL when several instances share it (BFF_DATABASE_URL); node:sqlite in BFF_DATA_DIR otherwise.
    this.ownStore = options.store ? undefined : new SqliteOAuthStore({ dataDir: config.dataDir });
    this.store = options.store ?? (this.ownStore as SqliteOAuthStore);
    this.throttle = options.throttle ?? new LoginThrottle(options.now ? { now: options.now } : {});
    let pages: AuthorizationPages | undefined;
    this.provider = new OAuthProvider({
      store: this.store,
      resource,
      scopes: AGENT_SCOPES,
      renderLogin: (client, params, res) => pages?.renderLogin(client, params, res),
      ...(options.now ? { now: options.now } : {}),
    });
    pages = new AuthorizationPages({
      provider: this.provider,
      login: 'password',
      verifyLogin: (_email, presented) => (sameSecret(password, presented) ? 'merchant' : undefined),
      storeName: () => config.store.name ?? new URL(config.publicUrl).host,
      scopeLabels: SCOPE_LABELS,
      pickScopes: true,
      serverName: 'frete-kit',
      cssHref: '/oauth/style.css',
      throttle: this.throttle,
      secureCookies: config.publicUrl.startsWith('https:'),
      formOrigins: { publicUrl: config.publicUrl, loopback: 'this-port' },
      ...(options.now ? { now: options.now } : {}),
    });
    this.pages = pages;
  }

  /** Scopes of an OAuth access token for this resource, or undefined (`agentScopes` consults this second). */
  async scopes(authorization: string | undefined): Promise<AgentScope[] | undefined> {
    const check = await this.provider.checkBearer(authorization);
    if (check.kind !== 'valid') return undefined;
    return AGENT_SCOPES.filter((scope) => check.scopes.includes(scope));
  }

  /** The `WWW-Authenticate` of a 401 from `/mcp`. */
  challenge(authorization: string | undefined): string {
    return bearerChallenge(this.resourceMetadataUrl, Boolean(authorization?.trim()));
  }

  /** Discovery, registration, authorize/token/revoke (the SDK's handlers) and our login and consent pages. */
  routes(): Router {
    const origin = this.config.publicUrl;
    const router = Router();
    const metadata = {
      ...createOAuthMetadata({
        provider: this.provider,
        issuerUrl: new URL(origin),
        scopesSupported: [...AGENT_SCOPES],
      }),
      // The issuer as configured (no trailing slash), identical to `authorization_servers` below (RFC 8414 §3.3).
      issuer: origin,
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    };
    router.use('/.well-known/oauth-authorization-server', metadataHandler(metadata));
    router.use(
      '/.well-known/oauth-protected-resource/mcp',
      metadataHandler({
        resource: this.provider.resource,
        authorization_servers: [origin],
        scopes_supported: [...AGENT_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'frete-kit MCP',
      }),
    );
    router.get('/oauth/style.css', (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type('css').send(OAUTH_CSS);
    });
    router.use('/authorize', express.urlencoded({ extended: false, limit: '16kb' }), this.pages.precheck);
    router.use(
      mcpAuthRouter({
        provider: this.provider,
        issuerUrl: new URL(origin),
        resourceServerUrl: new URL(this.provider.resource),
        scopesSupported: [...AGENT_SCOPES],
        resourceName: 'frete-kit MCP',
        ...(this.rateLimits
          ? {}
          : {
              authorizationOptions: { rateLimit: false },
              clientRegistrationOptions: { rateLimit: false },
              tokenOptions: { rateLimit: false },
              revocationOptions: { rateLimit: false },
            }),
      }),
    );
    const form = express.urlencoded({ extended: false, limit: '16kb' });
    router.post('/oauth/login', form, this.pages.login);
    router.post('/oauth/consent', form, this.pages.consent);
    return router;
  }

  /** Closes the store it opened itself (a store passed in belongs to the caller). */
  close(): void {
    this.ownStore?.close();
  }
}
