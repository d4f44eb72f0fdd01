import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSafeFetchError, type SafeFetchOptions, type SafeFetchReason, safeFetch } from './safe-fetch.ts';
import {
  type ConnectionRecorder,
  recordConnectionAttempts,
  recordConnections,
  STAND_IN_ADDRESS,
  startHttpsServer,
  type TestHttpsServer,
  type TestPki,
  tableResolver,
  testPki,
} from './testing.ts';

const HOST = 'docs.agente.test';
let pki: TestPki;
let server: TestHttpsServer;
let loopback4: ConnectionRecorder;
let loopback6: ConnectionRecorder;
const recorded = recordConnectionAttempts();

beforeAll(async () => {
  pki = await testPki([HOST, 'other.agente.test']);
  server = await startHttpsServer(pki, (_req, res) => res.end('{}'));
  loopback4 = await recordConnections('127.0.0.1');
  loopback6 = await recordConnections('::1');
});
afterAll(async () => {
  recorded.stop();
  await server?.close();
  await loopback4?.close();
  await loopback6?.close();
});
afterEach(() => {
  server.handle = (_req, res) => res.end('{}');
});

const resolver = tableResolver({
  [HOST]: [STAND_IN_ADDRESS],
  'other.agente.test': [STAND_IN_ADDRESS],
  'loopback.agente.test': ['127.0.0.1'],
  'loopback6.agente.test': ['::1'],
  'intranet.agente.test': ['10.0.0.5'],
  'metadata.agente.test': ['169.254.169.254'],
  'cgnat.agente.test': ['100.64.0.7'],
  'ula.agente.test': ['fd00::5'],
  'mapped.agente.test': ['::ffff:10.0.0.5'],
  'mixed.agente.test': [STAND_IN_ADDRESS, '10.0.0.5'],
});

/** The options of a BFF under test: the test CA, the table resolver, 127.0.0.2 standing for the internet. */
const options = (overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  timeoutMs: 5_000,
  maxBytes: 5_120,
  lookup: resolver,
  ca: pki.ca,
  allowAddress: (address) => address === STAND_IN_ADDRESS,
  ...overrides,
});

const url = (host: string, path = '/client.json', port = server.port) => `https://${host}:${port}${path}`;

/** The reason a fetch was refused for, and the connection attempts it made meanwhile. */
async function refusal(target: string, overrides: Partial<SafeFetchOptions> = {}) {
  const before = recorded.attempts.length;
  const error = await safeFetch(target, options(overrides)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isSafeFetchError(error)) throw new Error(`expected a SafeFetchError, got ${String(error)}`);
  return {
    reason: error.reason as SafeFetchReason,
    message: error.message,
    attempts: recorded.attempts.slice(before),
  };
}

describe('safeFetch', () => {
  it('fetches a document over https from a host that resolves to an allowed address, trusting the given CA', async () => {
    server.handle = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    };
    const before = recorded.attempts.length;
    const response = await safeFetch(url(HOST), options());
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('{"ok":true}');
    expect(response.headers['content-type']).toBe('application/json');
    // The attempt recorder sees this connection: the "no attempt" assertions below can fail.
    expect(recorded.attempts.slice(before)).toEqual([`${STAND_IN_ADDRESS}:${server.port}`]);
  });

  it('refuses a server whose certificate is not from a trusted CA (Node’s own CAs by default)', async () => {
    const { ca: _ca, ...untrusted } = options();
    const error = await safeFetch(url(HOST), untrusted).catch((caught: unknown) => caught);
    expect(isSafeFetchError(error) && error.reason).toBe('tls');
  });

  it('refuses a certificate for another name (the pinned address does not change which name is checked)', async () => {
    const stranger = tableResolver({ 'stranger.agente.test': [STAND_IN_ADDRESS] });
    const { reason } = await refusal(url('stranger.agente.test'), { lookup: stranger });
    expect(reason).toBe('tls');
  });

  it.each([
    ['loopback.agente.test', '127.0.0.1'],
    ['loopback6.agente.test', '::1'],
  ])('refuses %s (resolves to %s) without connecting to the listener there', async (host, address) => {
    const target = address === '::1' ? loopback6 : loopback4;
    const { reason, message, attempts } = await refusal(url(host, '/x', target.port));
    expect(reason).toBe('forbidden_address');
    expect(message).not.toContain(address);
    expect(attempts).toEqual([]);
    expect(target.connections).toBe(0);
  });

  it.each([
    ['https://127.0.0.1', loopback4Port],
    ['https://[::1]', loopback6Port],
    ['https://2130706433', loopback4Port],
    ['https://[::ffff:127.0.0.1]', loopback4Port],
  ])('refuses the literal address %s without connecting', async (origin, port) => {
    const { reason, attempts } = await refusal(`${origin}:${port()}/client.json`);
    expect(reason).toBe('forbidden_address');
    expect(attempts).toEqual([]);
    expect(loopback4.connections + loopback6.connections).toBe(0);
  });

  it.each([
    'intranet.agente.test',
    'metadata.agente.test',
    'cgnat.agente.test',
    'ula.agente.test',
    'mapped.agente.test',
  ])(
    'refuses %s (a private, CGNAT, link-local or unique-local address) with no connection attempt at all',
    async (host) => {
      const { reason, attempts } = await refusal(url(host));
      expect(reason).toBe('forbidden_address');
      expect(attempts).toEqual([]);
    },
  );

  it('asks the system resolver by default: localhost is refused, and nothing connects to the listeners', async () => {
    const { lookup: _table, ...system } = options();
    const before = recorded.attempts.length;
    const error = await safeFetch(`https://localhost:${loopback4.port}/client.json`, system).catch(
      (caught: unknown) => caught,
    );
    expect(isSafeFetchError(error) && error.reason).toBe('forbidden_address');
    expect(recorded.attempts.slice(before)).toEqual([]);
    expect(loopback4.connections + loopback6.connections).toBe(0);
  });

  it('refuses a name when any one of its addresses is not public, even if another is', async () => {
    const { reason, attempts } = await refusal(url('mixed.agente.test'));
    expect(reason).toBe('forbidden_address');
    expect(attempts).toEqual([]);
  });

  it('connects only to the address it checked: a resolver that answers 127.0.0.1 the second time is never asked again', async () => {
    let answers = 0;
    const rebinding = async () => {
      answers += 1;
      return [{ address: answers === 1 ? STAND_IN_ADDRESS : '127.0.0.1', family: 4 }];
    };
    const before = recorded.attempts.length;
    const response = await safeFetch(url(HOST), options({ lookup: rebinding }));
    expect(response.status).toBe(200);
    expect(answers).toBe(1);
    expect(recorded.attempts.slice(before)).toEqual([`${STAND_IN_ADDRESS}:${server.port}`]);
    expect(loopback4.connections).toBe(0);
  });

  it('refuses http:// before resolving or connecting', async () => {
    const asked = resolver.asked.length;
    const { reason, attempts } = await refusal(`http://${HOST}:${loopback4.port}/client.json`);
    expect(reason).toBe('invalid_url');
    expect(attempts).toEqual([]);
    expect(resolver.asked.length).toBe(asked);
  });

  it('refuses a URL with credentials, and text that is not a URL', async () => {
    expect((await refusal(`https://user:pw@${HOST}:${server.port}/x`)).reason).toBe('invalid_url');
    expect((await refusal('client.json')).reason).toBe('invalid_url');
  });

  it('returns a redirect without following it: the target is never contacted', async () => {
    server.handle = (_req, res) => {
      res.writeHead(302, { location: `https://127.0.0.1:${loopback4.port}/internal` });
      res.end();
    };
    const before = recorded.attempts.length;
    const response = await safeFetch(url(HOST), options());
    expect(response.status).toBe(302);
    expect(recorded.attempts.slice(before)).toEqual([`${STAND_IN_ADDRESS}:${server.port}`]);
    expect(loopback4.connections).toBe(0);
  });

  it('refuses a body declared larger than the cap without reading it', async () => {
    let written = 0;
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (written < 10 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 10 * 1024 * 1024) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    };
    const { reason } = await refusal(url(HOST));
    expect(reason).toBe('too_large');
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it('refuses a chunked body once it passes the cap (no Content-Length to go by), and takes one at the cap', async () => {
    server.handle = (_req, res) => {
      res.write('a'.repeat(5_000));
      res.end('b'.repeat(121));
    };
    expect((await refusal(url(HOST))).reason).toBe('too_large');
    server.handle = (_req, res) => {
      res.write('a'.repeat(5_000));
      res.end('b'.repeat(120));
    };
    expect((await safeFetch(url(HOST), options())).body.length).toBe(5_120);
  });

  it('gives up at the deadline on a server that never answers', async () => {
    server.handle = () => {};
    const { reason } = await refusal(url(HOST), { timeoutMs: 300 });
    expect(reason).toBe('timeout');
  });

  it('gives up at the deadline on a body that drips (the deadline covers the whole exchange, not each read)', async () => {
    server.handle = (_req, res) => {
      res.write('{');
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
    };
    const { reason } = await refusal(url(HOST), { timeoutMs: 400 });
    expect(reason).toBe('timeout');
  });

  it('gives up at the deadline on a resolver that never answers, connecting nowhere', async () => {
    const { reason, attempts } = await refusal(url(HOST), {
      lookup: () => new Promise(() => {}),
      timeoutMs: 200,
    });
    expect(reason).toBe('timeout');
    expect(attempts).toEqual([]);
  });

  it('says so when a name does not resolve, or resolves to no address at all', async () => {
    expect((await refusal(url('nowhere.agente.test'))).reason).toBe('dns');
    const { reason, attempts } = await refusal(url(HOST), { lookup: async () => [] });
    expect(reason).toBe('dns');
    expect(attempts).toEqual([]);
  });

  it('checks its instrument: a plain connection to the loopback listener is counted', async () => {
    const before = loopback4.connections;
    await new Promise<void>((resolve) => {
      const socket = connect(loopback4.port, '127.0.0.1');
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    await expect.poll(() => loopback4.connections).toBe(before + 1);
    loopback4.connections = before;
  });
});

function loopback4Port(): number {
  return loopback4.port;
}
function loopback6Port(): number {
  return loopback6.port;
}
