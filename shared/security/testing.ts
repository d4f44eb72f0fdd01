import dc from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { generate } from 'selfsigned';
import type { ResolvedAddress, Resolver } from './safe-fetch.ts';

/**
 * Test support for guarded fetches: a CA of our own and servers that stand for hosts on the internet (HTTPS on
 * 127.0.0.2, a loopback address nothing else here uses), listeners that record every connection (to prove a refused
 * fetch never connected), a resolver that answers from a table, and a recorder of every outgoing connection attempt
 * of this process.
 */

/** The address test servers listen on, standing in for a public host (`allowAddress` lets only it through). */
export const STAND_IN_ADDRESS = '127.0.0.2';

export interface TestPki {
  /** The CA certificate (PEM): what a fetch trusts instead of Node's bundled CAs. */
  ca: string;
  /** A leaf certificate for the host names, signed by the CA, and its key. */
  cert: string;
  key: string;
}

/** A new CA and a server certificate for `hostnames`, signed by it (EC P-256: generated in milliseconds). */
export async function testPki(hostnames: string[]): Promise<TestPki> {
  const ca = await generate([{ name: 'commonName', value: 'frete-kit test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: hostnames[0] ?? 'test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: hostnames.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  return { ca: ca.cert, cert: leaf.cert, key: leaf.private };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestHttpsServer {
  port: number;
  /** Requests received, as `METHOD path`. */
  requests: string[];
  /** What the next requests get (replaceable per test). */
  handle: Handler;
  close(): Promise<void>;
}

/** An HTTPS server on `STAND_IN_ADDRESS`, port 0, with the test PKI's certificate. */
export async function startHttpsServer(pki: TestPki, handle: Handler): Promise<TestHttpsServer> {
  const sockets = new Set<Socket>();
  const state: TestHttpsServer = {
    port: 0,
    requests: [],
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createHttpsServer({ cert: pki.cert, key: pki.key }, (req, res) => {
    state.requests.push(`${req.method} ${req.url}`);
    state.handle(req, res);
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, STAND_IN_ADDRESS, resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

export interface ConnectionRecorder {
  host: string;
  port: number;
  /** How many connections it accepted (each closed at once). */
  connections: number;
  close(): Promise<void>;
}

/** A TCP listener on `host` that counts and drops every connection: a target a refused fetch must never reach. */
export async function recordConnections(host: string): Promise<ConnectionRecorder> {
  const server = createTcpServer((socket) => {
    recorder.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const recorder: ConnectionRecorder = {
    host,
    port: (server.address() as AddressInfo).port,
    connections: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return recorder;
}

/** A resolver answering from a table (name → addresses), counting the questions; an unknown name fails as DNS would. */
export function tableResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

/**
 * Records every connection attempt this process starts (`ip:port`), whatever module starts it: sockets are seen
 * through Node's `net.client.socket` diagnostics channel and their `connectionAttempt` events. `stop()` ends it.
 */
export function recordConnectionAttempts(): { attempts: string[]; stop(): void } {
  const attempts: string[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.on('connectionAttempt', (ip: string, port: number) => attempts.push(`${ip}:${port}`));
  };
  dc.subscribe('net.client.socket', onSocket);
  return { attempts, stop: () => dc.unsubscribe('net.client.socket', onSocket) };
}
