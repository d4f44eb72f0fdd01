import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { RATE_LIMIT_TEXT } from '../shared/limits.ts';
import { parseRateLimit, type RateLimit } from '../shared/rate-limit.ts';

export const AGENT_SCOPES = ['rates', 'tracking', 'labels'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

const AgentTokensSchema = z.array(
  z.strictObject({
    token: z.string().check(z.minLength(16, 'each token must have at least 16 characters')),
    scopes: z.array(z.enum(AGENT_SCOPES)).check(z.minLength(1)),
  }),
);
export type AgentToken = z.infer<typeof AgentTokensSchema>[number];

export interface BffConfig {
  host: string;
  port: number;
  apiUrl: string;
  mcpUrl: string;
  secretKey: string;
  publicKey: string | undefined;
  allowedOrigins: string[];
  agentTokens: AgentToken[];
  dataDir: string;
  /** How long an `idempotencyKey` of `generate_label` is remembered (`BFF_IDEMPOTENCY_KEY_DAYS`, default 7). */
  idempotencyKeyDays: number;
  visitorRateLimit: RateLimit;
  /**
   * Express `trust proxy`: `false`, a number of proxy hops in front of the BFF, or the proxies' addresses (IPs, CIDRs,
   * `loopback`, `linklocal`, `uniquelocal`). Never `true`: that trusts the left-most X-Forwarded-For entry, which any
   * visitor writes.
   */
  trustProxy: false | number | string[];
  /** The BFF's public origin (no trailing slash): OAuth issuer and resource, the Host/Origin check, absolute links. */
  publicUrl: string;
  /** The merchant's password for the OAuth consent page and /admin; undefined turns both off. */
  adminPassword: string | undefined;
  /** Redis for state shared across instances; undefined keeps it in process memory. */
  redisUrl: string | undefined;
  /** PostgreSQL for the ledger and OAuth storage; undefined uses node:sqlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** The platform's limit per store and route (spec 8). */
  shippingRateLimit: RateLimit;
  /** Branding of the tracking page. */
  store: { name: string | undefined; url: string | undefined; logoUrl: string | undefined };
}

/** Where the embedded label ledger lives (`BFF_DATA_DIR`), for tools that need nothing else (`npm run ledger`). */
export function parseDataDir(env: Record<string, string | undefined> = process.env): string {
  return env.BFF_DATA_DIR?.trim() || '.data';
}

/** A configuration error: the message names the variable and what is wrong, never its value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function url(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  try {
    const parsed = new URL(value);
    if (!/^https?:$/.test(parsed.protocol)) throw new Error();
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  return value.replace(/\/+$/, '');
}

function optionalUrl(env: Env, name: string): string | undefined {
  return env[name]?.trim() ? url(env, name, '') : undefined;
}

function serviceUrl(env: Env, name: string, protocols: RegExp, example: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  try {
    if (!protocols.test(new URL(value).protocol)) throw new Error();
  } catch {
    throw new ConfigError(`${name} must be a URL such as ${example}`);
  }
  return value;
}

function port(env: Env, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new ConfigError(`${name} must be a port number (0-65535)`);
  return n;
}

/**
 * Parses the BFF's environment once (ARCHITECTURE.md, Configuration). A missing `SHIPPING_SECRET_KEY`, or a public
 * key given as the secret, is an error that names the variable.
 */
export function parseConfig(env: Env = process.env): BffConfig {
  const secretKey = env.SHIPPING_SECRET_KEY?.trim();
  if (!secretKey) throw new ConfigError('SHIPPING_SECRET_KEY is required: the store secret key (mk_…)');
  if (secretKey.startsWith('pk_')) {
    throw new ConfigError(
      'SHIPPING_SECRET_KEY holds a public key (pk_…); the BFF needs the secret key (mk_…)',
    );
  }
  if (!secretKey.startsWith('mk_'))
    throw new ConfigError('SHIPPING_SECRET_KEY must be a secret key starting with mk_');
  const publicKey = env.SHIPPING_PUBLIC_KEY?.trim() || undefined;
  if (publicKey && !publicKey.startsWith('pk_'))
    throw new ConfigError('SHIPPING_PUBLIC_KEY must be a public key starting with pk_');

  const apiUrl = url(env, 'SHIPPING_API_URL', 'http://127.0.0.1:4010');
  const mcpUrl = url(env, 'SHIPPING_MCP_URL', `${apiUrl}/mcp`);

  const allowedOrigins = (env.BFF_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new ConfigError(
        'BFF_ALLOWED_ORIGINS must be comma-separated origins such as https://loja.example',
      );
    }
    if (parsed.origin !== origin)
      throw new ConfigError(`BFF_ALLOWED_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
  }

  let agentTokens: AgentToken[] = [];
  if (env.BFF_AGENT_TOKENS?.trim()) {
    let json: unknown;
    try {
      json = JSON.parse(env.BFF_AGENT_TOKENS);
    } catch {
      throw new ConfigError(
        'BFF_AGENT_TOKENS must be JSON: [{"token":"…","scopes":["rates","tracking","labels"]}]',
      );
    }
    const parsed = AgentTokensSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError(
        `BFF_AGENT_TOKENS: ${issue?.path.join('.') || 'value'} ${issue?.message ?? 'is invalid'}`,
      );
    }
    if (parsed.data.some(({ token }) => /^(mk|pk|pl)_/.test(token))) {
      throw new ConfigError('BFF_AGENT_TOKENS: a platform key (mk_…, pk_…, pl_…) is never an agent token');
    }
    agentTokens = parsed.data;
  }

  const visitorRateLimit = parseRateLimit(env.BFF_VISITOR_RATE_LIMIT ?? '120/60');
  if (!visitorRateLimit) throw new ConfigError('BFF_VISITOR_RATE_LIMIT must be calls/seconds, e.g. 120/60');

  const trust = (env.BFF_TRUST_PROXY ?? 'false').trim();
  let trustProxy: false | number | string[];
  if (trust === 'false' || trust === '' || trust === '0') trustProxy = false;
  else if (trust === 'true') {
    throw new ConfigError(
      'BFF_TRUST_PROXY=true would let any visitor choose their IP (the left-most X-Forwarded-For entry); set the number of proxies in front of the BFF (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)',
    );
  } else if (/^\d+$/.test(trust)) trustProxy = Number(trust);
  else {
    const entries = trust.split(',').map((entry) => entry.trim());
    const named = ['loopback', 'linklocal', 'uniquelocal'];
    const valid = (entry: string) => {
      if (named.includes(entry)) return true;
      const [address = '', prefix, ...rest] = entry.split('/');
      if (rest.length > 0 || isIP(address) === 0) return false;
      return (
        prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128))
      );
    };
    if (!entries.every(valid)) {
      throw new ConfigError(
        'BFF_TRUST_PROXY must be false, a number of proxy hops, or comma-separated proxy addresses (IP, CIDR, loopback, linklocal, uniquelocal)',
      );
    }
    trustProxy = entries;
  }

  const shippingRateLimit = parseRateLimit(env.SHIPPING_RATE_LIMIT ?? RATE_LIMIT_TEXT);
  if (!shippingRateLimit)
    throw new ConfigError(`SHIPPING_RATE_LIMIT must be calls/seconds, e.g. ${RATE_LIMIT_TEXT}`);

  const keyDays = env.BFF_IDEMPOTENCY_KEY_DAYS?.trim() || '7';
  const idempotencyKeyDays = Number(keyDays);
  if (!/^\d+(\.\d+)?$/.test(keyDays) || idempotencyKeyDays <= 0 || idempotencyKeyDays > 3650) {
    throw new ConfigError(
      'BFF_IDEMPOTENCY_KEY_DAYS must be a number of days greater than 0 and at most 3650',
    );
  }

  const bffPort = port(env, 'BFF_PORT', 4000);
  const publicUrl = url(env, 'BFF_PUBLIC_URL', `http://127.0.0.1:${bffPort}`);
  if (new URL(publicUrl).pathname !== '/') {
    throw new ConfigError('BFF_PUBLIC_URL must be an origin (scheme://host[:port]) with no path');
  }
  const adminPassword = env.BFF_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 12) {
    throw new ConfigError('BFF_ADMIN_PASSWORD must have at least 12 characters');
  }

  return {
    host: env.BFF_HOST?.trim() || '127.0.0.1',
    port: bffPort,
    apiUrl,
    mcpUrl,
    secretKey,
    publicKey,
    allowedOrigins,
    agentTokens,
    dataDir: parseDataDir(env),
    idempotencyKeyDays,
    visitorRateLimit,
    trustProxy,
    publicUrl,
    adminPassword,
    redisUrl: serviceUrl(env, 'BFF_REDIS_URL', /^rediss?:$/, 'redis://127.0.0.1:6379'),
    databaseUrl: serviceUrl(env, 'BFF_DATABASE_URL', /^postgres(ql)?:$/, 'postgres://user@127.0.0.1:5432/db'),
    shippingRateLimit,
    store: {
      name: env.BFF_STORE_NAME?.trim() || undefined,
      url: optionalUrl(env, 'BFF_STORE_URL'),
      logoUrl: optionalUrl(env, 'BFF_STORE_LOGO_URL'),
    },
  };
}
