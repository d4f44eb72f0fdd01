import type { IncomingMessage } from 'node:http';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import express, { Router } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { LoginThrottle } from '../../shared/oauth/login-throttle.ts';
import { AuthorizationPages } from '../../shared/oauth/pages.ts';
import { bearerChallenge, OAuthProvider } from '../../shared/oauth/provider.ts';
import { MemoryOAuthStore } from '../../shared/oauth/store.ts';
import { OAUTH_CSS } from '../../shared/oauth/style.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import type { MerchantAccess } from '../http/auth.ts';
import type { StoreRegistry } from '../stores/stores.ts';

/** The one scope of the platform's OAuth: the merchant's own permission on `/mcp`. */
export const SANDBOX_SCOPES = ['mcp'] as const;

export interface SandboxOAuthOptions {
  registry: StoreRegistry;
  /** SANDBOX_PUBLIC_URL: issuer, and `<origin>/mcp` the resource. */
  publicUrl: string;
  now?: () => number;
}

/**
 * The platform's OAuth for MCP (spec 5.2 item 1), emulated: discovery, dynamic registration of public clients, the
 * authorization code flow with PKCE S256, a login page for the fixture merchants and a consent; an access token acts
 * on `/mcp` for its store with merchant permission. Everything in memory, cleared by `/_sandbox/reset`.
 */
export class SandboxOAuth {
  readonly provider: OAuthProvider;
  readonly pages: AuthorizationPages;
  readonly resourceMetadataUrl: string;
  private readonly store = new MemoryOAuthStore();
  private readonly registry: StoreRegistry;
  private readonly origin: string;

  constructor(options: SandboxOAuthOptions) {
    this.registry = options.registry;
    this.origin = options.publicUrl.replace(/\/+$/, '');
    const resource = `${this.origin}/mcp`;
    this.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
    const now = options.now ? { now: options.now } : {};
    let pages: AuthorizationPages | undefined;
    this.provider = new OAuthProvider({
      store: this.store,
      resource,
      scopes: SANDBOX_SCOPES,
      renderLogin: (client, params, res) => pages?.renderLogin(client, params, res),
      ...now,
    });
    pages = new AuthorizationPages({
      provider: this.provider,
      login: 'email',
      verifyLogin: (email, password) => this.verifyLogin(email, password),
      storeName: (subject) => this.registry.stores.find((store) => store.id === subject)?.name ?? subject,
      scopeLabels: { mcp: 'Permissão de lojista no MCP: cotar, rastrear e emitir etiquetas (mcp)' },
      pickScopes: false,
      serverName: 'Sandbox da plataforma de frete',
      cssHref: '/oauth/style.css',
      throttle: new LoginThrottle(now),
      secureCookies: this.origin.startsWith('https:'),
      formOrigins: { publicUrl: this.origin, loopback: 'this-port' },
      ...now,
    });
    this.pages = pages;
  }

  /** A fixture merchant's store id for its e-mail and password; every login is compared, in constant time. */
  private verifyLogin(email: string, password: string): string | undefined {
    let found: string | undefined;
    for (const store of this.registry.stores) {
      if (!store.login) continue;
      const expected = `${store.login.email.toLowerCase()}\n${store.login.password}`;
      if (sameSecret(expected, `${email}\n${password}`)) found = store.id;
    }
    return found;
  }

  /**
   * The merchant access of a request whose Bearer is one of our access tokens, or undefined (then it is a key, or
   * nothing valid). The store acts with merchant permission; a deleted store answers like its key would.
   */
  async access(req: IncomingMessage): Promise<MerchantAccess | undefined> {
    const check = await this.provider.checkBearer(req.headers.authorization);
    if (check.kind !== 'valid') return undefined;
    const store = this.registry.stores.find((candidate) => candidate.id === check.subject);
    if (!store) return undefined;
    if (store.deleted)
      throw new ApiError('merchant_not_found', 'The store bound to this token was not found.');
    return { store, kind: 'secret', merchantPermission: true };
  }

  /** The `WWW-Authenticate` of a 401 from `/mcp`. */
  challenge(req: IncomingMessage): string {
    return bearerChallenge(this.resourceMetadataUrl, Boolean(req.headers.authorization?.trim()));
  }

  /** Forgets clients, codes, tokens, consent tickets and login failures (`/_sandbox/reset`). */
  reset(): void {
    this.store.clear();
    this.pages.clear();
  }

  routes(): Router {
    const origin = this.origin;
    const router = Router();
    const metadata = {
      ...createOAuthMetadata({
        provider: this.provider,
        issuerUrl: new URL(origin),
        scopesSupported: [...SANDBOX_SCOPES],
      }),
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
        scopes_supported: [...SANDBOX_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'Shipping platform MCP (sandbox)',
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
        scopesSupported: [...SANDBOX_SCOPES],
        resourceName: 'Shipping platform MCP (sandbox)',
        // An emulator serves test suites that register many clients: no SDK rate limits here.
        authorizationOptions: { rateLimit: false },
        clientRegistrationOptions: { rateLimit: false },
        tokenOptions: { rateLimit: false },
        revocationOptions: { rateLimit: false },
      }),
    );
    const form = express.urlencoded({ extended: false, limit: '16kb' });
    router.post('/oauth/login', form, this.pages.login);
    router.post('/oauth/consent', form, this.pages.consent);
    return router;
  }
}
