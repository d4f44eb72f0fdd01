import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

const TOKEN = 'agent-tracking-only-3';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  await bff.stop();
});

/** A raw request, so Host can be anything (fetch does not let a caller set it). */
function post(
  headers: Record<string, string>,
  body = JSON.stringify(INIT),
): Promise<{ status: number; body: string }> {
  const url = new URL(`${bff.url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('/mcp: DNS-rebinding protection (Host and Origin)', () => {
  it('refuses a foreign Host with 403 even with a valid token, and serves the loopback names', async () => {
    bff = await startBff(sandbox.url);
    const port = new URL(bff.url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post({ ...auth, host: 'evil.example.com' })).status).toBe(403);
    expect((await post({ ...auth, host: `evil.example.com:${port}` })).status).toBe(403);
    expect((await post({ ...auth, host: `127.0.0.1.evil.example:${port}` })).status).toBe(403);
    expect((await post({ ...auth, host: `localhost:${port}` })).status).toBe(200);
    expect((await post({ ...auth, host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it('bound to loopback, lets a local tool’s page on any port call (the MCP Inspector, a dev server)', async () => {
    bff = await startBff(sandbox.url);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post({ ...auth, origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await post({ ...auth, origin: 'http://127.0.0.1:5173' })).status).toBe(200);
    expect((await post({ ...auth, origin: 'http://evil.example:6274' })).status).toBe(403);
  });

  it('guards /mcp only: the BFF’s other routes keep their own answers to a foreign Host', async () => {
    bff = await startBff(sandbox.url);
    const url = new URL(bff.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/openapi.json', headers: { host: 'evil.example.com' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('refuses a present Origin that is neither the public origin nor an allowed one', async () => {
    bff = await startBff(sandbox.url, { BFF_ALLOWED_ORIGINS: 'https://loja.example' });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const evil = await post({ ...auth, origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(evil.body).toContain('Origin not allowed');
    expect((await post({ ...auth, origin: 'https://loja.example.evil.com' })).status).toBe(403);
    expect((await post({ ...auth, origin: 'null' })).status).toBe(403);
    expect((await post({ ...auth, origin: 'https://loja.example' })).status).toBe(200);
  });

  it('when not bound to loopback, only the host of BFF_PUBLIC_URL is served', async () => {
    // Bound to 127.0.0.1 by the test helper, but configured as a public server: loopback names are not trusted.
    bff = await startBff(sandbox.url, {
      BFF_HOST: '0.0.0.0',
      BFF_PUBLIC_URL: 'https://frete.loja.example',
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post({ ...auth, host: 'localhost' })).status).toBe(403);
    // not even on the very port the request came in on
    expect((await post({ ...auth, host: `localhost:${new URL(bff.url).port}` })).status).toBe(403);
    expect((await post({ ...auth, host: 'frete.loja.example' })).status).toBe(200);
    expect(
      (await post({ ...auth, host: 'frete.loja.example', origin: 'https://frete.loja.example' })).status,
    ).toBe(200);
    expect(
      (await post({ ...auth, host: 'frete.loja.example', origin: 'http://localhost:3000' })).status,
    ).toBe(403);
  });
});

describe('/mcp: the token is checked before the body is read', () => {
  it('refuses a 1 MB body without a token while the body is still being sent', async () => {
    bff = await startBff(sandbox.url);
    const url = new URL(`${bff.url}/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(1_000_000) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      // Only the first bytes: a server that reads the body before the token would wait here forever.
      req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"');
    });
    expect(status).toBe(401);
  }, 30_000);

  it('refuses a wrong token before parsing: a broken body still gets 401, not 400', async () => {
    bff = await startBff(sandbox.url);
    const res = await post({ authorization: 'Bearer not-a-token-at-all-xx' }, '{"jsonrpc":');
    expect(res.status).toBe(401);
  });
});

describe('/mcp: the Streamable HTTP checks of the JSON exchange', () => {
  const auth = { authorization: `Bearer ${TOKEN}` };

  it('answers a request with JSON, notifications alone with 202, and a batch with an array', async () => {
    bff = await startBff(sandbox.url);
    const init = await post(auth);
    expect(init.status).toBe(200);
    expect(JSON.parse(init.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'frete-kit-bff' } },
    });
    const note = await post(auth, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(note.status).toBe(202);
    const batch = await post(
      auth,
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ]),
    );
    const replies = JSON.parse(batch.body) as { id: string; result?: { tools?: unknown[] } }[];
    expect(replies.map((reply) => reply.id)).toEqual(['a', 'b']);
    expect(replies[1]?.result?.tools).toHaveLength(1);
  });

  it('refuses what the SDK transport refuses: Accept 406, Content-Type 415, bad JSON-RPC 400, unknown protocol version 400', async () => {
    bff = await startBff(sandbox.url);
    expect((await post({ ...auth, accept: 'application/json' })).status).toBe(406);
    expect((await post({ ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(auth, JSON.stringify({ hello: 'world' }))).status).toBe(400);
    expect((await post(auth, JSON.stringify([INIT, { ...INIT, id: 2 }]))).status).toBe(400);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect((await post({ ...auth, 'mcp-protocol-version': '1999-01-01' }, ping)).status).toBe(400);
    expect((await post({ ...auth, 'mcp-protocol-version': '2025-06-18' }, ping)).status).toBe(200);
  });

  it('refuses a batch that repeats a request id with 400 instead of hanging on it', async () => {
    bff = await startBff(sandbox.url);
    const twice = JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    ]);
    const res = await post(auth, twice);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32600 } });
  });
});
