import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { JsonExchange } from './json-exchange.ts';

/**
 * The JSON exchange under a real HTTP server and a real SDK `McpServer`, as `agentMcpRoutes` wires them (one server
 * and one exchange per request), without the rest of the BFF: every Streamable HTTP rule in milliseconds.
 */
let http: Server;
let url: string;
let releaseSlow: () => void = () => undefined;
let slowStarted = false;
const handled: string[] = [];

beforeAll(async () => {
  const app = express();
  app.post('/mcp', express.json({ limit: '1mb' }), async (req, res) => {
    const server = new McpServer({ name: 'exchange-test', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool('slow', {}, async () => {
      slowStarted = true;
      await new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      return { content: [{ type: 'text', text: 'late' }] };
    });
    const exchange = new JsonExchange();
    res.on('close', () => {
      void server.close();
    });
    await server.connect(exchange);
    await exchange.handle(req, res, req.body);
    handled.push(String((req.body as { method?: string }).method));
  });
  http = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => http.once('listening', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

const ACCEPT = 'application/json, text/event-stream';
async function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};
const refusal = (status: number, code: number, message: string) => ({
  status,
  text: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});

describe('JsonExchange: answers', () => {
  it('answers one request with one JSON object, and a batch with an array in request order', async () => {
    const one = await post(INIT);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'exchange-test' } },
    });
    const batch = await post([
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'echo', arguments: { text: 'olá' } } },
      ping('a'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: 'b', result: { content: [{ type: 'text', text: 'olá' }] } },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);
    const single = await post([ping(9)]);
    expect(single.json).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);
  });

  it('answers a JSON-RPC error (an unknown method) as it answers a result', async () => {
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'no/such-method' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32601 } });
  });

  it('answers notifications alone with 202 and no body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res).toMatchObject({ status: 202, text: '' });
  });

  it('accepts a batch of 100 messages and refuses 101', async () => {
    const hundred = await post(Array.from({ length: 100 }, (_, i) => ping(i)));
    expect(hundred.status).toBe(200);
    expect(hundred.json).toHaveLength(100);
    expect(await post(Array.from({ length: 101 }, (_, i) => ping(i)))).toMatchObject(
      refusal(400, -32600, 'Invalid Request: Batch must not exceed 100 messages'),
    );
  });

  it('accepts every supported protocol version, and any version on initialize', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect((await post(ping(1), { 'mcp-protocol-version': version })).status).toBe(200);
    }
    expect((await post(INIT, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(200);
    expect((await post(ping(1))).status).toBe(200); // no header: the default version
  });
});

describe('JsonExchange: refusals, in the SDK transport words', () => {
  it('refuses a client that does not accept both JSON and an event stream with 406', async () => {
    const message = 'Not Acceptable: Client must accept both application/json and text/event-stream';
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      expect(await post(ping(1), { accept })).toMatchObject(refusal(406, -32000, message));
    }
  });

  it('refuses a body that is not declared JSON with 415', async () => {
    expect(await post(JSON.stringify(ping(1)), { 'content-type': 'text/plain' })).toMatchObject(
      refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json'),
    );
  });

  it('refuses what is not JSON-RPC with 400 parse error, even one bad message in a batch', async () => {
    const parse = refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
    expect(await post({ hello: 'world' })).toMatchObject(parse);
    expect(await post([ping(1), { jsonrpc: '1.0', id: 2, method: 'ping' }])).toMatchObject(parse);
  });

  it('refuses an initialize batched with anything else', async () => {
    expect(await post([INIT, ping(2)])).toMatchObject(
      refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed'),
    );
  });

  it('refuses an unsupported protocol version, listing the supported ones', async () => {
    expect(await post(ping(1), { 'mcp-protocol-version': '1999-01-01' })).toMatchObject(
      refusal(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ),
    );
  });

  it('refuses a batch that repeats a request id, but not a notification beside requests', async () => {
    expect(await post([ping(7), ping(7)])).toMatchObject(
      refusal(400, -32600, 'Invalid Request: request ids in a batch must be unique'),
    );
    expect((await post([ping(7), ping(8)])).status).toBe(200);
  });
});

describe('JsonExchange: a client that goes away', () => {
  it('settles the request still waiting, so its handler returns instead of hanging', async () => {
    const controller = new AbortController();
    handled.length = 0;
    const gone = post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } },
      {},
      controller.signal,
    ).catch((error: unknown) => error);
    await expect.poll(() => slowStarted).toBe(true);
    controller.abort();
    await gone;
    await expect.poll(() => handled).toEqual(['tools/call']);
    releaseSlow();
  });
});
