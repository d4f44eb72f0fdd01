import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, createHttpSend, NetworkError, type Send, sendThroughFetch } from './http-send.ts';

/** What the upstream received: method, path, headers and the body as text. */
interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
  socket: Socket;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: Server): Promise<URL> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/rates`);
}

/** A real HTTP upstream on 127.0.0.1 that records each request and answers with `reply`. */
async function upstream(
  reply: (req: Received, res: ServerResponse) => void,
): Promise<{ url: URL; received: Received[]; sockets: Set<Socket> }> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: req.socket,
      };
      received.push(entry);
      reply(entry, res);
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  return { url: await listen(server), received, sockets };
}

const never = () => new AbortController().signal;

describe('createHttpSend: one JSON POST over node:http', () => {
  it('sends POST with the given headers and a byte-exact content-length for a UTF-8 body', async () => {
    const { url, received } = await upstream((_req, res) => res.end('{}'));
    const body = JSON.stringify({ cidade: 'São João', items: ['ç'] });
    await createHttpSend()(
      url,
      { authorization: 'Bearer mk_test_demo', 'content-type': 'application/json' },
      body,
      never(),
    );
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/rates');
    expect(request?.headers.authorization).toBe('Bearer mk_test_demo');
    expect(request?.headers['content-type']).toBe('application/json');
    // 'ã' and 'ç' are two bytes each: a character count would cut the body short
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
    expect(request?.body).toBe(body);
  });

  it('answers the status, the UTF-8 body text and headers read in any case', async () => {
    const { url } = await upstream((_req, res) => {
      res.statusCode = 429;
      res.setHeader('Retry-After', '7');
      res.setHeader('Set-Cookie', ['first=1', 'second=2']);
      res.end(JSON.stringify({ error: { message: 'Limite de requisições' } }));
    });
    const answer = await createHttpSend()(url, {}, '{}', never());
    expect(answer.status).toBe(429);
    expect(answer.header('Retry-After')).toBe('7');
    expect(answer.header('retry-after')).toBe('7');
    expect(answer.header('RETRY-AFTER')).toBe('7');
    // a header sent more than once: the first value, a string like every other header
    expect(answer.header('set-cookie')).toBe('first=1');
    expect(answer.header('x-absent')).toBeUndefined();
    expect(JSON.parse(answer.text)).toEqual({ error: { message: 'Limite de requisições' } });
  });

  it('joins a body that arrives in many chunks', async () => {
    const { url } = await upstream((_req, res) => {
      res.write('{"rates":[');
      setTimeout(() => res.end('"PAC","SEDEX"]}'), 20);
    });
    const answer = await createHttpSend()(url, {}, '{}', never());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ rates: ['PAC', 'SEDEX'] });
  });

  it('keeps the connection alive: consecutive calls reuse one socket', async () => {
    const { url, sockets } = await upstream((_req, res) => res.end('{}'));
    const send = createHttpSend();
    for (let i = 0; i < 3; i++) expect((await send(url, {}, '{}', never())).status).toBe(200);
    expect(sockets.size).toBe(1);
  });

  it('rejects with NetworkError when nothing listens (connection refused), naming the cause', async () => {
    const { url } = await upstream((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    const error = await createHttpSend()(url, {}, '{}', never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).name).toBe('NetworkError');
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('rejects with NetworkError when the upstream closes the socket mid-body', async () => {
    const { url } = await upstream((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"rates":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await createHttpSend()(url, {}, '{}', never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('rejects with the abort reason, not a network error, when the caller gives up before the answer', async () => {
    const { url, received } = await upstream(() => undefined); // never answers
    const controller = new AbortController();
    const pending = createHttpSend()(url, {}, '{}', controller.signal).catch((e: unknown) => e);
    await expect.poll(() => received.length).toBe(1);
    const reason = new Error('attempt deadline');
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it('rejects with the abort reason when the caller gives up while the body is arriving', async () => {
    const { url } = await upstream((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"rates":');
    });
    const controller = new AbortController();
    const pending = createHttpSend()(url, {}, '{}', controller.signal).catch((e: unknown) => e);
    // give the answer's head time to arrive, then abort while the body is incomplete
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reason = new Error('attempt deadline');
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it('speaks TLS to an https: URL (a plain server sees a TLS ClientHello) and fails as a network error', async () => {
    const firstBytes: Buffer[] = [];
    const tcp = createTcpServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        firstBytes.push(chunk);
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}');
      });
    });
    const url = await listen(tcp);
    url.protocol = 'https:';
    const error = await createHttpSend()(url, {}, '{}', never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    // 0x16: a TLS handshake record, where plain HTTP would have started with "POST"
    expect(firstBytes[0]?.[0]).toBe(0x16);
    expect(firstBytes[0]?.toString('latin1').startsWith('POST')).toBe(false);
  });
});

describe('sendThroughFetch: a Send over a fetch function (how tests script the upstream)', () => {
  const script = (
    respond: (url: string, init: RequestInit) => Promise<Response>,
    calls: [string, RequestInit][] = [],
  ) =>
    (async (url: URL | RequestInfo, init?: RequestInit) => {
      calls.push([String(url), init ?? {}]);
      return respond(String(url), init ?? {});
    }) as typeof fetch;

  it('passes URL, POST, headers, body and signal to fetch and reads status, headers and text', async () => {
    const calls: [string, RequestInit][] = [];
    const send: Send = sendThroughFetch(
      script(
        async () => new Response('{"ok":true}', { status: 201, headers: { 'Retry-After': '3' } }),
        calls,
      ),
    );
    const signal = never();
    const answer: Answer = await send(
      new URL('http://platform.test/v1/tracking'),
      { authorization: 'Bearer mk_x' },
      '{"codes":[]}',
      signal,
    );
    expect(calls).toEqual([
      [
        'http://platform.test/v1/tracking',
        { method: 'POST', headers: { authorization: 'Bearer mk_x' }, body: '{"codes":[]}', signal },
      ],
    ]);
    expect(answer.status).toBe(201);
    expect(answer.header('retry-after')).toBe('3');
    expect(answer.header('x-absent')).toBeUndefined();
    expect(answer.text).toBe('{"ok":true}');
  });

  it('turns a fetch failure into NetworkError with its message, and a thrown non-Error into its text', async () => {
    const failing = sendThroughFetch(
      script(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    const error = await failing(new URL('http://platform.test/'), {}, '{}', never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('fetch failed');

    const odd = sendThroughFetch(
      script(async () => {
        throw 'socket hang up';
      }),
    );
    const oddError = await odd(new URL('http://platform.test/'), {}, '{}', never()).catch((e: unknown) => e);
    expect(oddError).toBeInstanceOf(NetworkError);
    expect((oddError as Error).message).toBe('socket hang up');
  });

  it('rejects with the abort reason when the signal was aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('attempt deadline');
    const aborting = sendThroughFetch(
      script(async () => {
        controller.abort(reason);
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    const error = await aborting(new URL('http://platform.test/'), {}, '{}', controller.signal).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(reason);
  });
});
