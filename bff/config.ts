import { BlockList, isIP } from 'node:net';
import * as z from 'zod/mini';
import { parseCutoff } from '../shared/business-days.ts';
import type { StoreDays } from '../shared/delivery-promise.ts';
import { ConfigError, parseEnv } from '../shared/env.ts';
import { describeIssues } from '../shared/issues.ts';
import { RATE_LIMIT_TEXT } from '../shared/limits.ts';
import { type Box, BoxesSchema } from '../shared/packing/box.ts';
import { parseRateLimit, type RateLimit } from '../shared/rate-limit.ts';
import { isLoopbackHostname } from '../shared/security/loopback.ts';
import { SHIPMENT_EVENT_TYPES, type ShipmentEventType } from '../shared/shipment-events.ts';
import { AgentPolicySchema } from './policies/policies.ts';

export { ConfigError };

export const AGENT_SCOPES = ['rates', 'tracking', 'labels'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

const AgentTokensSchema = z.array(
  z.extend(AgentPolicySchema, {
    token: z.string().check(z.minLength(16, 'each token must have at least 16 characters')),
    scopes: z.array(z.enum(AGENT_SCOPES)).check(z.minLength(1)),
    /** How the ledger and the desk name this agent (default `agent-<n>`, its place in the list). */
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(60))),
  }),
);
export type AgentToken = z.infer<typeof AgentTokensSchema>[number] & { name: string };

/** Where the embedded label ledger lives (`BFF_DATA_DIR`), for tools that need nothing else (`npm run ledger`). */
export function parseDataDir(env: Record<string, string | undefined> = process.env): string {
  return env.BFF_DATA_DIR?.trim() || DEFAULT_DATA_DIR;
}

const DEFAULT_DATA_DIR = '.data';

/** Nuvemshop's public API (its store id follows): `BFF_NUVEMSHOP_API_URL`'s default. */
export const NUVEMSHOP_API_URL = 'https://api.nuvemshop.com.br/v1';

/** What a variable's reader throws: the rest of a sentence that starts with the variable's name. */
class Invalid extends Error {}

/**
 * One environment variable: its text (trimmed, empty as absent) through `read`, which returns the typed value or
 * throws `Invalid` with what is wrong. The schema below is the one list of variables and their rules.
 */
function variable<T>(read: (value: string | undefined) => T, trim = true) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((raw: string | undefined, ctx): T => {
      try {
        return read((trim ? raw?.trim() : raw) || undefined);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        ctx.issues.push({ code: 'custom', message: error.message, input: raw });
        return z.NEVER;
      }
    }),
  );
}

/** The value when it is a URL of one of these `protocols`; else `Invalid` saying `rule`. */
function urlOf(value: string, protocols: RegExp, rule: string): string {
  try {
    if (protocols.test(new URL(value).protocol)) return value;
  } catch {}
  throw new Invalid(rule);
}

const httpUrl = (value: string) => urlOf(value, /^https?:$/, 'must be an http(s) URL').replace(/\/+$/, '');
const optionalHttpUrl = (value: string | undefined) => (value ? httpUrl(value) : undefined);

function serviceUrl(protocols: RegExp, example: string) {
  return (value: string | undefined) =>
    value ? urlOf(value, protocols, `must be a URL such as ${example}`) : undefined;
}

/** A number (default `fallback`) whose text matches `pattern` and that `fits`; else `Invalid` saying `rule`. */
function numberOf(fallback: number, fits: (n: number) => boolean, rule: string, pattern = /^\d+(\.\d+)?$/) {
  return (value: string | undefined): number => {
    const text = value ?? String(fallback);
    if (!pattern.test(text) || !fits(Number(text))) throw new Invalid(rule);
    return Number(text);
  };
}

const port = (fallback: number) =>
  numberOf(fallback, (n) => n <= 65535, 'must be a port number (0-65535)', /^\d+$/);

function wholeNumber(fallback: number, min: number, max: number, unit: string) {
  const rule = `must be a whole number of ${unit} from ${min} to ${max}`;
  return numberOf(fallback, (n) => n >= min && n <= max, rule, /^\d+$/);
}

function rateLimit(fallback: string) {
  return (value: string | undefined): RateLimit => {
    const parsed = parseRateLimit(value ?? fallback);
    if (!parsed) throw new Invalid(`must be calls/seconds, e.g. ${fallback}`);
    return parsed;
  };
}

function secretKey(value: string | undefined): string {
  if (!value) throw new Invalid('is required: the store secret key (mk_…)');
  if (value.startsWith('pk_'))
    throw new Invalid('holds a public key (pk_…); the BFF needs the secret key (mk_…)');
  if (!value.startsWith('mk_')) throw new Invalid('must be a secret key starting with mk_');
  return value;
}

function publicKey(value: string | undefined): string | undefined {
  if (value && !value.startsWith('pk_')) throw new Invalid('must be a public key starting with pk_');
  return value;
}

function allowedOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Invalid('must be comma-separated origins such as https://loja.example');
    }
    if (parsed.origin !== origin) throw new Invalid(`: "${origin}" is not an origin (scheme://host[:port])`);
  }
  return origins;
}

/** The variable's JSON, or `Invalid` showing an `example` of what it holds. */
function json(value: string, example: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Invalid(`must be JSON: ${example}`);
  }
}

function agentTokens(value: string | undefined): AgentToken[] {
  if (!value) return [];
  const parsed = AgentTokensSchema.safeParse(
    json(value, '[{"token":"…","scopes":["rates","tracking","labels"]}]'),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Invalid(`: ${issue?.path.join('.') || 'value'} ${issue?.message ?? 'is invalid'}`);
  }
  if (parsed.data.some(({ token }) => /^(mk|pk|pl)_/.test(token)))
    throw new Invalid(': a platform key (mk_…, pk_…, pl_…) is never an agent token');
  const named = parsed.data.map((entry, i) => ({ ...entry, name: entry.name ?? `agent-${i + 1}` }));
  const names = named.map((entry) => entry.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Invalid(`: the name "${twice}" is given to two tokens`);
  if (names.includes('desk'))
    throw new Invalid(': "desk" names the merchant\'s own labels; choose another name');
  return named;
}

const SERVICE_CODES_EXAMPLE = '{"correios-pac":"03298","correios-sedex":"03220"}';

/** `{"<serviceId>":"<serviceCode>"}`: the platform's presentation ids of services (spec 2.2) and the contract codes. */
function serviceCodes(value: string | undefined): Record<string, string> {
  if (!value) return {};
  const parsed = z
    .record(z.string().check(z.minLength(1), z.maxLength(60)), z.string().check(z.regex(/^\d{5}$/)))
    .safeParse(json(value, SERVICE_CODES_EXAMPLE));
  if (!parsed.success) {
    throw new Invalid(`must map each serviceId to a 5-digit contract code, e.g. ${SERVICE_CODES_EXAMPLE}`);
  }
  return parsed.data;
}

const BOXES_EXAMPLE =
  '[{"id":"M","comprimento":30,"largura":20,"altura":20,"tareGrams":200,"maxWeightGrams":30000}]';

/** `BFF_BOXES`: the merchant's boxes for `plan_shipment` (shared/packing/box.ts says what each field means). */
function boxes(value: string | undefined): Box[] {
  if (!value) return [];
  const parsed = BoxesSchema.safeParse(json(value, BOXES_EXAMPLE));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue && issue.path.length > 0) throw new Invalid(`: ${describeIssues(parsed.error.issues, 1)}`);
  throw new Invalid(
    issue?.code === 'too_big' ? issue.message : `must be a JSON array of boxes: ${BOXES_EXAMPLE}`,
  );
}

/** `BFF_CHECKOUT_TOKENS`: comma-separated tokens of the store's checkout servers for `POST /api/rates/verify`. */
function checkoutTokens(value: string | undefined): string[] {
  const tokens = (value ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  if (tokens.some((token) => token.length < 16))
    throw new Invalid(': each token must have at least 16 characters');
  if (tokens.some((token) => /\s/.test(token)))
    throw new Invalid(': a token has no spaces (separate tokens with commas)');
  if (tokens.some((token) => /^(mk|pk|pl)_/.test(token)))
    throw new Invalid(': a platform key (mk_…, pk_…, pl_…) is never a checkout token');
  return tokens;
}

/** `BFF_CUTOFF`: the São Paulo hour from which an order counts from the next business day (`14:00`, `14h30`, `14`). */
function cutoff(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = parseCutoff(value);
  if (minutes === undefined)
    throw new Invalid('must be an hour of the day in São Paulo, e.g. 14:00 or 14h30');
  return minutes;
}

/** A secret the platform sends or signs with: printable, no spaces, at least `length` characters. */
function platformSecret(length: number, rule: string) {
  return (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (value.length < length || !/^[\x21-\x7e]+$/.test(value))
      throw new Invalid(`must have at least ${length} printable characters and no spaces${rule}`);
    return value;
  };
}

/** A path segment of at least 32 characters (it is the last segment of the callback URL Nuvemshop calls). */
function callbackSecret(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]{32,200}$/.test(value))
    throw new Invalid('must be 32 to 200 letters, digits, "-" or "_" (openssl rand -hex 32)');
  return value;
}

/** An Admin API token of a store platform: letters, digits, "_" and "-" only (it goes into a header). */
function apiToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]{16,512}$/.test(value))
    throw new Invalid(
      'must be the Admin API token as the platform shows it (16+ letters, digits, "_" or "-")',
    );
  return value;
}

/** A Shopify shop's domain, e.g. `loja.myshopify.com`. */
function shopDomain(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/i.test(value))
    throw new Invalid("must be the shop's domain, e.g. loja.myshopify.com");
  return value.toLowerCase();
}

function storeId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,20}$/.test(value)) throw new Invalid('must be the numeric store id Nuvemshop gives');
  return value;
}

/** The public CEP services the desk asks (`BFF_CEP_SERVICES`' default): ViaCEP, then BrasilAPI. */
export const PUBLIC_CEP_SERVICES =
  'viacep:https://viacep.com.br/ws,brasilapi:https://brasilapi.com.br/api/cep/v1';

/** `BFF_CEP_SERVICES`: `kind:baseUrl` pairs, comma-separated (`viacep` or `brasilapi` answer shapes), or `none`. */
function cepServices(value: string | undefined): CepServiceConfig[] {
  if (value === 'none') return [];
  return (value ?? PUBLIC_CEP_SERVICES).split(',').map((entry) => {
    const [kind, ...rest] = entry.trim().split(':');
    if (kind !== 'viacep' && kind !== 'brasilapi')
      throw new Invalid(
        `must be none or comma-separated viacep:<url> or brasilapi:<url>, e.g. ${PUBLIC_CEP_SERVICES}`,
      );
    return { kind, baseUrl: httpUrl(rest.join(':')) };
  });
}

/** A CEP service of `BFF_CEP_SERVICES`: which answer shape it speaks and where. */
export interface CepServiceConfig {
  kind: 'viacep' | 'brasilapi';
  baseUrl: string;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128));
}

function trustProxy(value: string | undefined): false | number | string[] {
  const trust = value ?? 'false';
  if (trust === 'false' || trust === '0') return false;
  if (trust === 'true') {
    throw new Invalid(
      '=true would let any visitor choose their IP (the left-most X-Forwarded-For entry); set the number of proxies in front of the BFF (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(trust)) return Number(trust);
  const entries = trust.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new Invalid(
      'must be false, a number of proxy hops, or comma-separated proxy addresses (IP, CIDR, loopback, linklocal, uniquelocal)',
    );
  }
  return entries;
}

function publicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = httpUrl(value);
  if (new URL(url).pathname !== '/')
    throw new Invalid('must be an origin (scheme://host[:port]) with no path');
  return url;
}

/** `Name <address>` or a bare address, on one line (a header value: a line break would inject headers). */
function mailFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const address = /^(?:[^<>\r\n]*<([^<>\s]+@[^<>\s]+\.[^<>\s]+)>|([^<>\s]+@[^<>\s]+\.[^<>\s]+))$/.exec(value);
  if (!address) throw new Invalid('must be an address, e.g. Loja <pedidos@loja.example>');
  return value;
}

/** The events that e-mail the shopper: comma-separated names, `none`, or (absent) every change but `stalled`. */
function mailEvents(value: string | undefined): ShipmentEventType[] {
  if (!value) return SHIPMENT_EVENT_TYPES.filter((type) => type !== 'shipment.stalled');
  if (value === 'none') return [];
  const names = value.split(',').map((name) => name.trim());
  const known = (name: string): name is ShipmentEventType =>
    (SHIPMENT_EVENT_TYPES as readonly string[]).includes(name);
  if (!names.every(known))
    throw new Invalid(`must be none or comma-separated events among ${SHIPMENT_EVENT_TYPES.join(', ')}`);
  return [...new Set(names)];
}

/** Standard Webhooks: `whsec_` and the base64 of 24 to 64 random bytes. */
function webhookSecret(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const key = value.startsWith('whsec_') ? value.slice(6) : undefined;
  const bytes =
    key !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(key) ? Buffer.from(key, 'base64').length : 0;
  if (bytes < 24 || bytes > 64)
    throw new Invalid(
      'must be whsec_ followed by the base64 of 24 to 64 random bytes (openssl rand -base64 32)',
    );
  return value;
}

/** A secret of at least `length` characters (`rule` ends the message); absent is fine. */
function secretOf(length: number, rule = '') {
  return (value: string | undefined): string | undefined => {
    if (value !== undefined && value.length < length)
      throw new Invalid(`must have at least ${length} characters${rule}`);
    return value;
  };
}

/** `BFF_TEST_CLOCK`: `sandbox` (docs/promise.md, "One clock for tests and demos"), or absent. */
function testClock(value: string | undefined): 'sandbox' | undefined {
  if (value === undefined || value === 'sandbox') return value;
  throw new Invalid('must be sandbox, or absent (the BFF’s own clock)');
}

/**
 * The BFF's environment (docs/configuration.md): every variable, its default and its rule. The first
 * wrong variable in this order is the one the error names.
 */
export const EnvSchema = z.object({
  SHIPPING_SECRET_KEY: variable(secretKey),
  SHIPPING_PUBLIC_KEY: variable(publicKey),
  SHIPPING_API_URL: variable((value) => httpUrl(value ?? 'http://127.0.0.1:4010')),
  SHIPPING_MCP_URL: variable(optionalHttpUrl),
  BFF_ALLOWED_ORIGINS: variable(allowedOrigins),
  BFF_AGENT_TOKENS: variable(agentTokens),
  BFF_SERVICE_CODES: variable(serviceCodes),
  BFF_VISITOR_RATE_LIMIT: variable(rateLimit('120/60')),
  BFF_TRUST_PROXY: variable(trustProxy),
  SHIPPING_RATE_LIMIT: variable(rateLimit(RATE_LIMIT_TEXT)),
  BFF_IDEMPOTENCY_KEY_DAYS: variable(
    numberOf(7, (n) => n > 0 && n <= 3650, 'must be a number of days greater than 0 and at most 3650'),
  ),
  BFF_PORT: variable(port(4000)),
  BFF_PUBLIC_URL: variable(publicOrigin),
  // The password is taken as given (spaces included); only an empty value is absent.
  BFF_ADMIN_PASSWORD: variable(secretOf(12), false),
  BFF_HOST: variable((value) => value ?? '127.0.0.1'),
  BFF_DATA_DIR: variable((value) => value ?? DEFAULT_DATA_DIR),
  BFF_REDIS_URL: variable(serviceUrl(/^rediss?:$/, 'redis://127.0.0.1:6379')),
  BFF_DATABASE_URL: variable(serviceUrl(/^postgres(ql)?:$/, 'postgres://user@127.0.0.1:5432/db')),
  BFF_STORE_NAME: variable((value) => value),
  BFF_STORE_URL: variable(optionalHttpUrl),
  BFF_STORE_LOGO_URL: variable(optionalHttpUrl),
  BFF_BOXES: variable(boxes),
  BFF_CHECKOUT_TOKENS: variable(checkoutTokens),
  BFF_WATCH_INTERVAL_S: variable(wholeNumber(300, 1, 86_400, 'seconds')),
  BFF_WATCH_SHARE: variable(
    numberOf(0.2, (n) => n <= 0.5, 'must be a share from 0 (no watcher) to 0.5, e.g. 0.2'),
  ),
  BFF_STALL_DAYS: variable(wholeNumber(3, 1, 60, 'business days')),
  BFF_SMTP_URL: variable(serviceUrl(/^smtps?:$/, 'smtp://user:password@mail.example:587')),
  BFF_MAIL_FROM: variable(mailFrom),
  BFF_MAIL_EVENTS: variable(mailEvents),
  BFF_WEBHOOK_URL: variable(optionalHttpUrl),
  BFF_WEBHOOK_SECRET: variable(webhookSecret),
  BFF_LINK_SECRET: variable(secretOf(32, ' (openssl rand -hex 32)'), false),
  BFF_HANDLING_DAYS: variable(wholeNumber(0, 0, 60, 'business days')),
  BFF_CUTOFF: variable(cutoff),
  BFF_BROWSER_QUOTE_SHARE: variable(
    numberOf(0.5, (n) => n <= 0.9, 'must be a share from 0 (browsers get no reserve) to 0.9, e.g. 0.5'),
  ),
  BFF_CHECKOUT_DEADLINE_MS: variable(wholeNumber(2500, 100, 10_000, 'milliseconds')),
  BFF_SHOPIFY_SECRET: variable(platformSecret(16, " (the Shopify app's client secret)"), false),
  BFF_NUVEMSHOP_CALLBACK_SECRET: variable(callbackSecret),
  BFF_SHOPIFY_SHOP: variable(shopDomain),
  BFF_SHOPIFY_TOKEN: variable(apiToken),
  BFF_SHOPIFY_API_URL: variable(optionalHttpUrl),
  BFF_NUVEMSHOP_STORE_ID: variable(storeId),
  BFF_NUVEMSHOP_TOKEN: variable(apiToken),
  BFF_NUVEMSHOP_API_URL: variable(optionalHttpUrl),
  BFF_PROMISE_QUANTILE: variable(
    numberOf(0.95, (n) => n >= 0.5 && n <= 0.99, 'must be a share from 0.5 to 0.99, e.g. 0.95'),
  ),
  BFF_PROMISE_MIN_PARCELS: variable(wholeNumber(30, 1, 10_000, 'parcels')),
  BFF_TEST_CLOCK: variable(testClock),
  BFF_NUVEMSHOP_APP_SECRET: variable(platformSecret(16, " (the Nuvemshop app's client secret)"), false),
  BFF_CEP_SERVICES: variable(cepServices),
  BFF_CEP_TIMEOUT_MS: variable(wholeNumber(1500, 100, 10_000, 'milliseconds')),
});
export type BffEnv = z.output<typeof EnvSchema>;

/** The parsed configuration: what the BFF's modules read (built from `EnvSchema`'s output). */
export type BffConfig = ReturnType<typeof toConfig>;

function toConfig(env: BffEnv) {
  return {
    host: env.BFF_HOST,
    port: env.BFF_PORT,
    apiUrl: env.SHIPPING_API_URL,
    mcpUrl: env.SHIPPING_MCP_URL ?? `${env.SHIPPING_API_URL}/mcp`,
    secretKey: env.SHIPPING_SECRET_KEY,
    publicKey: env.SHIPPING_PUBLIC_KEY,
    allowedOrigins: env.BFF_ALLOWED_ORIGINS,
    agentTokens: env.BFF_AGENT_TOKENS,
    /** `serviceId` → contract `serviceCode` (`BFF_SERVICE_CODES`), so a quote's service becomes a label's. */
    serviceCodes: env.BFF_SERVICE_CODES,
    dataDir: env.BFF_DATA_DIR,
    /** How long an `idempotencyKey` of `generate_label` is remembered (`BFF_IDEMPOTENCY_KEY_DAYS`, default 7). */
    idempotencyKeyDays: env.BFF_IDEMPOTENCY_KEY_DAYS,
    visitorRateLimit: env.BFF_VISITOR_RATE_LIMIT,
    /**
     * Express `trust proxy`: `false`, a number of proxy hops in front of the BFF, or the proxies' addresses (IPs,
     * CIDRs, `loopback`, `linklocal`, `uniquelocal`). Never `true`: that trusts the left-most X-Forwarded-For entry,
     * which any visitor writes.
     */
    trustProxy: env.BFF_TRUST_PROXY,
    /** The BFF's public origin (no trailing slash): OAuth issuer and resource, the Host/Origin check, absolute links. */
    publicUrl: env.BFF_PUBLIC_URL ?? `http://127.0.0.1:${env.BFF_PORT}`,
    /** The merchant's password for the OAuth consent page and /admin; undefined turns both off. */
    adminPassword: env.BFF_ADMIN_PASSWORD,
    /** Redis for state shared across instances; undefined keeps it in process memory. */
    redisUrl: env.BFF_REDIS_URL,
    /** PostgreSQL for the ledger and OAuth storage; undefined uses node:sqlite in `dataDir`. */
    databaseUrl: env.BFF_DATABASE_URL,
    /** The platform's limit per store and route (spec 8). */
    shippingRateLimit: env.SHIPPING_RATE_LIMIT,
    /** Branding of the tracking page and of the shopper's e-mails. */
    store: { name: env.BFF_STORE_NAME, url: env.BFF_STORE_URL, logoUrl: env.BFF_STORE_LOGO_URL },
    /** The merchant's boxes for `plan_shipment` (`BFF_BOXES`); none by default, and then it plans nothing. */
    boxes: env.BFF_BOXES,
    /** Tokens of the store's checkout servers for `POST /api/rates/verify`; none: the route refuses everyone. */
    checkoutTokens: env.BFF_CHECKOUT_TOKENS,
    /** The watcher, the shopper's e-mails and the merchant's webhooks (docs/architecture.md, "Notifications and orders without a code"). */
    notifications: {
      watchIntervalMs: env.BFF_WATCH_INTERVAL_S * 1000,
      /** Share of the tracking allowance kept for the watcher; 0 turns the watcher off. */
      watchShare: env.BFF_WATCH_SHARE,
      stallDays: env.BFF_STALL_DAYS,
      smtpUrl: env.BFF_SMTP_URL,
      mailFrom: env.BFF_MAIL_FROM,
      mailEvents: env.BFF_MAIL_EVENTS,
      webhookUrl: env.BFF_WEBHOOK_URL,
      webhookSecret: env.BFF_WEBHOOK_SECRET,
    },
    /** The HMAC key of signed tracking links; undefined: generated once into the ledger's database. */
    linkSecret: env.BFF_LINK_SECRET,
    /**
     * The store's own days in front of the carrier's (`BFF_HANDLING_DAYS`, `BFF_CUTOFF`): every promise the quote
     * core answers counts them, as the calculator's `handling-days` and `cutoff` do (set both alike).
     */
    storeDays: storeDaysOf(env),
    /** The part of `SHIPPING_RATE_LIMIT`'s quotes kept for shoppers' browsers (`BFF_BROWSER_QUOTE_SHARE`). */
    browserQuoteShare: env.BFF_BROWSER_QUOTE_SHARE,
    /** The checkout adapters (docs/checkout/): deadline, the platforms' secrets, their Admin APIs for registration. */
    checkout: {
      deadlineMs: env.BFF_CHECKOUT_DEADLINE_MS,
      shopifySecret: env.BFF_SHOPIFY_SECRET,
      nuvemshopCallbackSecret: env.BFF_NUVEMSHOP_CALLBACK_SECRET,
      shopify: {
        shop: env.BFF_SHOPIFY_SHOP,
        token: env.BFF_SHOPIFY_TOKEN,
        apiUrl:
          env.BFF_SHOPIFY_API_URL ?? (env.BFF_SHOPIFY_SHOP ? `https://${env.BFF_SHOPIFY_SHOP}` : undefined),
      },
      nuvemshop: {
        storeId: env.BFF_NUVEMSHOP_STORE_ID,
        token: env.BFF_NUVEMSHOP_TOKEN,
        apiUrl: env.BFF_NUVEMSHOP_API_URL ?? NUVEMSHOP_API_URL,
        /** Verifies `x-linkedstore-hmac-sha256` of the store's order webhooks (docs/orders.md). */
        appSecret: env.BFF_NUVEMSHOP_APP_SECRET,
      },
    },
    /** The delivery promise learnt from the store's parcels (docs/promise.md). */
    promise: { quantile: env.BFF_PROMISE_QUANTILE, minParcels: env.BFF_PROMISE_MIN_PARCELS },
    /** `sandbox`: time-dependent work follows the sandbox's clock (`GET /_sandbox/clock`); never in production. */
    testClock: env.BFF_TEST_CLOCK,
    /** Where the desk looks up an address by its CEP (docs/orders.md, "Address by CEP"). */
    cep: { services: env.BFF_CEP_SERVICES, timeoutMs: env.BFF_CEP_TIMEOUT_MS },
  };
}

function storeDaysOf(env: BffEnv): StoreDays {
  const days: StoreDays = { handlingDays: env.BFF_HANDLING_DAYS };
  if (env.BFF_CUTOFF !== undefined) days.cutoffMinutes = env.BFF_CUTOFF;
  return days;
}

/** Variables that need one another; the message names the one missing. */
function checkPairs(env: BffEnv): void {
  if (env.BFF_SMTP_URL && !env.BFF_MAIL_FROM)
    throw new ConfigError('BFF_MAIL_FROM is required with BFF_SMTP_URL: the sender of the shopper e-mails');
  if (env.BFF_NUVEMSHOP_APP_SECRET && !(env.BFF_NUVEMSHOP_STORE_ID && env.BFF_NUVEMSHOP_TOKEN))
    throw new ConfigError(
      'BFF_NUVEMSHOP_STORE_ID and BFF_NUVEMSHOP_TOKEN are required with BFF_NUVEMSHOP_APP_SECRET: the paid order is read through the Nuvemshop API',
    );
  if (env.BFF_WEBHOOK_URL && !env.BFF_WEBHOOK_SECRET)
    throw new ConfigError('BFF_WEBHOOK_SECRET is required with BFF_WEBHOOK_URL: webhooks are always signed');
  if (
    env.BFF_TEST_CLOCK &&
    !isLoopbackHostname(new URL(env.SHIPPING_API_URL).hostname.replace(/^\[|\]$/g, ''))
  )
    throw new ConfigError(
      `BFF_TEST_CLOCK=sandbox is refused: SHIPPING_API_URL (${new URL(env.SHIPPING_API_URL).origin}) is not a sandbox on this machine; a test clock never drives a BFF against the real platform`,
    );
}

/**
 * Parses the BFF's environment once (docs/configuration.md). A missing `SHIPPING_SECRET_KEY`, or a public
 * key given as the secret, is an error that names the variable.
 */
export function parseConfig(env: Record<string, string | undefined> = process.env): BffConfig {
  const parsed = parseEnv(EnvSchema, env);
  checkPairs(parsed);
  return toConfig(parsed);
}

/** Addresses no one outside the machine or its private network reaches (RFC 1918, RFC 4193, link-local). */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8);
PRIVATE.addSubnet('172.16.0.0', 12);
PRIVATE.addSubnet('192.168.0.0', 16);
PRIVATE.addSubnet('169.254.0.0', 16);
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/**
 * The line the BFF logs at start when `BFF_TRUST_PROXY` is a hop count and `BFF_HOST` is not a loopback or private
 * address: then anyone who reaches the BFF directly writes the "proxy" entry of X-Forwarded-For and picks the address
 * every per-address rule counts (measured on the old login: 100,000 guesses in 12 s through rotating values).
 * Undefined when the setting is safe as bound.
 */
export function proxyTrustWarning(config: Pick<BffConfig, 'trustProxy' | 'host'>): string | undefined {
  const hops = config.trustProxy;
  if (typeof hops !== 'number') return undefined;
  const host = config.host.replace(/^\[|\]$/g, '');
  if (isLoopbackHostname(host)) return undefined;
  const family = isIP(host);
  if (family !== 0 && PRIVATE.check(host, family === 6 ? 'ipv6' : 'ipv4')) return undefined;
  return (
    `BFF_TRUST_PROXY=${hops} trusts ${hops === 1 ? 'the last X-Forwarded-For entry' : `the last ${hops} X-Forwarded-For entries`} ` +
    `from anyone, and the BFF listens on ${config.host}: a client that reaches it directly chooses the address that ` +
    "login and visitor limits count. Set BFF_TRUST_PROXY to the proxy's address instead (loopback, or a list of IPs and CIDRs), or bind BFF_HOST to a private address."
  );
}
