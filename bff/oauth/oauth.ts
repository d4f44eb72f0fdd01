import { createHmac } from 'node:crypto';
import {
  type ClientMetadataFetchOptions,
  ClientMetadataResolver,
  clientIdHost,
} from '../../shared/oauth/client-metadata.ts';
import { AuthorizationServer } from '../../shared/oauth/server.ts';
import type { ClientRecord, OAuthStore } from '../../shared/oauth/store.ts';
import { sameSecret, sha256Hex } from '../../shared/security/hash.ts';
import { isLoopbackHostname } from '../../shared/security/loopback.ts';
import type { WindowedCounter } from '../../shared/windowed-counter.ts';
import { AGENT_SCOPES, type AgentScope } from '../agent-tokens.ts';
import { type BffConfig, ConfigError } from '../config.ts';
import type { AgentIdentity, AgentTokenSource } from '../mcp/agent-auth.ts';
import { type AgentPolicy, AgentPolicySchema } from '../policies/policies.ts';

/** pt-BR names of the agent scopes on the consent page. */
export const SCOPE_LABELS: Record<AgentScope, string> = {
  rates: 'Cotar fretes (rates)',
  tracking: 'Rastrear encomendas (tracking)',
  labels: 'Emitir etiquetas — cobradas — (labels)',
};

export interface BffOAuthOptions {
  config: BffConfig;
  now?: () => number;
  /**
   * Where login attempts are counted (`Backends.loginFailures`: the one windowed counter in Redis, or in the OAuth
   * store's database); default this process's memory.
   */
  loginFailures?: WindowedCounter;
  /** The SDK's per-IP limits on /authorize, /token, /register, /revoke (default on; suites that register many clients turn them off). */
  rateLimits?: boolean;
  /** Where clients and tokens live (`Backends.oauth`: `oauth.sqlite` in `BFF_DATA_DIR`, or PostgreSQL). */
  store: OAuthStore;
  /**
   * How client metadata documents are fetched: tests give a CA, a resolver and the one test address that stands for
   * the internet; production leaves it unset (Node's CAs, the system resolver, public addresses only).
   */
  clientMetadata?: ClientMetadataFetchOptions;
}

/**
 * The BFF as OAuth 2.1 authorization server for its own `/mcp` (docs/architecture.md, "OAuth for MCP"): the merchant logs
 * in with `BFF_ADMIN_PASSWORD` and picks the scopes; clients and tokens live hashed in `oauth.sqlite`. Its `guard` is
 * also the rule of `/admin/login` (one account); client metadata documents are fetched, validated and cached per process.
 */
export class BffOAuth extends AuthorizationServer implements AgentTokenSource {
  constructor(options: BffOAuthOptions) {
    const { config } = options;
    const password = config.adminPassword;
    if (!password) throw new Error('BffOAuth needs BFF_ADMIN_PASSWORD');
    const origin = new URL(config.publicUrl);
    if (origin.protocol !== 'https:' && !isLoopbackHostname(origin.hostname)) {
      // RFC 8414 / OAuth 2.1: an issuer is https; plain http only on this machine.
      throw new ConfigError(
        'BFF_PUBLIC_URL must be https:// for OAuth (http only on a loopback address: 127.0.0.1, localhost, [::1])',
      );
    }
    const now = options.now ? { now: options.now } : {};
    super({
      store: options.store,
      issuer: config.publicUrl,
      scopes: AGENT_SCOPES,
      resourceName: 'frete-kit MCP',
      rateLimits: options.rateLimits ?? true,
      logins: {
        ...(options.loginFailures ? { failures: options.loginFailures } : {}),
        deviceSecret: deviceSecret(config.secretKey, password),
      },
      pages: {
        login: 'password',
        // One account: the merchant's password.
        accountOf: () => MERCHANT,
        verifyLogin: (_email, presented) => (sameSecret(password, presented) ? MERCHANT : undefined),
        storeName: () => config.store.name ?? new URL(config.publicUrl).host,
        scopeLabels: SCOPE_LABELS,
        pickScopes: true,
        serverName: 'frete-kit',
      },
      clientMetadata: new ClientMetadataResolver({
        ...(options.clientMetadata ? { fetch: options.clientMetadata } : {}),
        ...now,
      }),
      ...now,
    });
  }

  /**
   * The identity of an OAuth access token for this resource (its scopes, and its client as the ledger names it, with
   * the policy set on /admin/agents), or undefined (`agentIdentity` consults the static tokens first).
   */
  async identity(authorization: string | undefined): Promise<AgentIdentity | undefined> {
    const check = await this.provider.checkBearer(authorization);
    if (check.kind !== 'valid') return undefined;
    const client = await this.store.getClient(check.clientIdHash);
    if (!client) return undefined;
    return {
      scopes: AGENT_SCOPES.filter((scope) => check.scopes.includes(scope)),
      caller: { issuedBy: clientName(client), policy: clientPolicy(client) },
      merchantLogin: true,
    };
  }
}

/** The one account of the BFF's logins (`/admin` and the OAuth consent): whoever holds `BFF_ADMIN_PASSWORD`. */
export const MERCHANT = 'merchant';

/**
 * The key of the merchant's device cookies: derived from the secret key every instance holds (so any instance reads
 * a cookie another set) and the password (so changing it forgets every known browser). A cookie's signature says
 * nothing of the password without `mk_…`.
 */
function deviceSecret(secretKey: string, password: string): Buffer {
  return createHmac('sha256', secretKey)
    .update(`frete-kit device cookies\n${sha256Hex(password)}`)
    .digest();
}

/**
 * How the ledger and the desk name an OAuth client: its name and the start of its id's hash (names may repeat); a
 * document client's name is its own claim, so the host that publishes it comes with it.
 */
export function clientName(client: ClientRecord): string {
  const name = client.metadata.client_name?.trim() || 'OAuth client';
  const host = client.documentUrl ? clientIdHost(client.documentUrl) : undefined;
  return `${name}${host ? ` (${host})` : ''} #${client.idHash.slice(0, 6)}`;
}

/** The policy the merchant set for a client on /admin/agents (none: no limits). */
export function clientPolicy(client: ClientRecord): AgentPolicy | undefined {
  if (!client.policy) return undefined;
  const parsed = AgentPolicySchema.safeParse(JSON.parse(client.policy));
  return parsed.success ? parsed.data : undefined;
}
