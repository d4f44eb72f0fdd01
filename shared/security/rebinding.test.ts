import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Arrival, OriginPolicy } from './origin-policy.ts';
import { rebindingGuard, rebindingRefusal } from './rebinding.ts';

/**
 * The Host/Origin rule decision by decision, without a server; the last test drives the guard over a real socket.
 * bff/mcp/rebinding.test.ts and sandbox/mcp/local.test.ts drive the same guard through both servers' `/mcp`.
 */

/** The BFF's policy: `any-port` loopback when bound to loopback (bff/mcp/mcp.ts). */
const bff = (options: Partial<OriginPolicy> = {}): OriginPolicy => ({
  publicUrl: 'http://127.0.0.1:4000',
  allowedOrigins: [],
  loopback: 'any-port',
  ...options,
});
/** The sandbox's policy: its own loopback address only (sandbox/mcp/server.ts). */
const sandbox = (publicUrl?: string): OriginPolicy => ({ publicUrl, loopback: 'this-port' });

const LOOPBACK_SOCKET = { localAddress: '127.0.0.1', localPort: 4010 };
const arrival = (headers: { host?: string; origin?: string }, socket: Arrival['socket'] = {}): Arrival => ({
  headers,
  socket,
});
const passes = (
  policy: OriginPolicy,
  headers: { host?: string; origin?: string },
  socket?: Arrival['socket'],
) => rebindingRefusal(policy, arrival(headers, socket)) === undefined;

describe('rebindingRefusal: the Host', () => {
  it('serves the public host in any case, with its port', () => {
    const options = bff({ publicUrl: 'https://frete.loja.example', loopback: 'none' });
    expect(passes(options, { host: 'frete.loja.example' })).toBe(true);
    expect(passes(options, { host: 'FRETE.Loja.Example' })).toBe(true);
    const withPort = bff({ publicUrl: 'http://frete.loja.example:8080', loopback: 'none' });
    expect(passes(withPort, { host: 'frete.loja.example:8080' })).toBe(true);
    expect(passes(withPort, { host: 'frete.loja.example:8081' })).toBe(false);
  });

  it('refuses a request without a Host, naming the Host', () => {
    expect(rebindingRefusal(bff(), arrival({}))).toBe('Host');
    expect(rebindingRefusal(sandbox(), arrival({}, LOOPBACK_SOCKET))).toBe('Host');
  });

  it('any-port (the BFF bound to loopback) serves every loopback name: localhost, 127.x.y.z, [::1]', () => {
    for (const host of ['localhost', 'localhost:9', '127.0.0.1:4000', '127.1.2.3', '[::1]', '[::1]:4000']) {
      expect(passes(bff(), { host })).toBe(true);
    }
    for (const host of [
      '127.0.0.1.evil.example',
      '127.evil.example',
      '128.0.0.1',
      'localhost.evil.example',
      '0.0.0.0',
    ]) {
      expect(passes(bff(), { host })).toBe(false);
    }
  });

  it('none (the BFF bound elsewhere) serves no loopback name that is not the public host', () => {
    const options = bff({ publicUrl: 'https://frete.loja.example', loopback: 'none' });
    for (const host of ['localhost', '127.0.0.1', '[::1]:4000'])
      expect(passes(options, { host })).toBe(false);
    // Not even this server's own loopback address and port, nor its loopback origin.
    const socket = { localAddress: '127.0.0.1', localPort: 4000 };
    expect(passes(options, { host: '127.0.0.1:4000' }, socket)).toBe(false);
    expect(passes(options, { host: 'frete.loja.example', origin: 'http://127.0.0.1:4000' }, socket)).toBe(
      false,
    );
  });

  it('this-port (the sandbox) serves the loopback names only on the port the request arrived on, over loopback', () => {
    for (const host of ['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST:4010', '[::1]:4010']) {
      expect(passes(sandbox(), { host }, LOOPBACK_SOCKET)).toBe(true);
    }
    for (const host of ['127.0.0.1:1', 'localhost', '127.0.0.1.evil.example:4010', 'evil.example:4010']) {
      expect(passes(sandbox(), { host }, LOOPBACK_SOCKET)).toBe(false);
    }
    // Arrived on another interface: the loopback names are not this server's address there.
    expect(passes(sandbox(), { host: '127.0.0.1:4010' }, { localAddress: '10.0.0.5', localPort: 4010 })).toBe(
      false,
    );
    expect(passes(sandbox('https://frete.example'), { host: 'frete.example' }, LOOPBACK_SOCKET)).toBe(true);
  });

  it('refuses a Host that is not a bare host: a space, a bracket left open, user info, a path', () => {
    for (const host of [
      'local host',
      '[::1',
      'evil.example@127.0.0.1',
      '127.0.0.1/x',
      'localhost#x',
      'localhost\\x',
    ]) {
      expect(passes(bff(), { host })).toBe(false);
    }
  });
});

describe('rebindingRefusal: the Origin', () => {
  it('passes the public origin and each allowed origin, exactly', () => {
    const options = bff({
      publicUrl: 'https://frete.loja.example',
      loopback: 'none',
      allowedOrigins: ['https://loja.example', 'https://admin.loja.example'],
    });
    const host = 'frete.loja.example';
    for (const origin of [
      'https://frete.loja.example',
      'https://loja.example',
      'https://admin.loja.example',
    ]) {
      expect(passes(options, { host, origin })).toBe(true);
    }
    for (const origin of [
      'http://loja.example',
      'https://loja.example.evil.com',
      'https://loja.example:444',
      'null',
      'http://localhost:3000',
    ]) {
      expect(rebindingRefusal(options, arrival({ host, origin }))).toBe('Origin');
    }
  });

  it('any-port passes a loopback page over http or https and nothing else', () => {
    for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:5173']) {
      expect(passes(bff(), { host: 'localhost', origin })).toBe(true);
    }
    for (const origin of [
      'ftp://localhost',
      'xhttp://localhost',
      'file://localhost',
      'chrome-extension://localhost',
      'null',
      'http://evil.example',
      'http://localhost:3000/path',
    ]) {
      expect(passes(bff(), { host: 'localhost', origin })).toBe(false);
    }
  });

  it("this-port passes only this server's own loopback origin: http, the port the request arrived on", () => {
    const host = '127.0.0.1:4010';
    for (const origin of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']) {
      expect(passes(sandbox(), { host, origin }, LOOPBACK_SOCKET)).toBe(true);
    }
    for (const origin of ['https://127.0.0.1:4010', 'http://127.0.0.1:1', 'http://localhost', 'null']) {
      expect(passes(sandbox(), { host, origin }, LOOPBACK_SOCKET)).toBe(false);
    }
    const keyed = sandbox('https://frete.example');
    expect(passes(keyed, { host: 'frete.example', origin: 'https://frete.example' }, LOOPBACK_SOCKET)).toBe(
      true,
    );
    expect(passes(keyed, { host: 'frete.example', origin: 'http://frete.example' }, LOOPBACK_SOCKET)).toBe(
      false,
    );
  });

  it('names the Origin whenever it is refused, the Host only when the Origin is fine or absent', () => {
    expect(rebindingRefusal(bff(), arrival({ host: 'evil.example', origin: 'http://localhost' }))).toBe(
      'Host',
    );
    expect(rebindingRefusal(bff(), arrival({ host: 'evil.example', origin: 'http://evil.example' }))).toBe(
      'Origin',
    );
  });
});

describe('rebindingGuard', () => {
  it('answers a refused request 403 with the JSON-RPC error -32000 naming the header, and lets the rest through', async () => {
    const guard = rebindingGuard({ publicUrl: 'https://frete.example', loopback: 'none' });
    const server = createServer((req, res) => guard(req, res, () => res.end('through')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const send = (headers: Record<string, string>) =>
      new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const host = await send({ host: 'evil.example' });
      expect(host.status).toBe(403);
      expect(host.type).toMatch(/^application\/json/);
      expect(JSON.parse(host.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Forbidden: Host not allowed' },
        id: null,
      });
      const origin = await send({ host: 'frete.example', origin: 'https://evil.example' });
      expect(JSON.parse(origin.body)).toMatchObject({ error: { message: 'Forbidden: Origin not allowed' } });
      expect(await send({ host: 'frete.example', origin: 'https://frete.example' })).toMatchObject({
        status: 200,
        body: 'through',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
