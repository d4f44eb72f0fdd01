import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { parseCutoff } from '../shared/business-days.ts';
import { SHOPIFY_SHOP_PATTERN } from '../shared/checkouts/store-oauth.ts';
import { describeIssues } from '../shared/issues.ts';
import { type Box, BoxesSchema } from '../shared/packing/box.ts';
import { SHIPMENT_EVENT_TYPES, type ShipmentEventType } from '../shared/shipment-events.ts';
import { parseRateLimit, type RateLimit } from '../shared/windowed-counter.ts';
import { parseStoreKey } from './stores/store-key.ts';

// How each variable of the BFF's environment is read (bff/config.ts's `EnvSchema` lists them): its text, trimmed and
// empty as absent, to the typed value, or `Invalid` saying what is wrong in the rest of a sentence that starts with
// the variable's name.

/** What a variable's reader throws: the rest of a sentence that starts with the variable's name. */
export class Invalid extends Error {}

/**
 * One environment variable: its text (trimmed, empty as absent) through `read`, which returns the typed value or
 * throws `Invalid` with what is wrong. `EnvSchema` (bff/config.ts) is the one list of variables and their rules.
 */
export function variable<T>(read: (value: string | undefined) => T, trim = true) {
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
export function urlOf(value: string, protocols: RegExp, rule: string): string {
  try {
    if (protocols.test(new URL(value).protocol)) return value;
  } catch {}
  throw new Invalid(rule);
}

export const httpUrl = (value: string) =>
  urlOf(value, /^https?:$/, 'must be an http(s) URL').replace(/\/+$/, '');
export const optionalHttpUrl = (value: string | undefined) => (value ? httpUrl(value) : undefined);

export function serviceUrl(protocols: RegExp, example: string) {
  return (value: string | undefined) =>
    value ? urlOf(value, protocols, `must be a URL such as ${example}`) : undefined;
}

/** A number (default `fallback`) whose text matches `pattern` and that `fits`; else `Invalid` saying `rule`. */
export function numberOf(
  fallback: number,
  fits: (n: number) => boolean,
  rule: string,
  pattern = /^\d+(\.\d+)?$/,
) {
  return (value: string | undefined): number => {
    const text = value ?? String(fallback);
    if (!pattern.test(text) || !fits(Number(text))) throw new Invalid(rule);
    return Number(text);
  };
}

export const port = (fallback: number) =>
  numberOf(fallback, (n) => n <= 65535, 'must be a port number (0-65535)', /^\d+$/);

export function wholeNumber(fallback: number, min: number, max: number, unit: string) {
  const rule = `must be a whole number of ${unit} from ${min} to ${max}`;
  return numberOf(fallback, (n) => n >= min && n <= max, rule, /^\d+$/);
}

export function rateLimit(fallback: string) {
  return (value: string | undefined): RateLimit => {
    const parsed = parseRateLimit(value ?? fallback);
    if (!parsed) throw new Invalid(`must be calls/seconds, e.g. ${fallback}`);
    return parsed;
  };
}

export function secretKey(value: string | undefined): string {
  if (!value) throw new Invalid('is required: the store secret key (mk_…)');
  if (value.startsWith('pk_'))
    throw new Invalid('holds a public key (pk_…); the BFF needs the secret key (mk_…)');
  if (!value.startsWith('mk_')) throw new Invalid('must be a secret key starting with mk_');
  return value;
}

export function publicKey(value: string | undefined): string | undefined {
  if (value && !value.startsWith('pk_')) throw new Invalid('must be a public key starting with pk_');
  return value;
}

/** The non-empty entries of a comma-separated list, trimmed. */
const commaSeparated = (value: string | undefined) =>
  (value ?? '').split(',').flatMap((entry) => entry.trim() || []);

export function allowedOrigins(value: string | undefined): string[] {
  const origins = commaSeparated(value);
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
export function json(value: string, example: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Invalid(`must be JSON: ${example}`);
  }
}

export const SERVICE_CODES_EXAMPLE = '{"correios-pac":"03298","correios-sedex":"03220"}';

/** `{"<serviceId>":"<serviceCode>"}`: the platform's presentation ids of services (spec 2.2) and the contract codes. */
export function serviceCodes(value: string | undefined): Record<string, string> {
  if (!value) return {};
  const parsed = z
    .record(z.string().check(z.minLength(1), z.maxLength(60)), z.string().check(z.regex(/^\d{5}$/)))
    .safeParse(json(value, SERVICE_CODES_EXAMPLE));
  if (!parsed.success) {
    throw new Invalid(`must map each serviceId to a 5-digit contract code, e.g. ${SERVICE_CODES_EXAMPLE}`);
  }
  return parsed.data;
}

export const BOXES_EXAMPLE =
  '[{"id":"M","comprimento":30,"largura":20,"altura":20,"tareGrams":200,"maxWeightGrams":30000}]';

/** `BFF_BOXES`: the merchant's boxes for `plan_shipment` (shared/packing/box.ts says what each field means). */
export function boxes(value: string | undefined): Box[] {
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
export function checkoutTokens(value: string | undefined): string[] {
  const tokens = commaSeparated(value);
  if (tokens.some((token) => token.length < 16))
    throw new Invalid(': each token must have at least 16 characters');
  if (tokens.some((token) => /\s/.test(token)))
    throw new Invalid(': a token has no spaces (separate tokens with commas)');
  if (tokens.some((token) => /^(mk|pk|pl)_/.test(token)))
    throw new Invalid(': a platform key (mk_…, pk_…, pl_…) is never a checkout token');
  return tokens;
}

/** `BFF_CUTOFF`: the São Paulo hour from which an order counts from the next business day (`14:00`, `14h30`, `14`). */
export function cutoff(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = parseCutoff(value);
  if (minutes === undefined)
    throw new Invalid('must be an hour of the day in São Paulo, e.g. 14:00 or 14h30');
  return minutes;
}

/** The value when it matches `pattern`, else `Invalid` saying `rule`; absent is fine. */
export function matching(pattern: RegExp, rule: string) {
  return (value: string | undefined): string | undefined => {
    if (value !== undefined && !pattern.test(value)) throw new Invalid(rule);
    return value;
  };
}

/** A secret the platform sends or signs with: printable, no spaces, at least `length` characters. */
export const platformSecret = (length: number, rule: string) =>
  matching(
    new RegExp(`^[\\x21-\\x7e]{${length},}$`),
    `must have at least ${length} printable characters and no spaces${rule}`,
  );

/** A path segment of at least 32 characters (it is the last segment of the callback URL Nuvemshop calls). */
export const callbackSecret = matching(
  /^[A-Za-z0-9_-]{32,200}$/,
  'must be 32 to 200 letters, digits, "-" or "_" (openssl rand -hex 32)',
);

/** An app's client ID as a Dev Dashboard shows it (letters, digits, "_" and "-"). */
export const clientId = matching(
  /^[A-Za-z0-9_-]{8,200}$/,
  'must be the app’s client ID as the Dev Dashboard shows it (letters, digits, "_" or "-")',
);

/** `BFF_STORE_KEY`: 32 bytes as 64 hex digits or base64 (openssl rand -hex 32). */
export function storeKey(value: string | undefined): Buffer | undefined {
  if (value === undefined) return undefined;
  const key = parseStoreKey(value);
  if (!key) throw new Invalid('must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)');
  return key;
}

/** An Admin API token of a store platform: letters, digits, "_" and "-" only (it goes into a header). */
export const apiToken = matching(
  /^[A-Za-z0-9_-]{16,512}$/,
  'must be the Admin API token as the platform shows it (16+ letters, digits, "_" or "-")',
);

/** A Shopify shop's domain, e.g. `loja.myshopify.com`. */
export function shopDomain(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The permanent name: Shopify's webhooks and installs name the shop by it, so a custom domain here would leave
  // every paid order "ignored" as another shop's.
  if (!SHOPIFY_SHOP_PATTERN.test(value.toLowerCase()))
    throw new Invalid(
      "must be the shop's domain <name>.myshopify.com, e.g. loja.myshopify.com (not a custom domain: webhooks name the shop by it)",
    );
  return value.toLowerCase();
}

export const storeId = matching(/^\d{1,20}$/, 'must be the numeric store id Nuvemshop gives');

/** A Shopify location's id (`123` or `gid://shopify/Location/123`): where the parcels ship from. */
export const locationId = matching(
  /^(\d{1,20}|gid:\/\/shopify\/Location\/\d{1,20})$/,
  "must be the Shopify location's id, e.g. 123456789 or gid://shopify/Location/123456789",
);

/** `true` or `false`; absent: undefined (the caller's default). */
export function trueOrFalse(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new Invalid('must be true or false');
  return value === 'true';
}

/** The public CEP services the desk asks (`BFF_CEP_SERVICES`' default): ViaCEP, then BrasilAPI. */
export const PUBLIC_CEP_SERVICES =
  'viacep:https://viacep.com.br/ws,brasilapi:https://brasilapi.com.br/api/cep/v1';

/** `BFF_CEP_SERVICES`: `kind:baseUrl` pairs, comma-separated (`viacep` or `brasilapi` answer shapes), or `none`. */
export function cepServices(value: string | undefined): CepServiceConfig[] {
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

export const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (isIP(address) === 4 ? 32 : 128));
}

export function trustProxy(value: string | undefined): false | number | string[] {
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

export function publicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = httpUrl(value);
  if (new URL(url).pathname !== '/')
    throw new Invalid('must be an origin (scheme://host[:port]) with no path');
  return url;
}

/** `Name <address>` or a bare address, on one line (a header value: a line break would inject headers). */
export function mailFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const address = /^(?:[^<>\r\n]*<([^<>\s]+@[^<>\s]+\.[^<>\s]+)>|([^<>\s]+@[^<>\s]+\.[^<>\s]+))$/.exec(value);
  if (!address) throw new Invalid('must be an address, e.g. Loja <pedidos@loja.example>');
  return value;
}

/** The events that e-mail the shopper: comma-separated names, `none`, or (absent) every change but `stalled`. */
export function mailEvents(value: string | undefined): ShipmentEventType[] {
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
export function webhookSecret(value: string | undefined): string | undefined {
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
export function secretOf(length: number, rule = '') {
  return (value: string | undefined): string | undefined => {
    if (value !== undefined && value.length < length)
      throw new Invalid(`must have at least ${length} characters${rule}`);
    return value;
  };
}

/** `BFF_TEST_CLOCK`: `sandbox` (docs/promise.md, "One clock for tests and demos"), or absent. */
export function testClock(value: string | undefined): 'sandbox' | undefined {
  if (value === undefined || value === 'sandbox') return value;
  throw new Invalid('must be sandbox, or absent (the BFF’s own clock)');
}
