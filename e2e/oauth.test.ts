import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { TEST_REDIRECT, TestOAuthClient } from '../shared/oauth/testing/client.ts';
import { axeOn } from './support/axe.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from './support/browser.ts';

const ADMIN_PASSWORD = 'senha-do-lojista-e2e';

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const clients: Client[] = [];
/** The servers' clock offset: a wrong login's slow-down is waited out by moving it, not by sleeping. */
let offset = 0;
const now = () => Date.now() + offset;

beforeAll(async () => {
  sandbox = await startSandbox({ now });
  bff = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: ADMIN_PASSWORD }, { now });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 800, height: 1000 } });
  page = await context.newPage();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await context.close();
});

async function expectAccessible(state: string): Promise<void> {
  const { violations } = await axeOn(page).analyze();
  expect(
    violations.map((v) => `${state}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await screenshot(page, `oauth-${state}`);
}

/** Connects an MCP client through the OAuth provider; rejects with UnauthorizedError when it must log in first. */
async function connect(mcpUrl: string, provider: TestOAuthClient): Promise<Client> {
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  clients.push(client);
  return client;
}

/**
 * What the browser is sent back to the client with (intercepted: nothing listens at the redirect URI), once the page
 * is there: known only when the request is intercepted, a next `page.goto` raced the navigation still under way.
 */
function captureCallback(): () => URL | undefined {
  void page.route(`${TEST_REDIRECT}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>ok</title>' }),
  );
  return () => (page.url().startsWith(TEST_REDIRECT) ? new URL(page.url()) : undefined);
}

interface Target {
  name: string;
  origin: () => string;
  /** Fills the login form. */
  login(page: Page): Promise<void>;
  /** On the consent page, before approving. */
  consent(page: Page): Promise<void>;
  storeName: string;
  /** The tools the token's client must see. */
  expectedTools(): Promise<string[]>;
}

const TARGETS: Target[] = [
  {
    name: 'sandbox (a fixture merchant)',
    origin: () => sandbox.url,
    login: async (p) => {
      await p.getByLabel('E-mail').fill('loja-demo@sandbox.example');
      await p.getByLabel('Senha').fill('sandbox');
    },
    consent: async () => {},
    storeName: 'Loja Demo',
    expectedTools: async () => [
      'diagnose_label_issue',
      'generate_label',
      'get_label_pdf',
      'get_shipping_rates',
      'track_shipment',
    ],
  },
  {
    name: 'BFF (the merchant picks rates and tracking)',
    origin: () => bff.url,
    login: async (p) => {
      await p.getByLabel('Senha do lojista').fill(ADMIN_PASSWORD);
    },
    consent: async (p) => {
      await p.getByLabel(/Emitir etiquetas/).uncheck();
      await expect.poll(() => p.getByLabel(/Cotar fretes/).isChecked()).toBe(true);
      await expect.poll(() => p.getByLabel(/Rastrear/).isChecked()).toBe(true);
    },
    storeName: '127.0.0.1',
    expectedTools: async () => ['get_shipping_rates', 'track_shipment'],
  },
];

describe.each(TARGETS)('OAuth for MCP against the $name', (target) => {
  it('connects with only the /mcp URL: discovery → registration → login and consent in Chromium → token → tools/list → refresh → revoke → 401', async () => {
    const mcpUrl = `${target.origin()}/mcp`;
    const provider = new TestOAuthClient('Agente de teste <e2e>');

    // 1. The client knows only the URL: a 401 sends it through discovery and registration to the login page.
    await expect(connect(mcpUrl, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.origin).toBe(target.origin());
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl);

    // 2. A real browser logs in and approves.
    const callback = captureCallback();
    await page.goto(String(authorizationUrl));
    await expectAccessible(`${target.name.split(' ')[0]}-login`);
    await target.login(page);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Autorizar acesso' }).count()).toBe(1);
    const consentText = await page.locator('main').innerText();
    expect(consentText).toContain('Agente de teste <e2e>');
    expect(consentText).toContain('127.0.0.1:9');
    expect(consentText).toContain(target.storeName);
    await expectAccessible(`${target.name.split(' ')[0]}-consent`);
    await target.consent(page);
    await page.getByRole('button', { name: 'Autorizar' }).click();
    await expect.poll(callback, { timeout: 10_000 }).toBeDefined();
    const code = callback()?.searchParams.get('code');
    expect(callback()?.searchParams.get('state')).toBe(authorizationUrl?.searchParams.get('state'));
    expect(code).toBeTruthy();

    // 3. Token, then tools within the granted scopes.
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await transport.finishAuth(String(code));
    const first = provider.tokens();
    expect(first?.expires_in).toBe(3600);
    const client = await connect(mcpUrl, provider);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(await target.expectedTools());

    // 4. Refresh: new tokens; the old access token keeps its hour, the old refresh token is spent.
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    const second = provider.tokens();
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    const refreshed = await connect(mcpUrl, provider);
    expect((await refreshed.listTools()).tools.length).toBe(tools.length);

    // 5. Revoke: the token stops at once, with a challenge that points at the metadata.
    const clientId = String(provider.clientInformation()?.client_id);
    const revoke = await fetch(`${target.origin()}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, token: String(second?.access_token) }),
    });
    expect(revoke.status).toBe(200);
    const after = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${second?.access_token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${target.origin()}/.well-known/oauth-protected-resource/mcp"`,
    );
  }, 90_000);

  it('denying sends the browser back with error=access_denied and the state, and no code', async () => {
    const mcpUrl = `${target.origin()}/mcp`;
    const provider = new TestOAuthClient();
    await expect(connect(mcpUrl, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = captureCallback();
    await page.goto(String(provider.authorizationUrl));
    await target.login(page);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('button', { name: 'Negar' }).click();
    await expect.poll(callback, { timeout: 10_000 }).toBeDefined();
    expect(callback()?.searchParams.get('error')).toBe('access_denied');
    expect(callback()?.searchParams.get('code')).toBeNull();
    expect(callback()?.searchParams.get('state')).toBe(provider.authorizationUrl?.searchParams.get('state'));
  }, 60_000);

  it('a wrong login shows one message that does not say which part was wrong, accessibly', async () => {
    const provider = new TestOAuthClient();
    await expect(connect(`${target.origin()}/mcp`, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    await page.goto(String(provider.authorizationUrl));
    if (target.origin() === sandbox.url) {
      await page.getByLabel('E-mail').fill('loja-demo@sandbox.example');
      await page.getByLabel('Senha').fill('errada');
    } else {
      await page.getByLabel('Senha do lojista').fill('errada-errada-errada');
    }
    allowConsoleErrors(
      page,
      /status of 401 .*\/oauth\/login\)$/,
      'the password is wrong on purpose: the login form answers 401 with its message, and the browser logs the status',
    );
    await page.getByRole('button', { name: 'Entrar' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.innerText()).toMatch(/^(E-mail ou senha incorretos\.|Senha incorreta\.)$/);
    await expectAccessible(`${target.name.split(' ')[0]}-wrong-login`);
    offset += 600_000;
  }, 60_000);
});

describe('the BFF admin page (/admin/agents)', () => {
  it('logs the merchant in, lists the connected agent accessibly, and revoking it stops its token at once', async () => {
    const mcpUrl = `${bff.url}/mcp`;
    const provider = new TestOAuthClient('Agente para revogar');
    await expect(connect(mcpUrl, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = captureCallback();
    await page.goto(String(provider.authorizationUrl));
    await page.getByLabel('Senha do lojista').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('button', { name: 'Autorizar' }).click();
    await expect.poll(callback, { timeout: 10_000 }).toBeDefined();
    await new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }).finishAuth(
      String(callback()?.searchParams.get('code')),
    );
    const client = await connect(mcpUrl, provider);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);

    await page.goto(`${bff.url}/admin/agents`);
    await expectAccessible('admin-login');
    await page.getByLabel('Senha do lojista').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    const row = page.getByRole('row', { name: /Agente para revogar/ });
    await expect.poll(() => row.count()).toBe(1);
    await expectAccessible('admin-agents');
    await row.getByRole('button', { name: /Revogar/ }).click();
    await expect.poll(() => page.getByRole('row', { name: /Agente para revogar/ }).count()).toBe(0);
    await expect(client.listTools()).rejects.toThrow();
  }, 60_000);

  it('shows an accessible error page for a redirect URI the client did not register', async () => {
    const provider = new TestOAuthClient();
    await expect(connect(`${bff.url}/mcp`, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = new URL(String(provider.authorizationUrl));
    url.searchParams.set('redirect_uri', 'https://evil.example/steal');
    allowConsoleErrors(
      page,
      /status of 400 .*\/authorize\?/,
      'the redirect URI is not the registered one on purpose: the page answers 400, which the browser logs',
    );
    const response = await page.goto(url.href);
    expect(response?.status()).toBe(400);
    expect(page.url()).toBe(url.href);
    await expectAccessible('error-unregistered-redirect');
  }, 60_000);
});
