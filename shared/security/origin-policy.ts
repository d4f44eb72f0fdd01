import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackAddress, isLoopbackHostname } from './loopback.ts';

/**
 * Which `Host` a server answers to and which page `Origin`s may call it: one rule for the DNS-rebinding check of
 * both MCP servers (rebinding.ts) and the Origin check of every form post (csrf.ts).
 *
 * The MCP SDK has a host check of its own (`hostHeaderValidation`, `localhostHostValidation`); it does not fit here:
 * it compares host names without their port (the sandbox must refuse its loopback names on another port), lists
 * names exactly (no 127.0.0.0/8), and checks no `Origin`.
 */
export interface OriginPolicy {
  /** The server's public URL: its host and its origin are always this server's. */
  publicUrl: string | undefined;
  /** Other origins whose pages may call (exact `scheme://host[:port]`, e.g. `BFF_ALLOWED_ORIGINS` on `/mcp`). */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Loopback names besides the public URL: `none`; `this-port`, when the request arrived on a loopback socket, the
   * loopback names with the port it arrived on and their `http://` origins (this server's own local addresses);
   * `any-port`, every loopback name on any port and every loopback page over http or https (a server bound to
   * loopback, used by local tools and pages).
   */
  loopback: 'none' | 'this-port' | 'any-port';
}

/** What the rule reads of a request: its headers and the socket it arrived on (`IncomingMessage` has both). */
export interface Arrival {
  headers: IncomingHttpHeaders;
  socket: { localAddress?: string | undefined; localPort?: number | undefined };
}

/** Whether a loopback name on `url` is allowed by the policy for a request that arrived on `arrival`. */
function loopbackAllowed(policy: OriginPolicy, arrival: Arrival, url: URL): boolean {
  if (!isLoopbackHostname(url.hostname)) return false;
  if (policy.loopback === 'any-port') return url.protocol === 'http:' || url.protocol === 'https:';
  if (policy.loopback === 'none') return false;
  // This server's own loopback address: plain http (it terminates no TLS) on the port the request came in on.
  return (
    url.protocol === 'http:' &&
    isLoopbackAddress(arrival.socket.localAddress) &&
    Number(url.port || 80) === arrival.socket.localPort
  );
}

/** Whether the request's `Host` is this server's (a missing or malformed one never is). */
export function hostAllowed(policy: OriginPolicy, arrival: Arrival): boolean {
  const host = arrival.headers.host?.toLowerCase();
  // A bare host[:port]: no user info, path, query or fragment for URL parsing to drop.
  if (!host || /[/@?#\\\s]/.test(host)) return false;
  if (policy.publicUrl && host === new URL(policy.publicUrl).host.toLowerCase()) return true;
  const url = URL.parse(`http://${host}`);
  return url !== null && loopbackAllowed(policy, arrival, url);
}

/** Whether a page of `origin` may call this server (`null`, or anything not a bare origin, never may). */
export function originAllowed(policy: OriginPolicy, arrival: Arrival, origin: string): boolean {
  const claimed = origin.toLowerCase();
  const exact = [
    ...(policy.publicUrl ? [new URL(policy.publicUrl).origin] : []),
    ...(policy.allowedOrigins ?? []),
  ];
  if (exact.some((allowed) => allowed.toLowerCase() === claimed)) return true;
  const url = URL.parse(claimed);
  return url !== null && url.origin === claimed && loopbackAllowed(policy, arrival, url);
}
