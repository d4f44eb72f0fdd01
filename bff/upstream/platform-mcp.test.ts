import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/app.ts';
import { LABEL_TOOL_NAMES } from '../../shared/tools.ts';
import { createLogger } from '../logger.ts';
import {
  classifyCallFailure,
  isPlatformCallError,
  PlatformCallError,
  PlatformMcp,
  type PlatformMcpOptions,
  type SharedCatalogStore,
} from './platform-mcp.ts';

const fetchFailed = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

describe('classifyCallFailure', () => {
  it('calls not_sent what cannot have reached the tool: refused, DNS, TLS, an HTTP error status', () => {
    for (const code of [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'UND_ERR_CONNECT_TIMEOUT',
      'CERT_HAS_EXPIRED',
    ]) {
      expect(classifyCallFailure(fetchFailed(code))).toBe('not_sent');
    }
    expect(classifyCallFailure(fetchFailed('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('not_sent');
    for (const status of [400, 401, 403, 404, 429]) {
      expect(classifyCallFailure(new StreamableHTTPError(status, 'Error POSTing to endpoint'))).toBe(
        'not_sent',
      );
    }
    // The MCP server's own JSON-RPC refusal with a 5xx (the sandbox's 502): it answered instead of running the tool.
    const refusal = '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad gateway"},"id":null}';
    for (const status of [500, 502, 503]) {
      expect(
        classifyCallFailure(new StreamableHTTPError(status, `Error POSTing to endpoint: ${refusal}`)),
      ).toBe('not_sent');
    }
  });

  it('calls unknown what was sent and lost: a closed socket, a reset, a timeout, a gateway 5xx, anything unrecognized', () => {
    for (const code of ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_BODY_TIMEOUT']) {
      expect(classifyCallFailure(fetchFailed(code))).toBe('unknown');
    }
    expect(classifyCallFailure(new StreamableHTTPError(504, 'Gateway Timeout'))).toBe('unknown');
    // A gateway's 5xx (or a 408) may come after the tool ran: never resent blind (spec 3.4).
    for (const status of [408, 500, 502, 503, 520, 524]) {
      expect(
        classifyCallFailure(
          new StreamableHTTPError(status, 'Error POSTing to endpoint: <html>Bad Gateway</html>'),
        ),
      ).toBe('unknown');
    }
    const internal = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}';
    expect(classifyCallFailure(new StreamableHTTPError(500, `Error POSTing to endpoint: ${internal}`))).toBe(
      'unknown',
    );
    expect(classifyCallFailure(new StreamableHTTPError(-1, 'Unexpected content type'))).toBe('unknown');
    expect(classifyCallFailure(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toBe('unknown');
    expect(classifyCallFailure(new SyntaxError('Unexpected end of JSON input'))).toBe('unknown');
    expect(classifyCallFailure('a string')).toBe('unknown');
  });
});

describe('isPlatformCallError', () => {
  it('recognizes a PlatformCallError and no look-alike', () => {
    expect(isPlatformCallError(new PlatformCallError('unknown', 'x'))).toBe(true);
    expect(isPlatformCallError(new Error('platform MCP failed'))).toBe(false);
    expect(isPlatformCallError({ name: 'PlatformCallError', failure: 'unknown' })).toBe(false);
    expect(isPlatformCallError(undefined)).toBe(false);
  });
});

describe('PlatformMcp against a real socket', () => {
  it('a server that accepts the connection and closes it without an answer makes the handshake not_sent', async () => {
    const server = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const platform = new PlatformMcp({
      url,
      secretKey: 'mk_test_demo',
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const error = await platform.call('generate_label', {}).catch((e: unknown) => e);
      // The tools/call request is only sent after a successful handshake: nothing ran.
      expect(isPlatformCallError(error) && error.failure).toBe('not_sent');
      expect(String(error)).not.toContain('mk_test_demo');
    } finally {
      await platform.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('PlatformMcp: the tool catalog', () => {
  // slow: waits for the real 3 s catalog deadline. "one look for many callers" and "asked again after a failed
  // look" are stated fast below ('one look for many concurrent callers…'); the deadline itself only here.
  it('gives up a look at a platform that never answers within 3 s, one look for many callers', {
    tags: ['slow'],
    timeout: 20_000,
  }, async () => {
    let requests = 0;
    const hanging = createServer(() => {
      requests += 1; // never answered
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    const platform = new PlatformMcp({
      url: `http://127.0.0.1:${port}/mcp`,
      secretKey: 'mk_test_demo',
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const started = Date.now();
      const looks = await Promise.allSettled(Array.from({ length: 5 }, () => platform.tools()));
      expect(looks.every((look) => look.status === 'rejected')).toBe(true);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(requests).toBe(1);
      expect(await platform.labelAvailability()).toMatchObject({ available: false });
    } finally {
      await platform.close();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('classifyCallFailure: the edges', () => {
  it('reads the code of a cause chain past an outer code that is not a string, and every listed not-sent code', () => {
    for (const code of [
      'ENETUNREACH',
      'EHOSTUNREACH',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'ERR_TLS_HANDSHAKE_TIMEOUT',
    ]) {
      expect(classifyCallFailure(fetchFailed(code))).toBe('not_sent');
    }
    const numericOuter = Object.assign(new Error('wrapped'), {
      code: 42,
      cause: fetchFailed('ECONNREFUSED'),
    });
    expect(classifyCallFailure(numericOuter)).toBe('not_sent');
  });

  it('reads a cause chain five levels deep, no deeper', () => {
    const wrap = (error: unknown, times: number): unknown =>
      times === 0 ? error : wrap(new Error('wrapped', { cause: error }), times - 1);
    const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    expect(classifyCallFailure(wrap(refused, 4))).toBe('not_sent');
    expect(classifyCallFailure(wrap(refused, 5))).toBe('unknown');
  });

  it('stops at a cause chain that loops (a crafted error cannot hang the call)', () => {
    const looping = new Error('loop') as Error & { cause?: unknown };
    looping.cause = looping;
    expect(classifyCallFailure(looping)).toBe('unknown');
  });

  it('calls unknown a 5xx whose body only looks like a refusal: not JSON-RPC 2.0, no numeric code, broken JSON, or a 504', () => {
    const bodies = [
      '{"error":{"code":-32000,"message":"Bad gateway"}}',
      '{"jsonrpc":"1.0","error":{"code":-32000}}',
      '{"jsonrpc":"2.0","error":{"code":"-32000"}}',
      '{"jsonrpc":"2.0","result":{}}',
      '{"jsonrpc":"2.0","error":{"code":-32000',
      'no json here at all',
    ];
    for (const body of bodies) {
      expect(classifyCallFailure(new StreamableHTTPError(502, `Error POSTing to endpoint: ${body}`))).toBe(
        'unknown',
      );
    }
    const refusal = '{"jsonrpc":"2.0","error":{"code":-32000,"message":"x"},"id":null}';
    expect(classifyCallFailure(new StreamableHTTPError(504, `Error POSTing to endpoint: ${refusal}`))).toBe(
      'unknown',
    );
    // the status bounds: 399 and 600 are no HTTP refusal we know; 499 is a 4xx
    expect(classifyCallFailure(new StreamableHTTPError(399, 'odd'))).toBe('unknown');
    expect(classifyCallFailure(new StreamableHTTPError(499, 'client closed request'))).toBe('not_sent');
    expect(classifyCallFailure(new StreamableHTTPError(500, `Error POSTing to endpoint: ${refusal}`))).toBe(
      'not_sent',
    );
    expect(
      classifyCallFailure(new StreamableHTTPError(undefined as unknown as number, `x: ${refusal}`)),
    ).toBe('unknown');
  });
});

/**
 * The real sandbox platform behind a front door that counts the MCP requests it forwards and, on demand, answers
 * the next ones itself with a gateway's 503 (an outage).
 */
interface Platform {
  url: string;
  sandbox: Sandbox;
  /** MCP POSTs that reached the sandbox. */
  posts(): number;
  /** The next `n` requests get a gateway's 503 page. */
  failNext(n: number): void;
}

let front: Server;
let platform: Platform;
beforeAll(async () => {
  let posts = 0;
  let failing = 0;
  front = createServer();
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const sandbox = createSandbox({ publicUrl: base });
  front.on('request', (req, res) => {
    if (failing > 0 && req.url === '/mcp') {
      failing -= 1;
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
      return;
    }
    if (req.method === 'POST' && req.url === '/mcp') posts += 1;
    sandbox.app(req, res);
  });
  platform = {
    url: `${base}/mcp`,
    sandbox,
    posts: () => posts,
    failNext: (n) => {
      failing = n;
    },
  };
});
afterAll(async () => {
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
});

const control = (path: string, body?: unknown) =>
  fetch(`${platform.url.replace(/\/mcp$/, '')}/_sandbox/${path}`, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

afterEach(async () => {
  platform.failNext(0);
  await control('reset');
});

/** A clock far from 0 (a real epoch), moved by hand. */
function clockAt(start = 1_763_800_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A shared catalog in memory, recording what it is asked. */
function memoryCatalog(
  initial?: string[],
): SharedCatalogStore & { sets: [string[], number][]; clears: number; gets: number } {
  let stored = initial;
  const store = {
    sets: [] as [string[], number][],
    clears: 0,
    gets: 0,
    get: async () => {
      store.gets += 1;
      return stored;
    },
    set: async (tools: string[], ttlMs: number) => {
      store.sets.push([tools, ttlMs]);
      stored = tools;
    },
    clear: async () => {
      store.clears += 1;
      stored = undefined;
    },
  };
  return store;
}

const clients: PlatformMcp[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function platformMcp(options: Partial<PlatformMcpOptions> = {}, lines: string[] = []): PlatformMcp {
  const client = new PlatformMcp({
    url: platform.url,
    secretKey: 'mk_test_demo',
    logger: createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } }),
    ...options,
  });
  clients.push(client);
  return client;
}

const QUOTE = { destinationCep: '20040-020', items: [{ name: 'x', quantity: 1, unitPriceBRL: 50 }] };

describe('PlatformMcp: the tool catalog, with a clock far from 0', () => {
  it('asks the platform once for the TTL and again when the TTL is over', async () => {
    const clock = clockAt();
    const mcp = platformMcp({ now: clock.now, catalogTtlMs: 60_000 });
    expect((await mcp.tools()).sort()).toEqual(
      [...LABEL_TOOL_NAMES, 'get_shipping_rates', 'track_shipment'].sort(),
    );
    const afterFirst = platform.posts();
    expect(afterFirst).toBeGreaterThan(0);
    clock.advance(59_999);
    await mcp.tools();
    expect(platform.posts()).toBe(afterFirst);
    clock.advance(1);
    await mcp.tools();
    expect(platform.posts()).toBeGreaterThan(afterFirst);
  });

  it('keeps the catalog for five minutes by default', async () => {
    const clock = clockAt();
    const mcp = platformMcp({ now: clock.now });
    await mcp.tools();
    const afterFirst = platform.posts();
    clock.advance(5 * 60_000 - 1);
    await mcp.tools();
    expect(platform.posts()).toBe(afterFirst);
    clock.advance(1);
    await mcp.tools();
    expect(platform.posts()).toBeGreaterThan(afterFirst);
  });

  it('forgets the catalog, here and in the shared store, when a call fails: label tools are asked again after an outage', async () => {
    const clock = clockAt();
    const shared = memoryCatalog();
    const mcp = platformMcp({ now: clock.now, sharedCatalog: shared });
    await mcp.tools();
    const afterFirst = platform.posts();
    await control('faults', { target: 'mcp:get_shipping_rates', mode: 'error502' });
    await expect(mcp.call('get_shipping_rates', QUOTE)).rejects.toBeInstanceOf(PlatformCallError);
    expect(shared.clears).toBe(1);
    const beforeLook = platform.posts();
    expect(beforeLook).toBeGreaterThan(afterFirst);
    await mcp.tools(); // same instant: only the forgetting makes it ask again
    expect(platform.posts()).toBeGreaterThan(beforeLook);
  });

  it('takes the catalog another instance shared without asking the platform, then holds it for the TTL', async () => {
    const clock = clockAt();
    const shared = memoryCatalog(['get_shipping_rates', 'track_shipment']);
    const mcp = platformMcp({ now: clock.now, catalogTtlMs: 60_000, sharedCatalog: shared });
    const before = platform.posts();
    expect(await mcp.tools()).toEqual(['get_shipping_rates', 'track_shipment']);
    expect(await mcp.labelAvailability()).toMatchObject({ available: false });
    expect(platform.posts()).toBe(before);
    expect(shared.gets).toBe(1);
    clock.advance(59_999);
    await mcp.tools();
    expect(shared.gets).toBe(1);
    clock.advance(1);
    await mcp.tools();
    expect(shared.gets).toBe(2);
  });

  it('shares the catalog it looked up, with its TTL, for the other instances', async () => {
    const shared = memoryCatalog();
    const mcp = platformMcp({ catalogTtlMs: 42_000, sharedCatalog: shared });
    const tools = await mcp.tools();
    expect(shared.sets).toEqual([[tools, 42_000]]);
    const other = platformMcp({ sharedCatalog: shared });
    const posts = platform.posts();
    expect(await other.tools()).toEqual(tools);
    expect(platform.posts()).toBe(posts);
  });

  it('makes one look for many concurrent callers, and a new look after a failed one', async () => {
    const mcp = platformMcp();
    const before = platform.posts();
    platform.failNext(1); // the first look's handshake meets an outage
    const looks = await Promise.allSettled(Array.from({ length: 5 }, () => mcp.tools()));
    expect(looks.map((look) => look.status)).toEqual(Array(5).fill('rejected'));
    expect(platform.posts()).toBe(before);
    const again = await Promise.all(Array.from({ length: 5 }, () => mcp.tools()));
    expect(again[0]).toContain('generate_label');
    // one handshake (initialize, initialized) and one tools/list for all five
    expect(platform.posts()).toBe(before + 3);
  });
});

describe('PlatformMcp: whether label tools are offered', () => {
  it('offers them when the platform lists every label tool', async () => {
    expect(await platformMcp().labelAvailability()).toEqual({ available: true });
  });

  it('withholds them, saying why, from a key without merchant permission', async () => {
    const availability = await platformMcp({ secretKey: 'mk_test_demo_readonly' }).labelAvailability();
    expect(availability.available).toBe(false);
    expect(availability.why).toContain('no merchant permission');
  });

  it('withholds them when only some label tools are listed', async () => {
    for (const partial of [LABEL_TOOL_NAMES.slice(0, 1), LABEL_TOOL_NAMES.slice(1)]) {
      const mcp = platformMcp({ sharedCatalog: memoryCatalog(['get_shipping_rates', ...partial]) });
      expect((await mcp.labelAvailability()).available).toBe(false);
    }
    const all = platformMcp({ sharedCatalog: memoryCatalog([...LABEL_TOOL_NAMES]) });
    expect((await all.labelAvailability()).available).toBe(true);
  });

  it('withholds them while the catalog cannot be read, logs the upstream words and never shows them to agents', async () => {
    const lines: string[] = [];
    const mcp = platformMcp({}, lines);
    platform.failNext(1);
    const availability = await mcp.labelAvailability();
    expect(availability).toEqual({
      available: false,
      why: "the platform's MCP server is not answering; asked again on the next request",
    });
    const warning = lines
      .map((line) => JSON.parse(line))
      .find((line) => /catalog could not be read/.test(line.msg));
    expect(warning?.level).toBe(40);
    expect(warning?.error).toMatch(/^platform MCP handshake failed: .*Service Unavailable/);
    expect(lines.join('\n')).not.toContain('mk_test_demo');
    // asked again on the next request: the platform is back
    expect(await mcp.labelAvailability()).toEqual({ available: true });
  });
});

describe('PlatformMcp: calls', () => {
  it('calls a platform tool with the merchant key and returns its result', async () => {
    const result = await platformMcp().call('get_shipping_rates', QUOTE);
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ rates: [{ code: 'PAC' }, { code: 'SEDEX' }] });
  });

  it('reports a refused call as not_sent, naming the tool, without the key', async () => {
    await control('faults', { target: 'mcp:generate_label', mode: 'error502' });
    const error = await platformMcp()
      .call('generate_label', {})
      .catch((e: unknown) => e);
    expect(isPlatformCallError(error) && error.failure).toBe('not_sent');
    expect((error as Error).message).toMatch(/^platform MCP generate_label failed: /);
    expect((error as Error).message).not.toContain('(undefined)');
    expect((error as Error).message).not.toContain('mk_test_demo');
  });

  it('gives up a call after its timeout and calls it unknown: the tool may have run', async () => {
    await control('faults', { target: 'mcp:generate_label', mode: 'latency', latencyMs: 5_000 });
    const error = await platformMcp()
      .call('generate_label', {}, 300)
      .catch((e: unknown) => e);
    expect(isPlatformCallError(error) && error.failure).toBe('unknown');
  });

  it('names the socket code of a refused connection once in the message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await platformMcp({ url: `http://127.0.0.1:${port}/mcp` })
      .call('get_shipping_rates', QUOTE)
      .catch((e: unknown) => e);
    expect(isPlatformCallError(error) && error.failure).toBe('not_sent');
    expect((error as Error).message).toMatch(/^platform MCP handshake failed: .*ECONNREFUSED/);
    expect((error as Error).message.match(/ECONNREFUSED/g)).toHaveLength(1);
  });

  it('reads again once after a failure, logging the retry, and gives up after the second', async () => {
    const lines: string[] = [];
    const mcp = platformMcp({}, lines);
    await control('faults', { target: 'mcp:track_shipment', mode: 'error502', times: 1 });
    const result = await mcp.read('track_shipment', { codes: ['DG049186226BR'] });
    expect(result.structuredContent).toMatchObject({ results: [{ code: 'DG049186226BR' }] });
    const retry = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'platform MCP: retrying once');
    expect(retry).toMatchObject({ level: 40, tool: 'track_shipment' });
    expect(retry?.error).toMatch(/^platform MCP track_shipment failed: /);

    await control('faults', { target: 'mcp:track_shipment', mode: 'error502', times: 2 });
    await expect(mcp.read('track_shipment', { codes: ['DG049186226BR'] })).rejects.toBeInstanceOf(
      PlatformCallError,
    );
  });

  it('at shutdown, ends a call still waiting on the platform at once', async () => {
    const mcp = platformMcp();
    await control('faults', { target: 'mcp:get_shipping_rates', mode: 'latency', latencyMs: 30_000 });
    const pending = mcp.call('get_shipping_rates', QUOTE).catch((e: unknown) => e);
    await expect
      .poll(async () => {
        const stats = (await (
          await fetch(`${platform.url.replace(/\/mcp$/, '')}/_sandbox/stats`)
        ).json()) as {
          stores: Record<string, Record<string, number>>;
        };
        return stats.stores['loja-demo']?.['mcp:get_shipping_rates'];
      })
      .toBe(1);
    await mcp.close();
    const error = await pending;
    expect(isPlatformCallError(error)).toBe(true);
  });
});
