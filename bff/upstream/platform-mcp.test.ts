import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { classifyCallFailure, isPlatformCallError, PlatformMcp } from './platform-mcp.ts';

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
  it('gives up a look at a platform that never answers within 3 s, one look for many callers', async () => {
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
  }, 20_000);
});
