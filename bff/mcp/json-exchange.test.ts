import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { invalidParams, isInitialize, JsonExchange } from './json-exchange.ts';

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

describe('invalidParams: a request whose params do not fit its method, answered -32602 in one line', () => {
  const request = (id: number, method: string, params?: unknown) =>
    ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) as JSONRPCRequest;

  it('names the first problem with its path, and the request id', () => {
    expect(invalidParams(request(7, 'tools/call', { name: 'x', arguments: null }))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params: params.arguments: Invalid input: expected record, received null',
      },
    });
    expect(invalidParams(request(8, 'tools/call'))).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: {
        code: -32602,
        message: 'Invalid params: params: Invalid input: expected object, received undefined',
      },
    });
    expect(invalidParams(request(9, 'resources/read', { uri: 5 }))).toMatchObject({
      id: 9,
      error: { message: 'Invalid params: params.uri: Invalid input: expected string, received number' },
    });
  });

  it('leaves a request that fits, and a method it does not know, to the server', () => {
    expect(invalidParams(request(10, 'tools/call', { name: 'x', arguments: {} }))).toBeUndefined();
    expect(invalidParams(request(11, 'x/unknown', { a: 1 }))).toBeUndefined();
  });

  it('cuts its line at 200 characters, however long the path it names', () => {
    const key = 'k'.repeat(300);
    const answer = invalidParams(request(12, 'prompts/get', { name: 'p', arguments: { [key]: 5 } }));
    expect(answer).toMatchObject({
      id: 12,
      error: { code: -32602, message: `Invalid params: params.arguments.${key}`.slice(0, 200) },
    });
  });
});

describe('isInitialize: the SDK initialize check, asked only of a message whose method is initialize', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'test', version: '1.0.0' },
    },
  };

  it('answers true for an initialize request, false for another method or an initialize the SDK refuses', () => {
    expect(isInitialize(initialize)).toBe(true);
    expect(isInitialize({ ...initialize, method: 'tools/list' })).toBe(false);
    expect(isInitialize({ ...initialize, params: {} })).toBe(false);
  });

  it('answers false, without throwing, for what is not an object: null, a string, a number', () => {
    for (const message of [null, undefined, 'initialize', 1]) expect(isInitialize(message)).toBe(false);
  });
});

describe('JsonExchange: what the server sends, and closing', () => {
  /** An exchange whose server side is the test's `serve`: a real HTTP exchange, the messages handed to it. */
  async function raw(serve: (exchange: JsonExchange, message: JSONRPCMessage) => void) {
    const app = express();
    const seen: JSONRPCMessage[] = [];
    let closed = 0;
    app.post('/raw', express.json(), async (req, res) => {
      const exchange = new JsonExchange();
      exchange.onmessage = (message) => {
        seen.push(message);
        serve(exchange, message);
      };
      exchange.onclose = () => {
        closed += 1;
      };
      await exchange.handle(req, res, req.body);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}/raw`;
    const send = async (body: unknown) => {
      const res = await fetch(at, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    };
    return {
      send,
      seen,
      closed: () => closed,
      stop: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('answers only results and errors of the requests asked: a notification or an unknown id sent back is dropped', async () => {
    const exchange = await raw((ex, message) => {
      if (!('id' in message) || !('method' in message)) return;
      void ex.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      });
      void ex.send({ jsonrpc: '2.0', id: 'other', result: { wrong: true } });
      void ex.send({ jsonrpc: '2.0', id: message.id, result: { ok: message.method } });
    });
    try {
      expect(await exchange.send(ping(3))).toEqual({
        status: 200,
        json: { jsonrpc: '2.0', id: 3, result: { ok: 'ping' } },
      });
      expect(exchange.seen).toEqual([ping(3)]);
    } finally {
      await exchange.stop();
    }
  });

  it('hands notifications to the server and answers 202; a request with bad params never reaches it', async () => {
    const exchange = await raw(() => undefined);
    try {
      const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
      expect(await exchange.send(note)).toEqual({ status: 202, json: undefined });
      const bad = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', arguments: null } };
      expect(await exchange.send(bad)).toMatchObject({
        status: 200,
        json: { id: 4, error: { code: -32602 } },
      });
      expect(exchange.seen).toEqual([note]);
    } finally {
      await exchange.stop();
    }
  });

  it('settles a request still waiting when it closes, with -32000 "Connection closed", and says it closed', async () => {
    const exchange = await raw((ex) => {
      void ex.close();
    });
    try {
      expect(await exchange.send(ping(5))).toEqual({
        status: 200,
        json: { jsonrpc: '2.0', id: 5, error: { code: -32000, message: 'Connection closed' } },
      });
      expect(exchange.closed()).toBe(1);
    } finally {
      await exchange.stop();
    }
  });
});
