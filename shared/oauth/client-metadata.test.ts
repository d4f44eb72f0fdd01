import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  STAND_IN_ADDRESS,
  startHttpsServer,
  type TestHttpsServer,
  type TestPki,
  tableResolver,
  testPki,
} from '../security/testing.ts';
import {
  CLIENT_METADATA_LIMITS,
  ClientMetadataResolver,
  clientIdHost,
  clientIdUrlProblem,
  freshnessMs,
  isClientIdUrl,
  isClientMetadataError,
} from './client-metadata.ts';

const HOST = 'app.agente.test';
let pki: TestPki;
let server: TestHttpsServer;
/** What the server answers per path: status, headers, body. */
let pages: Map<string, { status?: number; headers?: Record<string, string>; body: string }>;
let clock = 1_000_000;

beforeAll(async () => {
  pki = await testPki([HOST]);
  server = await startHttpsServer(pki, (req, res: ServerResponse) => {
    const page = pages.get(req.url ?? '');
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': 'application/json', ...page.headers });
    res.end(page.body);
  });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  pages = new Map();
  server.requests.length = 0;
});

const url = (path: string) => `https://${HOST}:${server.port}${path}`;
const document = (path: string, overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    client_id: url(path),
    client_name: 'Agente de teste',
    redirect_uris: ['http://127.0.0.1:9/callback'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  });
const serve = (path: string, body: string, headers: Record<string, string> = {}, status = 200) =>
  pages.set(path, { status, headers, body });

const resolver = () =>
  new ClientMetadataResolver({
    fetch: {
      ca: pki.ca,
      lookup: tableResolver({ [HOST]: [STAND_IN_ADDRESS] }),
      allowAddress: (address) => address === STAND_IN_ADDRESS,
    },
    now: () => clock,
  });

async function refusal(target: ClientMetadataResolver, clientId: string) {
  const error = await target.resolve(clientId).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isClientMetadataError(error)) throw new Error(`expected a ClientMetadataError, got ${String(error)}`);
  return { reason: error.reason, wire: error.toResponseObject() };
}

describe('client_id URLs', () => {
  it.each([
    ['https://app.example/client.json', undefined],
    ['https://app.example:8443/oauth/client', undefined],
    ['https://app.example/c?v=1', undefined],
    ['http://app.example/client.json', 'must use https'],
    ['https://app.example', 'must have a path'],
    ['https://app.example/', 'must have a path'],
    ['https://app.example/a/../client.json', '. or .. path segments'],
    ['https://app.example/./client.json', '. or .. path segments'],
    ['https://app.example/a/%2e%2E/client.json', '. or .. path segments'],
    ['https://app.example/client.json#x', 'fragment'],
    ['https://user:pw@app.example/client.json', 'user name or password'],
    [`https://app.example/${'a'.repeat(2_000)}`, 'too long'],
    // The URL parser turns each of these into /victim/client.json, which is what would be fetched (issue 38).
    ['https://app.example/a\\..\\victim\\client.json', 'backslash'],
    ['https://app.example/a/.\t./victim/client.json', 'tab, line break'],
    ['https://app.example/a/.\n./victim/client.json', 'tab, line break'],
    ['https://app.example/a/.\r./victim/client.json', 'tab, line break'],
    ['https://app.example/a/%2E%2e\\victim/client.json', 'backslash'],
    ['https://app.example/caf\u00e9/client.json', 'is not the path'],
    ['https://app.example/a b/client.json', 'tab, line break'],
  ])('%s → %s', (clientId, problem) => {
    const found = clientIdUrlProblem(clientId);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('checks the path the URL parser makes of each trick: every one would fetch /victim/client.json', () => {
    for (const trick of [
      'a\\..\\victim\\client.json',
      'a/.\t./victim/client.json',
      'a/.\n./victim/client.json',
    ]) {
      expect(new URL(`https://app.example/${trick}`).pathname).toBe('/victim/client.json');
    }
  });

  it('tells a URL client id from a registered one (a UUID) and names its host', () => {
    expect(isClientIdUrl('https://app.example/client.json')).toBe(true);
    expect(isClientIdUrl('HTTP://app.example/client.json')).toBe(true);
    expect(isClientIdUrl('0b9e3f4c-5d6e-4f70-8a9b-0c1d2e3f4a5b')).toBe(false);
    expect(clientIdHost('https://app.example:8443/c')).toBe('app.example:8443');
    expect(clientIdHost('0b9e3f4c-5d6e-4f70-8a9b-0c1d2e3f4a5b')).toBeUndefined();
  });
});

describe('freshnessMs (RFC 9111 §4.2.1, at most a day)', () => {
  const day = CLIENT_METADATA_LIMITS.maxCacheMs;
  it.each([
    [{ 'cache-control': 'max-age=300' }, 300_000],
    [{ 'cache-control': 'public, max-age=300', age: '100' }, 200_000],
    [{ 'cache-control': 'max-age=604800' }, day],
    [{ 'cache-control': 'no-store, max-age=300' }, 0],
    [{ 'cache-control': 'max-age=300, no-cache' }, 0],
    [{ 'cache-control': 'max-age=0' }, 0],
    [{ 'cache-control': 'max-age=10', age: '60' }, 0],
    [{ expires: 'Thu, 01 Jan 2026 00:10:00 GMT', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, 600_000],
    [{ expires: '0', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, 0],
    [{}, 0],
  ])('%j → %i ms', (headers, expected) => {
    expect(freshnessMs(headers, day)).toBe(expected);
  });
});

describe('ClientMetadataResolver', () => {
  it('uses its limits: 5 s, 5 KB, a day in the cache', () => {
    expect(CLIENT_METADATA_LIMITS).toMatchObject({
      timeoutMs: 5_000,
      maxBytes: 5_120,
      maxCacheMs: 86_400_000,
    });
  });

  it('fetches a valid document and keeps it for its max-age, then fetches again', async () => {
    serve('/client.json', document('/client.json'), { 'cache-control': 'max-age=60' });
    const target = resolver();
    const first = await target.resolve(url('/client.json'));
    expect(first.client_name).toBe('Agente de teste');
    expect(first.redirect_uris).toEqual(['http://127.0.0.1:9/callback']);
    clock += 59_999;
    await target.resolve(url('/client.json'));
    expect(server.requests).toEqual(['GET /client.json']);
    clock += 2;
    await target.resolve(url('/client.json'));
    expect(server.requests).toEqual(['GET /client.json', 'GET /client.json']);
  });

  it('keeps a document at most a day, whatever its max-age says', async () => {
    serve('/week.json', document('/week.json'), { 'cache-control': 'max-age=604800' });
    const target = resolver();
    await target.resolve(url('/week.json'));
    clock += CLIENT_METADATA_LIMITS.maxCacheMs - 1;
    await target.resolve(url('/week.json'));
    expect(server.requests).toHaveLength(1);
    clock += 2;
    await target.resolve(url('/week.json'));
    expect(server.requests).toHaveLength(2);
  });

  it('fetches a no-store document every time', async () => {
    serve('/fresh.json', document('/fresh.json'), { 'cache-control': 'no-store' });
    const target = resolver();
    await target.resolve(url('/fresh.json'));
    await target.resolve(url('/fresh.json'));
    expect(server.requests).toHaveLength(2);
  });

  it('shares one fetch between concurrent requests for one URL', async () => {
    serve('/shared.json', document('/shared.json'), { 'cache-control': 'no-store' });
    const target = resolver();
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => target.resolve(url('/shared.json'))));
    expect(all.every((found) => found.client_id === url('/shared.json'))).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('fetches at most maxInFlight documents at once, refusing the next URL until one ends', async () => {
    const release: (() => void)[] = [];
    const original = server.handle;
    server.handle = (req, res) => {
      release.push(() =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(document(req.url ?? '')),
      );
    };
    try {
      const target = new ClientMetadataResolver({
        fetch: {
          ca: pki.ca,
          lookup: tableResolver({ [HOST]: [STAND_IN_ADDRESS] }),
          allowAddress: (address) => address === STAND_IN_ADDRESS,
        },
        maxInFlight: 2,
      });
      const first = target.resolve(url('/one.json'));
      const second = target.resolve(url('/two.json'));
      // The same URL again shares its fetch; a third URL is refused.
      const again = target.resolve(url('/one.json'));
      const third = await refusal(target, url('/three.json'));
      expect(third.reason).toBe('busy');
      expect(third.wire.error).toBe('invalid_client');
      await expect.poll(() => release.length).toBe(2);
      for (const answer of release) answer();
      await Promise.all([first, second, again]);
      expect([...server.requests].sort()).toEqual(['GET /one.json', 'GET /two.json']);
      // With the slots free again, the third URL is fetched.
      server.handle = original;
      serve('/three.json', document('/three.json'));
      expect((await target.resolve(url('/three.json'))).client_id).toBe(url('/three.json'));
    } finally {
      server.handle = original;
    }
  });

  it('never caches an error or an invalid document (§4.4)', async () => {
    const target = resolver();
    serve('/flaky.json', '{}', { 'cache-control': 'max-age=3600' }, 500);
    expect((await refusal(target, url('/flaky.json'))).reason).toBe('status');
    serve('/flaky.json', document('/flaky.json', { client_id: 'https://other.example/c' }), {
      'cache-control': 'max-age=3600',
    });
    expect((await refusal(target, url('/flaky.json'))).reason).toBe('document');
    serve('/flaky.json', document('/flaky.json'), { 'cache-control': 'max-age=3600' });
    expect((await target.resolve(url('/flaky.json'))).client_name).toBe('Agente de teste');
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    [
      'a client_id that is not its URL',
      { client_id: 'https://claude.ai/oauth/client.json' },
      'is not the URL it was fetched from',
    ],
    ['a client_secret', { client_secret: 's3cr3t' }, 'must not carry client_secret'],
    ['a client_secret_expires_at', { client_secret_expires_at: 0 }, 'must not carry client_secret'],
    [
      'client_secret_basic',
      { token_endpoint_auth_method: 'client_secret_basic' },
      'token_endpoint_auth_method must be none',
    ],
    [
      'private_key_jwt',
      { token_endpoint_auth_method: 'private_key_jwt' },
      'private_key_jwt is not supported',
    ],
    ['no client_name', { client_name: undefined }, 'client_name'],
    ['no redirect_uris', { redirect_uris: undefined }, 'redirect_uris'],
    ['empty redirect_uris', { redirect_uris: [] }, 'redirect_uris'],
    ['redirect_uris that are not strings', { redirect_uris: [42] }, 'redirect_uris'],
  ])('refuses a document with %s as invalid_client, naming the rule', async (_what, overrides, message) => {
    serve('/bad.json', document('/bad.json', overrides));
    const { reason, wire } = await refusal(resolver(), url('/bad.json'));
    expect(reason).toBe('document');
    expect(wire.error).toBe('invalid_client');
    expect(wire.error_description).toContain(message);
  });

  it('accepts a document that carries properties it does not know (§4.1)', async () => {
    serve('/extra.json', document('/extra.json', { software_id: 'x', jwks_uri: 'https://app.example/jwks' }));
    expect((await resolver().resolve(url('/extra.json'))).client_name).toBe('Agente de teste');
  });

  it('accepts application/<something>+json and refuses text/html or a body that is not JSON', async () => {
    serve('/typed.json', document('/typed.json'), { 'content-type': 'application/client-metadata+json' });
    expect((await resolver().resolve(url('/typed.json'))).client_name).toBe('Agente de teste');
    serve('/page.html', document('/page.html'), { 'content-type': 'text/html' });
    expect((await refusal(resolver(), url('/page.html'))).wire.error_description).toContain(
      'served as text/html, not application/json',
    );
    serve('/broken.json', '{"client_id":');
    expect((await refusal(resolver(), url('/broken.json'))).reason).toBe('json');
    serve('/array.json', '[]');
    expect((await refusal(resolver(), url('/array.json'))).reason).toBe('document');
  });

  it('refuses a redirect without following it, and any status but 200', async () => {
    serve('/moved.json', '', { location: url('/client.json') }, 301);
    const moved = await refusal(resolver(), url('/moved.json'));
    expect(moved.reason).toBe('status');
    expect(moved.wire.error_description).toContain('answered HTTP 301; redirects are not followed');
    expect(server.requests).toEqual(['GET /moved.json']);
    expect((await refusal(resolver(), url('/missing.json'))).wire.error_description).toContain(
      'answered HTTP 404; only 200 is accepted',
    );
  });

  it('refuses a client_id URL that breaks §3 before fetching anything', async () => {
    const { reason } = await refusal(resolver(), `https://${HOST}:${server.port}/a/../client.json`);
    expect(reason).toBe('client_id_url');
    expect(server.requests).toEqual([]);
  });

  it('asks for JSON', async () => {
    let accept: string | undefined;
    const original = server.handle;
    server.handle = (req, res) => {
      accept = req.headers.accept;
      res.writeHead(200, { 'content-type': 'application/json' }).end(document('/client.json'));
    };
    try {
      await resolver().resolve(url('/client.json'));
    } finally {
      server.handle = original;
    }
    expect(accept).toBe('application/json');
  });
});
