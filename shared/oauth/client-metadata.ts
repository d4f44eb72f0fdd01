import type { IncomingHttpHeaders } from 'node:http';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { LRUCache } from 'lru-cache';
import * as z from 'zod/mini';
import {
  isSafeFetchError,
  type SafeFetchError,
  type SafeFetchOptions,
  safeFetch,
} from '../security/safe-fetch.ts';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP 2025-11-25, "Client Registration"):
 * a client whose `client_id` is an `https` URL publishes its metadata at that URL, and the authorization server
 * fetches it instead of a registration. This module owns the fetch (through `safeFetch`), the validation and the
 * cache; the provider turns a document into a client.
 */

/** The limits of a document fetch: the draft's recommended 5 KB (§6.6), 5 s, and at most a day in the cache. */
export const CLIENT_METADATA_LIMITS = {
  timeoutMs: 5_000,
  maxBytes: 5 * 1024,
  maxCacheMs: 24 * 3_600_000,
  /** Documents kept in the cache (least recently used go first). */
  cacheEntries: 1_000,
  /**
   * Documents fetched at once (distinct URLs): the pages fetch before any per-address limit applies, so this bounds
   * the sockets and the outbound requests strangers can make the server hold.
   */
  maxInFlight: 20,
  urlLength: 2_000,
} as const;

/**
 * What the server reads from a document (MCP 2025-11-25: `client_id`, `client_name` and `redirect_uris` are required).
 * Other properties are allowed and ignored (§4.1); the redirect URIs, name, grant and response types then pass the
 * same rules as a registration (`OAuthProvider`).
 */
export const ClientMetadataDocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().check(z.minLength(1)),
  redirect_uris: z.array(z.string()).check(z.minLength(1)),
  grant_types: z.optional(z.array(z.string())),
  response_types: z.optional(z.array(z.string())),
  token_endpoint_auth_method: z.optional(z.string()),
  scope: z.optional(z.string()),
  client_uri: z.optional(z.string()),
  logo_uri: z.optional(z.string()),
  client_secret: z.optional(z.unknown()),
  client_secret_expires_at: z.optional(z.unknown()),
});
export type ClientMetadataDocument = z.infer<typeof ClientMetadataDocumentSchema>;

/** Why a document could not be used. */
export type ClientMetadataReason =
  | 'client_id_url'
  | 'fetch'
  | 'status'
  | 'content_type'
  | 'json'
  | 'document'
  | 'busy';

/**
 * A `client_id` URL whose document could not be fetched or is not acceptable: `invalid_client` on the wire (the SDK's
 * handlers answer it as JSON on /token and /revoke; our pages show it on /authorize, never redirecting).
 */
export class ClientMetadataError extends InvalidClientError {
  readonly reason: ClientMetadataReason;

  constructor(reason: ClientMetadataReason, clientId: string, problem: string) {
    super(`client metadata document ${clientId.slice(0, 200)}: ${problem}`);
    this.reason = reason;
  }
}

export function isClientMetadataError(error: unknown): error is ClientMetadataError {
  return error instanceof ClientMetadataError;
}

/**
 * Whether a `client_id` is meant as a URL (it has a scheme): then it is a metadata document's address and nothing
 * else. Ids this server registers (UUIDs) never look like one (§6.9).
 */
export function isClientIdUrl(clientId: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);
}

/** The host a URL client id names (the consent page and /admin/agents show it, §6.4), or undefined. */
export function clientIdHost(clientId: string): string | undefined {
  return isClientIdUrl(clientId) ? URL.parse(clientId)?.host : undefined;
}

/**
 * §3: https, a path, no dot segments, no fragment, no user or password (a query is tolerated: SHOULD NOT). The rule
 * is checked on what the URL parser makes of the text as well as on the text: the parser drops tabs and line breaks
 * and reads `\` as `/`, so `a\..\victim\client.json` and `a/.<tab>./victim` both fetch `/victim/client.json`. Such
 * characters are refused outright, and a path the parser would rewrite at all (dot segments resolved, characters
 * escaped) is refused too: the document fetched is always at the path written.
 */
export function clientIdUrlProblem(clientId: string): string | undefined {
  if (clientId.length > CLIENT_METADATA_LIMITS.urlLength) return 'the URL is too long';
  if (clientId.includes('\\')) return 'a client_id URL must not contain a backslash';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f]/.test(clientId))
    return 'a client_id URL must not contain a tab, line break, space or other control character';
  const url = URL.parse(clientId);
  if (!url) return 'not a URL';
  if (url.protocol !== 'https:') return `a client_id URL must use https, not ${url.protocol.slice(0, -1)}`;
  if (url.username || url.password) return 'a client_id URL must not carry a user name or password';
  if (clientId.includes('#')) return 'a client_id URL must not have a fragment';
  const rawPath =
    clientId
      .slice(url.protocol.length + 2)
      .replace(/^[^/?]*/, '')
      .split('?')[0] ?? '';
  const segments = rawPath.split('/').map((segment) => segment.toLowerCase().replaceAll('%2e', '.'));
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return 'a client_id URL must not have . or .. path segments';
  if (url.pathname === '/' || rawPath === '') return 'a client_id URL must have a path';
  if (url.pathname !== rawPath) return 'a client_id URL’s path as written is not the path it would fetch';
  return undefined;
}

/**
 * How long a document may be reused (RFC 9111 §4.2.1): `max-age` less `Age`, else `Expires` less `Date`; nothing
 * (0) with `no-store`, `no-cache` or no freshness information; never more than `maxMs`.
 */
export function freshnessMs(headers: IncomingHttpHeaders, maxMs: number): number {
  const control = String(headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)\b/.test(control)) return 0;
  const maxAge = /(^|[\s,])max-age\s*=\s*"?(\d+)/.exec(control)?.[2];
  const age = Number(headers.age ?? 0);
  let lifetime: number;
  if (maxAge !== undefined) {
    lifetime = Number(maxAge) * 1000 - (Number.isFinite(age) ? age * 1000 : 0);
  } else if (headers.expires !== undefined) {
    const expires = Date.parse(String(headers.expires));
    const date = headers.date === undefined ? Number.NaN : Date.parse(String(headers.date));
    lifetime = Number.isFinite(expires) && Number.isFinite(date) ? expires - date : 0;
  } else {
    lifetime = 0;
  }
  return Math.max(0, Math.min(lifetime, maxMs));
}

/** The document's rules beyond its shape (§4.1): its own URL as `client_id`, no shared secret. Undefined when fine. */
function documentProblem(document: ClientMetadataDocument, clientId: string): string | undefined {
  // Not echoed: a document's contents never travel back to whoever named its URL.
  if (document.client_id !== clientId) return 'its client_id is not the URL it was fetched from';
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined)
    return 'it must not carry client_secret or client_secret_expires_at (a client identified by a URL has no shared secret)';
  const method = document.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    return `token_endpoint_auth_method must be none: this server takes public clients only (${method.slice(0, 40)} is not supported)`;
  return undefined;
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** What a refused fetch means for a document (other reasons keep `safeFetch`'s own words). */
function fetchProblem(error: SafeFetchError, options: SafeFetchOptions): string {
  if (error.reason === 'forbidden_address')
    return 'its host resolves to an address that is not public (loopback, private or link-local); it was not fetched';
  if (error.reason === 'timeout') return `no complete answer within ${options.timeoutMs / 1000} s`;
  if (error.reason === 'too_large') return `larger than ${options.maxBytes} bytes`;
  return error.message;
}

/** Where and how documents are fetched (tests: a test CA, a table resolver, 127.0.0.2 standing for the internet). */
export type ClientMetadataFetchOptions = Omit<SafeFetchOptions, 'timeoutMs' | 'maxBytes' | 'accept'> & {
  /** Overrides the 5 s deadline (tests of a slow document). */
  timeoutMs?: number;
};

export interface ClientMetadataResolverOptions {
  fetch?: ClientMetadataFetchOptions;
  /** Overrides `CLIENT_METADATA_LIMITS.maxInFlight` (tests). */
  maxInFlight?: number;
  now?: () => number;
}

interface Cached {
  document: ClientMetadataDocument;
  expiresAt: number;
}

/**
 * Fetches, validates and caches client metadata documents. A document is reused within its HTTP freshness lifetime
 * (at most 24 h); an error or an invalid document is never cached (§4.4); concurrent requests for one URL share one
 * fetch. The cache is per process: each instance fetches for itself.
 */
export class ClientMetadataResolver {
  private readonly cache = new LRUCache<string, Cached>({ max: CLIENT_METADATA_LIMITS.cacheEntries });
  private readonly inFlight = new Map<string, Promise<ClientMetadataDocument>>();
  private readonly fetchOptions: SafeFetchOptions;
  private readonly now: () => number;
  private readonly maxInFlight: number;

  constructor(options: ClientMetadataResolverOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxInFlight = options.maxInFlight ?? CLIENT_METADATA_LIMITS.maxInFlight;
    this.fetchOptions = {
      ...options.fetch,
      timeoutMs: options.fetch?.timeoutMs ?? CLIENT_METADATA_LIMITS.timeoutMs,
      maxBytes: CLIENT_METADATA_LIMITS.maxBytes,
      accept: 'application/json',
    };
  }

  /** The valid document at `clientId`, from the cache while fresh; a `ClientMetadataError` says why not. */
  async resolve(clientId: string): Promise<ClientMetadataDocument> {
    const cached = this.cache.get(clientId);
    if (cached && cached.expiresAt > this.now()) return cached.document;
    const pending = this.inFlight.get(clientId);
    if (pending) return pending;
    if (this.inFlight.size >= this.maxInFlight) {
      throw new ClientMetadataError(
        'busy',
        clientId,
        'too many documents are being fetched now; try again shortly',
      );
    }
    const started = this.fetchDocument(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, started);
    return started;
  }

  private async fetchDocument(clientId: string): Promise<ClientMetadataDocument> {
    const urlProblem = clientIdUrlProblem(clientId);
    if (urlProblem) throw new ClientMetadataError('client_id_url', clientId, urlProblem);
    let response: Awaited<ReturnType<typeof safeFetch>>;
    try {
      response = await safeFetch(clientId, this.fetchOptions);
    } catch (error) {
      if (!isSafeFetchError(error)) throw error;
      throw new ClientMetadataError('fetch', clientId, fetchProblem(error, this.fetchOptions));
    }
    if (response.status !== 200) {
      const why =
        response.status >= 300 && response.status < 400
          ? 'redirects are not followed'
          : 'only 200 is accepted';
      throw new ClientMetadataError('status', clientId, `answered HTTP ${response.status}; ${why}`);
    }
    const contentType = response.headers['content-type'];
    if (!isJson(contentType)) {
      throw new ClientMetadataError(
        'content_type',
        clientId,
        `served as ${String(contentType ?? 'no content type').slice(0, 80)}, not application/json`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new ClientMetadataError('json', clientId, 'not valid JSON');
    }
    const parsed = ClientMetadataDocumentSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new ClientMetadataError(
        'document',
        clientId,
        `${where}${issue?.message ?? 'not a client metadata document'}`,
      );
    }
    const problem = documentProblem(parsed.data, clientId);
    if (problem) throw new ClientMetadataError('document', clientId, problem);
    const lifetime = freshnessMs(response.headers, CLIENT_METADATA_LIMITS.maxCacheMs);
    if (lifetime > 0) this.cache.set(clientId, { document: parsed.data, expiresAt: this.now() + lifetime });
    else this.cache.delete(clientId);
    return parsed.data;
  }
}
