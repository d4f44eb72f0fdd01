import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { tokenRequest } from '../../shared/oauth/testing/client.ts';
import { approvedCode, approvedTokens, type OAuthServerUnderTest } from '../../shared/oauth/testing/suite.ts';
import { type RunningBff, startBff } from '../testing.ts';

const PASSWORD = 'senha-do-lojista-admin';
let sandbox: RunningSandbox;
let bff: RunningBff;
let offset = 0;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD }, { now: () => Date.now() + offset });
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const server: OAuthServerUnderTest = {
  origin: () => bff.url,
  credentials: { password: PASSWORD },
  wrongCredentials: { password: 'x' },
  consentScopes: ['rates', 'tracking'],
  scopesSupported: ['rates', 'tracking', 'labels'],
  advance: (ms) => {
    offset += ms;
  },
};

/** A form post as a browser sends it; `headers` adds what a browser says of the page (Origin, Sec-Fetch-Site). */
const form = (body: Record<string, string>, cookie: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
  body: new URLSearchParams(body),
});

/** Opens the admin login page and posts a password; the response and the cookies it leaves. */
async function adminLogin(
  password: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; cookie: string }> {
  const page = await fetch(`${bff.url}/admin/agents`);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const response = await fetch(`${bff.url}/admin/login`, form({ csrf, password }, csrfCookie, headers));
  // The session, and the device cookie a successful login also sets.
  const set = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  return { response, cookie: [csrfCookie, ...set].filter(Boolean).join('; ') };
}

const mcpStatus = async (token: string) =>
  (
    await fetch(`${bff.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
  ).status;

describe('/admin/agents', () => {
  it('asks for the password first, with no hint on a wrong one, and slows repeated failures down', async () => {
    const page = await fetch(`${bff.url}/admin/agents`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Senha do lojista');
    const wrong = await adminLogin('senha-errada-errada');
    expect(wrong.response.status).toBe(401);
    expect(await wrong.response.text()).toContain('Senha incorreta.');
    expect((await adminLogin(PASSWORD)).response.status).toBe(429);
    offset += 60_000;
    expect((await adminLogin(PASSWORD)).response.status).toBe(303);
  });

  it('refuses a login post without the CSRF cookie', async () => {
    const response = await fetch(
      `${bff.url}/admin/login`,
      form({ csrf: 'a'.repeat(43), password: PASSWORD }, ''),
    );
    expect(response.status).toBe(403);
  });

  it('lists connected clients with scopes and last use, and revoking stops their tokens at once', async () => {
    const tokens = await approvedTokens(server);
    const { cookie } = await adminLogin(PASSWORD);
    let list = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    expect(list).toContain('Cliente manual');
    expect(list).toContain('127.0.0.1:9');
    expect(list).toContain('Cotar fretes');
    expect(list).toContain('Rastrear encomendas');
    expect(list).not.toContain('Emitir etiquetas');
    expect(list).toContain('nunca');
    expect(await mcpStatus(tokens.access)).toBe(200);
    list = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    // Brasília's time, as on every desk page.
    expect(list).toMatch(/\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/);
    expect(list).not.toContain('UTC');

    const csrf = /name="csrf" value="([^"]+)"/.exec(list)?.[1] ?? '';
    const client = /name="client" value="([0-9a-f]{64})"/.exec(list)?.[1] ?? '';
    // Without the session's CSRF token (a cross-site form), nothing is revoked.
    const forged = await fetch(`${bff.url}/admin/agents/revoke`, form({ client, csrf: 'forged' }, cookie));
    expect(forged.status).toBe(403);
    expect(await mcpStatus(tokens.access)).toBe(200);
    const noSession = await fetch(`${bff.url}/admin/agents/revoke`, form({ client, csrf }, ''));
    expect(noSession.status).toBe(403);

    const revoked = await fetch(`${bff.url}/admin/agents/revoke`, form({ client, csrf }, cookie));
    expect(revoked.status).toBe(303);
    expect(await mcpStatus(tokens.access)).toBe(401);
    const refresh = await fetch(`${bff.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: tokens.clientId,
        refresh_token: tokens.refresh,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text()).not.toContain(
      client,
    );
  });

  it('refuses every post from another page even with a valid token: a foreign or null Origin, or a cross-site Sec-Fetch-Site without one', async () => {
    const tokens = await approvedTokens(server);
    const evil = { origin: 'https://evil.example' };
    const foreignLogin = await adminLogin(PASSWORD, evil);
    expect(foreignLogin.response.status).toBe(403);
    expect(await foreignLogin.response.text()).toContain('O pedido veio de outra página');
    expect(foreignLogin.cookie).not.toContain('admin_session');
    // A look-alike of our own origin, and a page of ours on another port, are other pages too.
    expect((await adminLogin(PASSWORD, { origin: `${bff.url}.evil.example` })).response.status).toBe(403);
    expect((await adminLogin(PASSWORD, { origin: 'http://127.0.0.1:1' })).response.status).toBe(403);

    const { cookie } = await adminLogin(PASSWORD, { origin: bff.url, 'sec-fetch-site': 'same-origin' });
    const list = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(list)?.[1] ?? '';
    const client = /name="client" value="([0-9a-f]{64})"/.exec(list)?.[1] ?? '';
    expect(client).not.toBe('');
    for (const headers of [
      evil,
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const forged = await fetch(`${bff.url}/admin/agents/revoke`, form({ client, csrf }, cookie, headers));
      expect(forged.status).toBe(403);
      expect(await mcpStatus(tokens.access)).toBe(200);
      expect((await fetch(`${bff.url}/admin/logout`, form({ csrf }, cookie, headers))).status).toBe(403);
    }
    // The session survived every refused logout; our own page (or a client that sends no Origin) goes through.
    const own = await fetch(
      `${bff.url}/admin/agents/revoke`,
      form({ client, csrf }, cookie, { origin: bff.url }),
    );
    expect(own.status).toBe(303);
    expect(await mcpStatus(tokens.access)).toBe(401);
    expect((await fetch(`${bff.url}/admin/logout`, form({ csrf }, cookie))).status).toBe(303);
  });

  it('ends the session on logout', async () => {
    const { cookie } = await adminLogin(PASSWORD);
    const list = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    expect(list).toContain('Agentes conectados');
    const csrf = /name="csrf" value="([^"]+)"/.exec(list)?.[1] ?? '';
    expect((await fetch(`${bff.url}/admin/logout`, form({ csrf }, cookie))).status).toBe(303);
    const after = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    expect(after).not.toContain('Agentes conectados');
    expect(after).toContain('Senha do lojista');
  });

  it('does not list a registered client the merchant never approved', async () => {
    const response = await fetch(`${bff.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Nunca aprovado', redirect_uris: ['http://127.0.0.1:9/callback'] }),
    });
    expect(response.status).toBe(201);
    const { cookie } = await adminLogin(PASSWORD);
    expect(await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text()).not.toContain(
      'Nunca aprovado',
    );
  });

  it('escapes a hostile client name on the list', async () => {
    const response = await fetch(`${bff.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: '<script>alert(1)</script>',
        redirect_uris: ['http://127.0.0.1:9/callback'],
      }),
    });
    expect(response.status).toBe(201);
    const { client_id: clientId } = (await response.json()) as { client_id: string };
    const { code, verifier } = await approvedCode(server, clientId);
    const exchange = await tokenRequest(bff.url, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
    });
    expect(exchange.status).toBe(200);
    const { cookie } = await adminLogin(PASSWORD);
    const list = await (await fetch(`${bff.url}/admin/agents`, { headers: { cookie } })).text();
    expect(list).not.toContain('<script>');
    expect(list).toContain('&#60;script&#62;');
  });

  it('shows at most 50 agents a page, the newest consent first, and every agent on some page once', async () => {
    const store = bff.backends.oauth;
    if (!store) throw new Error('the BFF has no OAuth store');
    const at = Date.now() + offset;
    for (let i = 0; i < 120; i++) {
      const idHash = `${'f'.repeat(60)}${i.toString(16).padStart(4, '0')}`;
      await store.putClient({
        idHash,
        metadata: { client_name: `Agente ${i}`, redirect_uris: ['http://127.0.0.1:9/callback'] },
        createdAt: at,
        lastUsedAt: null,
      });
      await store.markConsented(idHash, at + i);
      await store.putToken(`${idHash.slice(0, 60)}a${i}`, {
        kind: 'access',
        clientIdHash: idHash,
        grantId: `grant-${i}`,
        subject: 'merchant',
        scopes: ['rates'],
        resource: `${bff.url}/mcp`,
        expiresAt: at + 3_600_000,
      });
    }
    const total = (await store.listClients()).filter((client) => client.consentedAt != null).length;
    expect(total).toBeGreaterThanOrEqual(120);
    const { cookie } = await adminLogin(PASSWORD);
    const pageOf = async (query: string) => {
      const text = await (await fetch(`${bff.url}/admin/agents${query}`, { headers: { cookie } })).text();
      return { text, clients: [...text.matchAll(/name="client" value="([0-9a-f]{64})"/g)].map((m) => m[1]) };
    };
    const first = await pageOf('');
    expect(first.clients).toHaveLength(50);
    expect(first.text).toContain('Agente 119');
    expect(first.text).toContain(`Página 1 de ${Math.ceil(total / 50)} (${total} agentes)`);
    expect(first.text).toContain('href="/admin/agents?page=2"');
    const seen = new Set(first.clients);
    for (let page = 2; page <= Math.ceil(total / 50); page++) {
      const next = await pageOf(`?page=${page}`);
      expect(next.clients.length).toBeLessThanOrEqual(50);
      for (const client of next.clients) seen.add(client);
    }
    expect(seen.size).toBe(total);
    // A page past the last shows the last; anything else the first.
    expect((await pageOf('?page=9999')).clients).toEqual(
      (await pageOf(`?page=${Math.ceil(total / 50)}`)).clients,
    );
    expect((await pageOf('?page=abc')).clients).toEqual(first.clients);
  });
});
