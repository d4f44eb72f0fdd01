import { isIP } from 'node:net';
import type { RequestHandler } from 'express';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || (isIP(hostname) === 4 && hostname.startsWith('127.'));
}

/** The hostname of a `Host` header value (`example.com:8080` → `example.com`, `[::1]:80` → `[::1]`). */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection (MCP transport security; ARCHITECTURE.md, Local unauthenticated MCP): the `Host` must be
 * the public URL's host (or a loopback name when the server is bound to loopback), and an `Origin`, when present, the
 * public origin, a configured allowed origin, or (bound to loopback) a loopback origin. Anything else is 403.
 */
export function rebindingGuard(options: {
  publicUrl: string;
  allowedOrigins: readonly string[];
  bindHost: string;
}): RequestHandler {
  const publicUrl = new URL(options.publicUrl);
  const loopbackBound = isLoopbackHost(options.bindHost === '::1' ? '[::1]' : options.bindHost);
  const origins = new Set([publicUrl.origin, ...options.allowedOrigins]);
  const hostOk = (host: string | undefined): boolean => {
    if (!host) return false;
    if (host.toLowerCase() === publicUrl.host) return true;
    const hostname = hostnameOf(host);
    return loopbackBound && hostname !== undefined && isLoopbackHost(hostname);
  };
  const originOk = (origin: string): boolean => {
    if (origins.has(origin)) return true;
    if (!loopbackBound) return false;
    try {
      const url = new URL(origin);
      return /^https?:$/.test(url.protocol) && isLoopbackHost(url.hostname);
    } catch {
      return false;
    }
  };
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (hostOk(req.headers.host) && (origin === undefined || originOk(origin))) return next();
    // The JSON-RPC error the MCP SDK's own host validation answers with.
    res.status(403).json({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Forbidden: ${origin !== undefined && !originOk(origin) ? 'Origin' : 'Host'} not allowed`,
      },
      id: null,
    });
  };
}
