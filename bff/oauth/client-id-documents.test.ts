import type { ServerResponse } from 'node:http';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { CLIENT_METADATA_LIMITS } from '../../shared/oauth/client-metadata.ts';
import {
  consentByForm,
  formFields,
  loginByForm,
  pkce,
  TEST_REDIRECT,
  TestOAuthClient,
  tokenRequest,
} from '../../shared/oauth/testing/client.ts';
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
} from '../../shared/security/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * Client ID Metadata Documents on the BFF (docs/agents/connect.md, "Client ID Metadata Documents"): the SDK's own client
 * connects with an https URL as its client id, served by a real HTTPS server with a test CA on 127.0.0.2 (standing
 * for the internet: the only special-use address the test BFF may fetch from), names resolved by a table; every
 * SSRF attempt is refused with `invalid_client` and no connection to where it pointed.
 */

const PASSWORD = 'senha-do-lojista-cimd';
const HOST = 'app.agente.test';
/** The BFF's deadline for a document here: short, for the slow-document test (production: 5 s). */
const TIMEOUT_MS = 1_500;

let sandbox: RunningSandbox;
let bff: RunningBff;
let pki: TestPki;
let docs: TestHttpsServer;
let loopback4: ConnectionRecorder;
let loopback6: ConnectionRecorder;
let offset = 0;
const clients: Client[] = [];
const recorded = recordConnectionAttempts();
/** What the document server answers per path. */
const served = new Map<string, (res: ServerResponse) => void>();

const resolver = tableResolver({
  [HOST]: [STAND_IN_ADDRESS],
  'loopback.agente.test': ['127.0.0.1'],
  'loopback6.agente.test': ['::1'],
  'intranet.agente.test': ['10.0.0.5'],
  'metadata.agente.test': ['169.254.169.254'],
  'ula.agente.test': ['fd00::5'],
  'half.agente.test': [STAND_IN_ADDRESS, '10.0.0.5'],
});

beforeAll(async () => {
  pki = await testPki([HOST]);
  docs = await startHttpsServer(pki, (req, res) => {
    const answer = served.get(req.url ?? '');
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  loopback4 = await recordConnections('127.0.0.1');
  loopback6 = await recordConnections('::1');
  sandbox = await startSandbox();
  bff = await startBff(
    sandbox.url,
    { BFF_ADMIN_PASSWORD: PASSWORD },
    {
      now: () => Date.now() + offset,
      oauth: {
        rateLimits: false,
        clientMetadata: {
          ca: pki.ca,
          lookup: resolver,
          allowAddress: (address) => address === STAND_IN_ADDRESS,
          timeoutMs: TIMEOUT_MS,
        },
      },
    },
  );
}, 30_000);
afterAll(async () => {
  recorded.stop();
  await bff?.stop();
  await sandbox?.close();
  await docs?.close();
  await loopback4?.close();
  await loopback6?.close();
});
beforeEach(() => {
  docs.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  expect(loopback4.connections + loopback6.connections).toBe(0);
});

const docUrl = (path: string, host = HOST, port = docs.port) => `https://${host}:${port}${path}`;

/** Serves a client metadata document at `path` (its own URL as client_id unless overridden). */
function serveDocument(
  path: string,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = { 'cache-control': 'max-age=300' },
): string {
  const clientId = docUrl(path);
  const body = JSON.stringify({
    client_id: clientId,
    client_name: 'Agente CIMD',
    client_uri: `https://${HOST}`,
    redirect_uris: [TEST_REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  });
  served.set(path, (res) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body));
  return clientId;
}

/** An MCP client's OAuth state that identifies itself by a metadata document URL (MCP 2025-11-25). */
class DocumentClient extends TestOAuthClient {
  readonly clientMetadataUrl: string;
  constructor(clientMetadataUrl: string) {
    super('Agente CIMD');
    this.clientMetadataUrl = clientMetadataUrl;
  }
}

async function connect(provider: TestOAuthClient): Promise<Client> {
  const client = new Client({ name: 'cimd-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), { authProvider: provider }),
  );
  clients.push(client);
  return client;
}

async function authorizeQuery(clientId: string, redirect = TEST_REDIRECT): Promise<Record<string, string>> {
  const { challenge } = await pkce();
  return {
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'estado-cimd',
  };
}

/** What the BFF answers for a client id: the /authorize page (status, text) and the /token error (status, JSON). */
async function bothRefusals(clientId: string) {
  const authorize = await fetch(
    `${bff.url}/authorize?${new URLSearchParams(await authorizeQuery(clientId))}`,
    {
      redirect: 'manual',
    },
  );
  const token = await tokenRequest(bff.url, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code: 'x'.repeat(43),
    code_verifier: 'y'.repeat(43),
    redirect_uri: TEST_REDIRECT,
  });
  return { authorize: { status: authorize.status, text: await authorize.text() }, token };
}

/** The admin session cookie (the /admin login form, as in bff/admin/routes.test.ts). */
async function adminCookie(): Promise<string> {
  const page = await fetch(`${bff.url}/admin/agents`);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const login = await fetch(`${bff.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrf, password: PASSWORD }),
  });
  expect(login.status).toBe(303);
  return [csrfCookie, ...login.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '')].join('; ');
}

describe('Client ID Metadata Documents on the BFF', () => {
  it('advertises client_id_metadata_document_supported and keeps the registration endpoint', async () => {
    const metadata = OAuthMetadataSchema.parse(
      await (await fetch(`${bff.url}/.well-known/oauth-authorization-server`)).json(),
    );
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${bff.url}/register`);
  });

  it('connects the SDK client with a URL client id: no registration, login and consent by form, token, tools, refresh, /admin/agents, revoke', async () => {
    const clientId = serveDocument('/oauth/client.json');
    const provider = new DocumentClient(clientId);

    // 1. The SDK sees the flag and uses the URL as its client id instead of registering.
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInformation()?.client_id).toBe(clientId);
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.searchParams.get('client_id')).toBe(clientId);

    // 2. The merchant logs in; the consent names the client and the host that publishes its document.
    const flow = await loginByForm(bff.url, Object.fromEntries(authorizationUrl?.searchParams ?? []), {
      password: PASSWORD,
    });
    expect(flow.login.status).toBe(200);
    expect(flow.loginPage).toContain('Agente CIMD');
    expect(flow.loginPage).toContain(`<dt>Identidade publicada em</dt><dd>${HOST}:${docs.port}</dd>`);
    expect(flow.loginPage).toContain('<dt>Retorno para</dt><dd>127.0.0.1:9</dd>');
    const consent = await consentByForm(bff.url, flow, 'approve', ['rates', 'tracking']);
    expect(consent.status).toBe(303);
    const callback = new URL(String(consent.headers.get('location')));
    expect(callback.origin + callback.pathname).toBe(TEST_REDIRECT);

    // 3. Token and tools.
    await new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), { authProvider: provider }).finishAuth(
      String(callback.searchParams.get('code')),
    );
    const client = await connect(provider);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_shipping_rates', 'track_shipment']);
    // 4. Refresh, with the URL as client id at /token.
    const first = provider.tokens();
    expect(await auth(provider, { serverUrl: `${bff.url}/mcp` })).toBe('AUTHORIZED');
    expect(provider.tokens()?.access_token).not.toBe(first?.access_token);
    // One fetch for the whole flow: the document's max-age covers authorize, login, consent, token and refresh.
    expect(docs.requests).toEqual(['GET /oauth/client.json']);

    // 5. /admin/agents lists it like a registered client (name, publishing host, redirect host, scopes), and revokes it.
    const cookie = await adminCookie();
    const agents = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    expect(agents).toContain(`Agente CIMD (${HOST}:${docs.port})`);
    expect(agents).toContain('127.0.0.1:9');
    expect(agents).toContain('Cotar fretes');
    const row = (await bff.backends.oauth?.listClients())?.find((c) => c.documentUrl === clientId);
    expect(row?.consentedAt).not.toBeNull();
    const revoke = await fetch(`${bff.url}/admin/agents/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: bff.url },
      body: new URLSearchParams({ csrf: formFields(agents).csrf ?? '', client: row?.idHash ?? '' }),
    });
    expect(revoke.status).toBe(303);
    const after = await fetch(`${bff.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${provider.tokens()?.access_token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
  });

  it('names the document client in the ledger with its publishing host (its name is only its own claim)', async () => {
    const clientId = serveDocument('/named.json', { client_name: 'Claude' });
    const flow = await loginByForm(bff.url, await authorizeQuery(clientId), { password: PASSWORD });
    const consent = await consentByForm(bff.url, flow, 'approve', ['rates']);
    expect(consent.status).toBe(303);
    const { clientName } = await import('./oauth.ts');
    const row = (await bff.backends.oauth?.listClients())?.find((c) => c.documentUrl === clientId);
    expect(row && clientName(row)).toMatch(new RegExp(`^Claude \\(${HOST}:${docs.port}\\) #[0-9a-f]{6}$`));
  });

  it('binds the flow to the document’s redirect_uris: another one gets an HTML page, never a redirect', async () => {
    const clientId = serveDocument('/bound.json', { redirect_uris: ['http://127.0.0.1:9/callback'] });
    const response = await fetch(
      `${bff.url}/authorize?${new URLSearchParams(await authorizeQuery(clientId, 'https://evil.example/cb'))}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('não é um dos registrados');
    // The code's redirect is checked again at the token endpoint.
    const { challenge, verifier } = await pkce();
    const query = { ...(await authorizeQuery(clientId)), code_challenge: challenge };
    const flow = await loginByForm(bff.url, query, { password: PASSWORD });
    const code = new URL(
      String((await consentByForm(bff.url, flow, 'approve', ['rates'])).headers.get('location')),
    ).searchParams.get('code');
    const token = await tokenRequest(bff.url, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: String(code),
      code_verifier: verifier,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(token).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(token.body.error_description)).toContain('redirect_uri does not match');
  });

  it('follows the document when it changes: a redirect URI it no longer lists is refused once the cache expires', async () => {
    const clientId = serveDocument('/changing.json', {}, { 'cache-control': 'max-age=60' });
    expect(
      (await loginByForm(bff.url, await authorizeQuery(clientId), { password: PASSWORD })).login.status,
    ).toBe(200);
    serveDocument('/changing.json', { redirect_uris: ['http://127.0.0.1:9/elsewhere'] });
    offset += 61_000;
    const again = await fetch(`${bff.url}/authorize?${new URLSearchParams(await authorizeQuery(clientId))}`, {
      redirect: 'manual',
    });
    expect(again.status).toBe(400);
    expect(docs.requests).toEqual(['GET /changing.json', 'GET /changing.json']);
  });

  it('refuses a document that breaks the rules with invalid_client at /authorize (a page) and /token (JSON)', async () => {
    const clientId = serveDocument('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' });
    const { authorize, token } = await bothRefusals(clientId);
    expect(authorize.status).toBe(400);
    expect(authorize.text).toContain('invalid_client');
    expect(authorize.text).toContain('token_endpoint_auth_method must be none');
    expect(token.status).toBe(400);
    expect(token.body.error).toBe('invalid_client');
    expect(String(token.body.error_description)).toContain('token_endpoint_auth_method must be none');
  });

  it('refuses a document whose redirect URI is a web page over http, as a registration would be', async () => {
    const clientId = serveDocument('/http-redirect.json', { redirect_uris: ['http://evil.example/cb'] });
    const { token } = await bothRefusals(clientId);
    expect(token.body).toMatchObject({ error: 'invalid_client' });
    expect(String(token.body.error_description)).toContain('http redirect_uri must be a loopback address');
  });

  describe('SSRF: refused with invalid_client, nothing reaches the address', () => {
    it.each([
      ['loopback.agente.test', '127.0.0.1'],
      ['loopback6.agente.test', '::1'],
    ])(
      'a host that resolves to loopback (%s → %s): the listener there sees no connection',
      async (host, address) => {
        const target = address === '::1' ? loopback6 : loopback4;
        const clientId = docUrl('/client.json', host, target.port);
        const before = recorded.attempts.length;
        const { authorize, token } = await bothRefusals(clientId);
        expect(authorize.status).toBe(400);
        expect(authorize.text).toContain('resolves to an address that is not public');
        expect(token).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
        expect(String(token.body.error_description)).toContain('resolves to an address that is not public');
        expect(String(token.body.error_description)).not.toContain(address);
        expect(target.connections).toBe(0);
        expect(recorded.attempts.slice(before).filter((a) => a.endsWith(`:${target.port}`))).toEqual([]);
      },
    );

    it.each([
      ['https://127.0.0.1', () => loopback4],
      ['https://[::1]', () => loopback6],
    ])('a literal loopback address (%s)', async (origin, target) => {
      const { token } = await bothRefusals(`${origin}:${target().port}/client.json`);
      expect(token.body).toMatchObject({ error: 'invalid_client' });
      expect(target().connections).toBe(0);
    });

    it.each([
      ['intranet.agente.test', '10.0.0.5'],
      ['metadata.agente.test', '169.254.169.254'],
      ['ula.agente.test', 'fd00::5'],
      ['half.agente.test', '10.0.0.5 (beside an allowed address)'],
    ])(
      'a host that resolves to a private or link-local address (%s → %s): no connection attempted',
      async (host) => {
        const before = recorded.attempts.length;
        const { token } = await bothRefusals(docUrl('/client.json', host));
        expect(token.body).toMatchObject({ error: 'invalid_client' });
        const attempts = recorded.attempts.slice(before);
        expect(attempts.filter((a) => /^(10\.|169\.254\.|fd00:)/.test(a))).toEqual([]);
        // Nor to the allowed address of the half-private name: the whole name is refused.
        expect(attempts.filter((a) => a.startsWith(STAND_IN_ADDRESS))).toEqual([]);
        expect(docs.requests).toEqual([]);
      },
    );

    it('a redirect (3xx) to a loopback listener: not followed', async () => {
      served.set('/redirect.json', (res) =>
        res.writeHead(302, { location: `https://127.0.0.1:${loopback4.port}/client.json` }).end(),
      );
      const { authorize, token } = await bothRefusals(docUrl('/redirect.json'));
      expect(authorize.status).toBe(400);
      expect(String(token.body.error_description)).toContain('answered HTTP 302; redirects are not followed');
      expect(loopback4.connections).toBe(0);
    });

    it('a 10 MB document: refused at the 5 KB cap, the rest never read', async () => {
      let written = 0;
      served.set('/huge.json', (res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(10 * 1024 * 1024),
        });
        const chunk = Buffer.alloc(64 * 1024, ' ');
        const pump = () => {
          while (written < 10 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          if (written < 10 * 1024 * 1024 && !res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const { token } = await bothRefusals(docUrl('/huge.json'));
      expect(String(token.body.error_description)).toContain(
        `larger than ${CLIENT_METADATA_LIMITS.maxBytes} bytes`,
      );
      expect(written).toBeLessThan(10 * 1024 * 1024);
    });

    // slow (two 1.5 s deadlines): shared/security/safe-fetch.test.ts states the deadline with 200–400 ms
    it('a document that never comes: refused at the deadline', { tags: ['slow'] }, async () => {
      served.set('/slow.json', () => {});
      const { token } = await bothRefusals(docUrl('/slow.json'));
      expect(token.body).toMatchObject({ error: 'invalid_client' });
      expect(String(token.body.error_description)).toContain(
        `no complete answer within ${TIMEOUT_MS / 1000} s`,
      );
    });

    it('http:// instead of https://: refused before resolving or connecting', async () => {
      const asked = resolver.asked.length;
      const { authorize, token } = await bothRefusals(`http://${HOST}:${loopback4.port}/client.json`);
      expect(authorize.status).toBe(400);
      expect(String(token.body.error_description)).toContain('a client_id URL must use https, not http');
      expect(resolver.asked.length).toBe(asked);
      expect(loopback4.connections).toBe(0);
    });
  });

  it('keeps dynamic registration working beside it', async () => {
    const provider = new TestOAuthClient('Agente registrado');
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const clientId = String(provider.clientInformation()?.client_id);
    expect(clientId).not.toMatch(/^https:/);
    expect(provider.authorizationUrl?.searchParams.get('client_id')).toBe(clientId);
  });

  it('the sandbox stays with registration only (the platform’s spec 5.2): no flag, a URL client id is unknown, nothing fetched', async () => {
    const metadata = OAuthMetadataSchema.parse(
      await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).json(),
    );
    expect(metadata.client_id_metadata_document_supported).toBeUndefined();
    const clientId = serveDocument('/sandbox.json');
    const page = await fetch(
      `${sandbox.url}/authorize?${new URLSearchParams(await authorizeQuery(clientId))}`,
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('invalid_client');
    expect(docs.requests).toEqual([]);
  });
});
