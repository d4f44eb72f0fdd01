import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { isLoopback } from '../control/routes.ts';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The `Host` values this server answers to: the public URL's host, plus the loopback names with the port the
 * request arrived on when the socket is bound to loopback (how a local client reaches it).
 */
export function allowedHosts(publicUrl: string | undefined, req: IncomingMessage): Set<string> {
  const hosts = new Set(publicUrl ? [new URL(publicUrl).host.toLowerCase()] : []);
  if (isLoopback(req.socket.localAddress)) {
    for (const name of LOOPBACK_NAMES) hosts.add(`${name}:${req.socket.localPort}`);
  }
  return hosts;
}

/** The origins a browser page may call from: the public URL's, and the loopback ones over http. */
export function allowedOrigins(publicUrl: string | undefined, req: IncomingMessage): Set<string> {
  const origins = new Set(publicUrl ? [new URL(publicUrl).origin.toLowerCase()] : []);
  if (isLoopback(req.socket.localAddress)) {
    for (const name of LOOPBACK_NAMES) origins.add(`http://${name}:${req.socket.localPort}`);
  }
  return origins;
}

/**
 * DNS-rebinding protection (MCP security best practices; sandbox/README.md "Local unauthenticated MCP"), in every
 * auth mode: a `Host` that is not ours, or an `Origin` that is present and not allowed, is refused with 403
 * before anything else runs. The answer is a JSON-RPC error, as the MCP SDK's own protection answers.
 */
export function hostCheck(publicUrl: string | undefined): RequestHandler {
  return (req, res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    const origin = req.headers.origin;
    let refused: string | undefined;
    if (!allowedHosts(publicUrl, req).has(host)) refused = 'Host';
    else if (origin !== undefined && !allowedOrigins(publicUrl, req).has(origin.toLowerCase()))
      refused = 'Origin';
    if (!refused) return next();
    res.status(403).json({
      jsonrpc: '2.0',
      error: { code: -32000, message: `Forbidden: the ${refused} header is not allowed on this server.` },
      id: null,
    });
  };
}
