import { lookup as systemLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.ts';

/** What a resolver answers for a name: every address, as `dns.promises.lookup(name, { all: true })` does. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (default: the system resolver, as Node's own connections use). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** The whole exchange — resolution, connection, TLS, headers and body — must end within this (ms). */
  timeoutMs: number;
  /** A body longer than this (bytes, declared or streamed) is refused without reading the rest. */
  maxBytes: number;
  /** The `Accept` header. */
  accept?: string;
  /** Resolves host names (tests answer from a table instead of DNS). */
  lookup?: Resolver;
  /** Trust anchors (PEM) replacing Node's bundled CAs: a test CA. Production leaves it unset. */
  ca?: string | readonly string[];
  /**
   * Special-use addresses to let through all the same. Tests only: there, `127.0.0.2` stands in for a host on the
   * internet. Never set from configuration.
   */
  allowAddress?: (address: string) => boolean;
}

/** Why a guarded fetch did not happen or did not finish. */
export type SafeFetchReason =
  | 'invalid_url'
  | 'forbidden_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'tls'
  | 'network';

/** A refused or failed guarded fetch. `message` names the URL's host, never an address it resolved to. */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  readonly reason: SafeFetchReason;

  constructor(reason: SafeFetchReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export function isSafeFetchError(error: unknown): error is SafeFetchError {
  return error instanceof SafeFetchError;
}

/** The answer of a guarded fetch: any status (redirects are returned, never followed), the body read in full. */
export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function parseTarget(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new SafeFetchError('invalid_url', 'not a URL');
  }
  if (url.protocol !== 'https:') throw new SafeFetchError('invalid_url', `${url.protocol} is not https:`);
  if (url.username || url.password) throw new SafeFetchError('invalid_url', 'the URL carries credentials');
  return url;
}

/** The host as a socket takes it: an IPv6 literal without its URL brackets. */
function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/** Settles with `work`, or rejects as a timeout when `signal` aborts first (the work is then left to itself). */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal, host: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new SafeFetchError('timeout', `${host} did not answer in time`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function resolveAll(host: string, lookup: Resolver): Promise<ResolvedAddress[]> {
  const literal = isIP(host);
  if (literal) return [{ address: host, family: literal }];
  // A name that fails to resolve and one that resolves to nothing are the same refusal.
  const addresses = await lookup(host).catch((): ResolvedAddress[] => []);
  if (addresses.length === 0) throw new SafeFetchError('dns', `${host} does not resolve`);
  return addresses;
}

/**
 * An HTTPS GET to a URL a stranger chose (an OAuth client's metadata document), guarded against server-side request
 * forgery (draft-ietf-oauth-client-id-metadata-document §6.5, §6.6):
 *
 * - `https:` only, no credentials in the URL;
 * - the host is resolved first and **every** address it resolves to must be public (`isPublicAddress`): one
 *   loopback, private, CGNAT, link-local or unique-local address among them refuses the fetch, before any
 *   connection;
 * - the connection is pinned to the addresses just checked (the socket's `lookup` answers them; it does not ask DNS
 *   again), so a name that changes its answer between the check and the connection (DNS rebinding) cannot win;
 * - redirects are returned as they are, never followed;
 * - one deadline for everything (a slow resolver, a stalled TLS handshake, a body dripping a byte a second) and a
 *   size cap checked against `Content-Length` and again while reading.
 *
 * Written on `node:https` rather than a library: the SSRF agents published for Node check the one address a socket
 * connects to (its `lookup` event), not every address of the name, and cannot take a resolver per call; Node's
 * `lookup` option is exactly the pinning this needs.
 *
 * @example await safeFetch('https://app.example/client.json', { timeoutMs: 5_000, maxBytes: 5_120 })
 */
export async function safeFetch(target: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const url = parseTarget(target);
  const host = bare(url.hostname);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const lookup = options.lookup ?? ((name: string) => systemLookup(name, { all: true, verbatim: true }));
  const addresses = await beforeDeadline(resolveAll(host, lookup), deadline, url.host);
  const allowed = (address: string) => isPublicAddress(address) || options.allowAddress?.(address) === true;
  if (!addresses.every(({ address }) => allowed(address))) {
    throw new SafeFetchError(
      'forbidden_address',
      `${url.host} resolves to an address that is not public (loopback, private or link-local)`,
    );
  }
  return get(url, host, addresses, options, deadline);
}

function get(
  url: URL,
  host: string,
  addresses: ResolvedAddress[],
  options: SafeFetchOptions,
  deadline: AbortSignal,
): Promise<SafeResponse> {
  const [first] = addresses as [ResolvedAddress, ...ResolvedAddress[]];
  // The socket asks this instead of DNS: only the addresses checked above can be connected to.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const settle = (error: SafeFetchError | undefined, response?: SafeResponse) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      if (error) {
        req.destroy();
        reject(error);
      } else if (response) resolve(response);
    };
    const onDeadline = () => settle(new SafeFetchError('timeout', `${url.host} did not answer in time`));
    const tooLarge = () =>
      settle(new SafeFetchError('too_large', `${url.host} sent more than ${options.maxBytes} bytes`));
    const req = request({
      host,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: options.accept ?? '*/*', 'user-agent': 'frete-kit' },
      lookup: pinned,
      agent: false,
      ...(isIP(host) ? {} : { servername: host }),
      ...(options.ca ? { ca: options.ca as string | string[] } : {}),
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      const tls = TLS_CODES.test(code);
      const what = tls ? 'TLS' : 'connection';
      settle(
        new SafeFetchError(tls ? 'tls' : 'network', `${url.host}: ${what} failed (${code || error.message})`),
      );
    });
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      res.on('end', () =>
        settle(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('close', () => {
        if (!res.complete) settle(new SafeFetchError('network', `${url.host}: the answer was cut off`));
      });
    });
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });
    req.end();
  });
}
