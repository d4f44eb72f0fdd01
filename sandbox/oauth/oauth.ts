import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../shared/errors.ts';
import { AuthorizationServer } from '../../shared/oauth/server.ts';
import { OAuthStore } from '../../shared/oauth/store.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
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
export class SandboxOAuth extends AuthorizationServer {
  private readonly registry: StoreRegistry;

  constructor(options: SandboxOAuthOptions) {
    super({
      // The one OAuth store of both servers, on a node:sqlite database in memory: the sandbox keeps nothing on disk.
      store: new OAuthStore(new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' })),
      issuer: options.publicUrl.replace(/\/+$/, ''),
      scopes: SANDBOX_SCOPES,
      resourceName: 'Shipping platform MCP (sandbox)',
      // An emulator serves test suites that register many clients: no SDK rate limits here.
      rateLimits: false,
      // One process, in memory; the device cookies' key lives as long as the sandbox.
      logins: { deviceSecret: randomBytes(32) },
      pages: {
        login: 'email',
        accountOf: (email) => this.accountOf(email),
        verifyLogin: (email, password) => this.verifyLogin(email, password),
        storeName: (subject) => this.registry.byId(subject)?.name ?? subject,
        scopeLabels: { mcp: 'Permissão de lojista no MCP: cotar, rastrear e emitir etiquetas (mcp)' },
        pickScopes: false,
        serverName: 'Sandbox da plataforma de frete',
      },
      ...(options.now ? { now: options.now } : {}),
    });
    this.registry = options.registry;
  }

  /**
   * The account a login counts against: a fixture merchant's e-mail (each has its own budget of failures), or one
   * account for every e-mail that is none of theirs (so made-up e-mails cannot grow the counts).
   */
  private accountOf(email: string): string {
    const known = this.registry.stores.some((store) => store.login?.email.toLowerCase() === email);
    return known ? email : '(unknown e-mail)';
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
    const store = this.registry.byId(check.subject);
    if (!store) return undefined;
    if (store.deleted)
      throw new ApiError('merchant_not_found', 'The store bound to this token was not found.');
    return { store, kind: 'secret', merchantPermission: true };
  }

  /** Forgets clients, codes, tokens, consent tickets and login failures (`/_sandbox/reset`). */
  async reset(): Promise<void> {
    await this.pages.clear();
    await this.store.clear();
  }
}
