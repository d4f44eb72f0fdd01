import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from './security/address.ts';

/**
 * How long a connection may hold the server without doing its part, and how many one address may hold at once: the
 * bounds both servers (the BFF and the sandbox) listen with. Node's defaults let 3,000 idle or dribbling connections
 * from one address sit for 70 s (a connection that never sends a byte is never timed out at all).
 */
export const SERVER_LIMITS = {
  /** A new connection must send a byte within this, and a request's headers must be complete within it. */
  headersTimeoutMs: 10_000,
  /** A whole request, body included, must have arrived within this (the answer may take longer: label calls do). */
  requestTimeoutMs: 30_000,
  /** A kept-alive connection with no request in flight is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node looks for requests past their headers or request timeout (its default is 30 s). */
  checkEveryMs: 1_000,
  /** Connections one address (an IPv4 address, an IPv6 /64) may hold open at once; more are closed on arrival. */
  connectionsPerAddress: 256,
} as const;

export type ServerLimits = { -readonly [K in keyof typeof SERVER_LIMITS]: number };

export interface HttpServerOptions {
  /** Overrides of `SERVER_LIMITS` (tests shorten the timeouts). */
  limits?: Partial<ServerLimits>;
}

/** A `node:http` server with `SERVER_LIMITS`: timeouts for headers, requests and idle keep-alive, a per-address cap. */
export interface LimitedServer extends Server {
  /**
   * Sets (or replaces) the addresses the per-address cap does not apply to: the reverse proxies the server trusts
   * (every visitor arrives through them). Read on each connection, so it is set once the app knows its `trust proxy`.
   */
  exemptFromCap(exempt: (address: string) => boolean): void;
  /** Connections held right now per address key (tests, diagnostics). */
  connectionsOf(address: string): number;
  /** Connections closed on arrival by the cap, in all, per address key (tests, diagnostics). */
  refusedOf(address: string): number;
  /** Connections let in (held, at least for a while), in all, per address key (tests, diagnostics). */
  acceptedOf(address: string): number;
}

/**
 * Creates (does not listen) an HTTP server with the limits: Node's `headersTimeout`, `requestTimeout` and
 * `keepAliveTimeout`, checked every second; a socket timeout until the first request, which Node has none of; and a
 * cap of open connections per address, beyond which a new connection is destroyed at once.
 */
export function createHttpServer(options: HttpServerOptions = {}): LimitedServer {
  const limits = { ...SERVER_LIMITS, ...options.limits };
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkEveryMs,
  }) as LimitedServer;
  let exempt = (_address: string) => false;
  const open = new Map<string, number>();
  const refused = new Map<string, number>();
  const accepted = new Map<string, number>();

  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? '';
    const key = addressKey(remote) ?? 'unknown';
    const held = open.get(key) ?? 0;
    if (held >= limits.connectionsPerAddress && !exempt(remote)) {
      socket.destroy();
      // Counted under the same key the cap uses; one number per key ever seen (tests and diagnostics).
      refused.set(key, (refused.get(key) ?? 0) + 1);
      return;
    }
    open.set(key, held + 1);
    accepted.set(key, (accepted.get(key) ?? 0) + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
    // Node times out headers only once a byte arrived: a connection that never sends one would be held forever.
    // Node's own socket timeout handler destroys it; the first request clears it (answers may take long).
    socket.setTimeout(limits.headersTimeoutMs);
  });
  server.on('request', (req) => {
    // From here the request and keep-alive timeouts take over (Node sets the latter after each answer).
    req.socket.setTimeout(0);
  });
  server.exemptFromCap = (next) => {
    exempt = next;
  };
  server.connectionsOf = (address) => open.get(addressKey(address) ?? 'unknown') ?? 0;
  server.refusedOf = (address) => refused.get(addressKey(address) ?? 'unknown') ?? 0;
  server.acceptedOf = (address) => accepted.get(addressKey(address) ?? 'unknown') ?? 0;
  return server;
}
