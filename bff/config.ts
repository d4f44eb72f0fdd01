import { BlockList, isIP } from 'node:net';
import * as z from 'zod/mini';
import type { StoreDays } from '../shared/delivery-promise.ts';
import { ConfigError, parseEnv } from '../shared/env.ts';
import { RATE_LIMIT_TEXT } from '../shared/platform-limits.ts';
import { isLoopbackHostname, isLoopbackUrl } from '../shared/security/loopback.ts';
import { agentTokens } from './agent-tokens.ts';
import {
  allowedOrigins,
  apiToken,
  boxes,
  callbackSecret,
  cepServices,
  checkoutTokens,
  clientId,
  cutoff,
  httpUrl,
  locationId,
  mailEvents,
  mailFrom,
  numberOf,
  optionalHttpUrl,
  platformSecret,
  port,
  publicKey,
  publicOrigin,
  rateLimit,
  secretKey,
  secretOf,
  serviceCodes,
  serviceUrl,
  shopDomain,
  storeId,
  storeKey,
  testClock,
  trueOrFalse,
  trustProxy,
  variable,
  webhookSecret,
  wholeNumber,
} from './env-readers.ts';
import { knownSecretVariable, type SecretValues } from './known-secrets.ts';

export { ConfigError };

/** Where the embedded label ledger lives (`BFF_DATA_DIR`), for tools that need nothing else (`npm run ledger`). */
export function parseDataDir(env: Record<string, string | undefined> = process.env): string {
  return env.BFF_DATA_DIR?.trim() || DEFAULT_DATA_DIR;
}

const DEFAULT_DATA_DIR = '.data';

/** Nuvemshop's public API (its store id follows): `BFF_NUVEMSHOP_API_URL`'s default. */
export const NUVEMSHOP_API_URL = 'https://api.nuvemshop.com.br/v1';

/** Where Nuvemshop exchanges an install's code (`BFF_NUVEMSHOP_AUTH_URL`'s default). */
export const NUVEMSHOP_AUTH_URL = 'https://www.tiendanube.com';

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
  BFF_SHOPIFY_LOCATION_ID: variable(locationId),
  BFF_STORE_NOTIFY_CUSTOMER: variable(trueOrFalse),
  BFF_PROMISE_QUANTILE: variable(
    numberOf(0.95, (n) => n >= 0.5 && n <= 0.99, 'must be a share from 0.5 to 0.99, e.g. 0.95'),
  ),
  BFF_PROMISE_MIN_PARCELS: variable(wholeNumber(30, 1, 10_000, 'parcels')),
  BFF_TEST_CLOCK: variable(testClock),
  BFF_NUVEMSHOP_APP_SECRET: variable(platformSecret(16, " (the Nuvemshop app's client secret)"), false),
  BFF_CEP_SERVICES: variable(cepServices),
  BFF_SHOPIFY_CLIENT_ID: variable(clientId),
  BFF_SHOPIFY_CALLBACK_SECRET: variable(callbackSecret),
  BFF_NUVEMSHOP_APP_ID: variable(storeId),
  BFF_NUVEMSHOP_AUTH_URL: variable(optionalHttpUrl),
  BFF_STORE_KEY: variable(storeKey),
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
      /** The last segment of `/checkout/shopify/rates/<secret>`, where unsigned carrier calls are taken. */
      shopifyCallbackSecret: env.BFF_SHOPIFY_CALLBACK_SECRET,
      shopify: {
        shop: env.BFF_SHOPIFY_SHOP,
        token: env.BFF_SHOPIFY_TOKEN,
        apiUrl:
          env.BFF_SHOPIFY_API_URL ?? (env.BFF_SHOPIFY_SHOP ? `https://${env.BFF_SHOPIFY_SHOP}` : undefined),
        /** `BFF_SHOPIFY_API_URL` as given: every shop's admin origin when set (the sandbox), else `https://<shop>`. */
        adminUrl: env.BFF_SHOPIFY_API_URL,
        /** The app's client ID: with `BFF_SHOPIFY_SECRET`, install, client credentials and renewal (docs/checkout/connect.md). */
        clientId: env.BFF_SHOPIFY_CLIENT_ID,
        /** The secret last segment of the carrier callback the BFF registers. */
        callbackSecret: env.BFF_SHOPIFY_CALLBACK_SECRET,
        /** The location the parcels ship from (`BFF_SHOPIFY_LOCATION_ID`); none: the shop's only location. */
        locationId: env.BFF_SHOPIFY_LOCATION_ID,
      },
      /** Whether the store e-mails the shopper the tracking sent back: not when the kit e-mails them itself. */
      notifyCustomer: env.BFF_STORE_NOTIFY_CUSTOMER ?? env.BFF_SMTP_URL === undefined,
      nuvemshop: {
        storeId: env.BFF_NUVEMSHOP_STORE_ID,
        token: env.BFF_NUVEMSHOP_TOKEN,
        apiUrl: env.BFF_NUVEMSHOP_API_URL ?? NUVEMSHOP_API_URL,
        /** Verifies `x-linkedstore-hmac-sha256` of the store's order webhooks (docs/orders.md). */
        appSecret: env.BFF_NUVEMSHOP_APP_SECRET,
        /** The app's id: with `BFF_NUVEMSHOP_APP_SECRET`, the install's redirect URL exchanges codes. */
        appId: env.BFF_NUVEMSHOP_APP_ID,
        authUrl: env.BFF_NUVEMSHOP_AUTH_URL ?? NUVEMSHOP_AUTH_URL,
      },
      /** `BFF_STORE_KEY`: the key of store tokens at rest (else `store.key` in `BFF_DATA_DIR`, bff/stores/store-key.ts). */
      storeKey: env.BFF_STORE_KEY,
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
  if (
    env.BFF_NUVEMSHOP_APP_SECRET &&
    !env.BFF_NUVEMSHOP_APP_ID &&
    !(env.BFF_NUVEMSHOP_STORE_ID && env.BFF_NUVEMSHOP_TOKEN)
  )
    throw new ConfigError(
      'BFF_NUVEMSHOP_STORE_ID and BFF_NUVEMSHOP_TOKEN are required with BFF_NUVEMSHOP_APP_SECRET (or BFF_NUVEMSHOP_APP_ID, to install the app): the paid order is read through the Nuvemshop API',
    );
  if (env.BFF_SHOPIFY_CLIENT_ID && !env.BFF_SHOPIFY_SECRET)
    throw new ConfigError(
      'BFF_SHOPIFY_SECRET (the app’s client secret) is required with BFF_SHOPIFY_CLIENT_ID',
    );
  if (env.BFF_NUVEMSHOP_APP_ID && !env.BFF_NUVEMSHOP_APP_SECRET)
    throw new ConfigError(
      'BFF_NUVEMSHOP_APP_SECRET (the app’s client secret) is required with BFF_NUVEMSHOP_APP_ID',
    );
  if (env.BFF_DATABASE_URL && !env.BFF_STORE_KEY && (env.BFF_SHOPIFY_CLIENT_ID || env.BFF_NUVEMSHOP_APP_ID))
    throw new ConfigError(
      'BFF_STORE_KEY is required with BFF_DATABASE_URL when stores connect (every instance opens the same tokens): openssl rand -hex 32',
    );
  if (env.BFF_WEBHOOK_URL && !env.BFF_WEBHOOK_SECRET)
    throw new ConfigError('BFF_WEBHOOK_SECRET is required with BFF_WEBHOOK_URL: webhooks are always signed');
  // Both platform URLs: labels are bought through SHIPPING_MCP_URL, so a real one there is the real platform too.
  for (const [variable, url] of platformUrls(env))
    if (env.BFF_TEST_CLOCK && !isLoopbackUrl(url))
      throw new ConfigError(
        `BFF_TEST_CLOCK=sandbox is refused: ${variable} (${new URL(url).origin}) is not a sandbox on this machine; a test clock never drives a BFF against the real platform`,
      );
  const known = knownSecretVariable(
    secretValues(env),
    platformUrls(env).map(([, url]) => url),
  );
  if (known)
    throw new ConfigError(
      `${known} is refused: it holds a placeholder (REPLACE…), an example from the docs, a sandbox fixture or the demo's secret, which anyone can read; generate one of your own (openssl rand -hex 32). Known values are taken only against a sandbox on this machine.`,
    );
}

/** `SHIPPING_API_URL` and `SHIPPING_MCP_URL` as the BFF calls them. */
function platformUrls(env: BffEnv): [string, string][] {
  return [
    ['SHIPPING_API_URL', env.SHIPPING_API_URL],
    ['SHIPPING_MCP_URL', env.SHIPPING_MCP_URL ?? `${env.SHIPPING_API_URL}/mcp`],
  ];
}

/** The secrets whose known value lets a stranger in: the desk, signed links and events, store webhooks, agents. */
function secretValues(env: BffEnv): SecretValues {
  const one = (value: string | undefined) => (value === undefined ? [] : [value]);
  return {
    SHIPPING_SECRET_KEY: one(env.SHIPPING_SECRET_KEY),
    BFF_ADMIN_PASSWORD: one(env.BFF_ADMIN_PASSWORD),
    BFF_AGENT_TOKENS: env.BFF_AGENT_TOKENS.map((agent) => agent.token),
    BFF_CHECKOUT_TOKENS: env.BFF_CHECKOUT_TOKENS,
    BFF_LINK_SECRET: one(env.BFF_LINK_SECRET),
    BFF_WEBHOOK_SECRET: one(env.BFF_WEBHOOK_SECRET),
    BFF_SHOPIFY_SECRET: one(env.BFF_SHOPIFY_SECRET),
    BFF_SHOPIFY_TOKEN: one(env.BFF_SHOPIFY_TOKEN),
    BFF_NUVEMSHOP_CALLBACK_SECRET: one(env.BFF_NUVEMSHOP_CALLBACK_SECRET),
    BFF_NUVEMSHOP_APP_SECRET: one(env.BFF_NUVEMSHOP_APP_SECRET),
    BFF_NUVEMSHOP_TOKEN: one(env.BFF_NUVEMSHOP_TOKEN),
  };
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
