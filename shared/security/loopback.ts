/**
 * Loopback, for every rule that trusts "this machine": the Host/Origin check of both MCP servers, OAuth redirect
 * URIs (RFC 8252 §7.3), an http issuer, the sandbox's control API and the BFF's readiness details.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Whether a host name (as `URL.hostname` gives it, or a bind address) names this machine: `localhost`, any
 * 127.0.0.0/8 address, or `[::1]` (`::1` unbracketed, as a bind address is written). Case-insensitive.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (name === 'localhost' || name === '[::1]' || name === '::1') return true;
  return IPV4.test(name) && name.startsWith('127.');
}

/** Whether a URL's host names this machine (`isLoopbackHostname`); false for a text that is no URL. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHostname(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a socket address is the loopback address a local client connects from: `127.0.0.1`, `::1`, or the
 * IPv4-mapped `::ffff:127.0.0.1` of a dual-stack socket. Other 127.x addresses are not counted: nothing here
 * connects from them by default, and tests use 127.0.0.2 to stand in for another machine.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
