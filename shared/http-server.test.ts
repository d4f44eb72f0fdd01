import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServerOptions, type LimitedServer } from './http-server.ts';

const servers: LimitedServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
});

/** A server with short limits that answers `GET /slow` after 1.5 s and anything else at once. */
async function start(options: HttpServerOptions = {}): Promise<{ server: LimitedServer; port: number }> {
  const server = createHttpServer({
    ...options,
    limits: {
      headersTimeoutMs: 500,
      requestTimeoutMs: 1_000,
      keepAliveTimeoutMs: 300,
      checkEveryMs: 100,
      ...options.limits,
    },
  });
  servers.push(server);
  server.on('request', (req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('slow'), 1_500);
    else req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Opens a connection; resolves when connected (or already closed), with a promise of the ms from opening until the
 * server closes it. It reads what arrives, as a real client does: a paused socket never sees the server's FIN, so
 * its `close` never came when the server closed without a reset (1 run in 10 on a loaded machine).
 */
async function open(
  port: number,
  localAddress = '127.0.0.1',
): Promise<{ socket: Socket; closed: Promise<number> }> {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.resume();
  const at = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - at)));
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  return { socket, closed };
}

describe('createHttpServer', () => {
  it('closes a connection that never sends a byte after the headers timeout (Node alone never does)', async () => {
    const { port } = await start();
    const { closed } = await open(port);
    // 500 ms configured; Node's own default is 60 s. The bound only tells the two apart (a busy machine is late).
    expect(await closed).toBeLessThan(10_000);
  });

  it('closes a connection that dribbles its headers, and one that dribbles its body, within the timeouts', async () => {
    const { port } = await start();
    const headers = await open(port);
    headers.socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const dribble = setInterval(() => headers.socket.write('X-A: b\r\n'), 100);
    const body = await open(port);
    body.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const drip = setInterval(() => body.socket.write('a'), 100);
    try {
      // 500 ms and 1 s configured, against Node's 60 s and 300 s: bounds that tell them apart on a busy machine.
      expect(await headers.closed).toBeLessThan(10_000);
      expect(await body.closed).toBeLessThan(10_000);
    } finally {
      clearInterval(dribble);
      clearInterval(drip);
    }
  });

  it('lets an answer take longer than the headers timeout, then closes the idle kept-alive connection', async () => {
    const { port } = await start();
    const { socket, closed } = await open(port);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    const lived = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('slow');
    // 1.5 s of answer, then the keep-alive timeout (300 ms, plus Node's 1 s allowance); Node's default 5 s would
    // make it 7.5 s: the upper bound tells the two apart with room for a busy machine.
    expect(lived).toBeGreaterThanOrEqual(1_500);
    expect(lived).toBeLessThan(6_000);
  });

  it('holds at most the cap of connections per address, closes the next at once, and takes another address', async () => {
    const { server, port } = await start({
      limits: { connectionsPerAddress: 3, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000 },
    });
    const held = await Promise.all([open(port), open(port), open(port)]);
    // The server sees a connection a moment after the client does: waited for, not slept on.
    await expect.poll(() => server.connectionsOf('127.0.0.1')).toBe(3);
    const fourth = await open(port);
    // At once, not at the 5 s timeouts.
    expect(await fourth.closed).toBeLessThan(2_500);
    expect(server.refusedOf('127.0.0.1')).toBe(1);
    const other = await open(port, '127.0.0.2');
    await expect.poll(() => server.connectionsOf('127.0.0.2')).toBe(1);
    expect(other.socket.destroyed).toBe(false);
    // One closes: a new one from the first address is taken again.
    held[0]?.socket.destroy();
    await expect.poll(() => server.connectionsOf('127.0.0.1')).toBe(2);
    const fifth = await open(port);
    await expect.poll(() => server.acceptedOf('127.0.0.1')).toBe(4);
    expect(fifth.socket.destroyed).toBe(false);
    expect(server.connectionsOf('127.0.0.1')).toBe(3);
    expect([server.refusedOf('127.0.0.1'), server.refusedOf('127.0.0.2')]).toEqual([1, 0]);
    expect([server.acceptedOf('127.0.0.1'), server.acceptedOf('127.0.0.2')]).toEqual([4, 1]);
  });

  it('does not cap an exempt address (a trusted proxy)', async () => {
    const { server, port } = await start({
      limits: { connectionsPerAddress: 2, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000 },
    });
    server.exemptFromCap((address) => address === '127.0.0.1');
    await Promise.all([open(port), open(port), open(port), open(port)]);
    await expect.poll(() => server.connectionsOf('127.0.0.1')).toBe(4);
    expect(server.refusedOf('127.0.0.1')).toBe(0);
  });
});
