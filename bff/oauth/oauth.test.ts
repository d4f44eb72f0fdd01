import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import {
  consentByForm,
  loginByForm,
  pkce,
  registerClient,
  TEST_REDIRECT,
  tokenRequest,
} from '../../shared/oauth/testing/client.ts';
import {
  approvedTokens,
  type OAuthServerUnderTest,
  oauthServerSuite,
} from '../../shared/oauth/testing/suite.ts';
import { type RunningBff, startBff, TEST_AGENTS } from '../testing.ts';

const PASSWORD = 'senha-do-lojista-de-teste';

let sandbox: RunningSandbox;
let bff: RunningBff;
let offset = 0;
const extra: RunningBff[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(
    sandbox.url,
    { BFF_ADMIN_PASSWORD: PASSWORD },
    {
      now: () => Date.now() + offset,
      oauth: { rateLimits: false },
    },
  );
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
afterEach(async () => {
  await Promise.all(extra.splice(0).map((b) => b.stop()));
});

const server = (target: () => RunningBff = () => bff): OAuthServerUnderTest => ({
  origin: () => target().url,
  credentials: { password: PASSWORD },
  wrongCredentials: { password: `${PASSWORD}x` },
  consentScopes: ['rates', 'tracking', 'labels'],
  scopesSupported: ['rates', 'tracking', 'labels'],
  advance: (ms) => {
    offset += ms;
  },
});

const toolNames = async (origin: string, token: string): Promise<string[] | number> => {
  const response = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  if (response.status !== 200) return response.status;
  const body = (await response.json()) as { result: { tools: { name: string }[] } };
  return body.result.tools.map((tool) => tool.name).sort();
};

describe('the BFF as OAuth authorization server for its /mcp', () => {
  oauthServerSuite(server());

  it('gives an OAuth token exactly the tools of a static token with the same scopes', async () => {
    const oauth = await approvedTokens({ ...server(), consentScopes: ['rates'] });
    const staticToken = TEST_AGENTS.find((agent) => agent.scopes.join() === 'rates')?.token ?? '';
    expect(await toolNames(bff.url, oauth.access)).toEqual(await toolNames(bff.url, staticToken));
    expect(await toolNames(bff.url, oauth.access)).toEqual(['get_shipping_rates']);
  });

  it('keeps BFF_AGENT_TOKENS working beside OAuth', async () => {
    expect(await toolNames(bff.url, TEST_AGENTS[0]?.token ?? '')).toContain('generate_label');
  });

  it('intersects the granted scopes with what the platform grants: labels granted, key without merchant permission', async () => {
    const readonly = await startBff(sandbox.url, {
      BFF_ADMIN_PASSWORD: PASSWORD,
      SHIPPING_SECRET_KEY: 'mk_test_demo_readonly',
    });
    extra.push(readonly);
    const tokens = await approvedTokens(server(() => readonly));
    expect(await toolNames(readonly.url, tokens.access)).toEqual(['get_shipping_rates', 'track_shipment']);
  });

  it('keeps clients and tokens across a restart, stored only as hashes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-oauth-'));
    const first = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD, BFF_DATA_DIR: dataDir });
    const tokens = await approvedTokens(server(() => first));
    await first.stop();
    const second = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD, BFF_DATA_DIR: dataDir });
    extra.push(second);
    // A new port, so a new resource: the old tokens were issued for the first origin and must not work here.
    expect(await toolNames(second.url, tokens.access)).toBe(401);
    const files = readdirSync(dataDir).filter((name) => name.startsWith('oauth.sqlite'));
    const stored = files.map((name) => readFileSync(join(dataDir, name)).toString('latin1')).join('');
    expect(stored.length).toBeGreaterThan(0);
    for (const secret of [tokens.access, tokens.refresh, tokens.clientId])
      expect(stored).not.toContain(secret);
  });

  it('keeps tokens working after a restart on the same public URL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-oauth-'));
    const first = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD, BFF_DATA_DIR: dataDir });
    const origin = first.url;
    const tokens = await approvedTokens(server(() => first));
    await first.stop();
    const second = await startBff(sandbox.url, {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_DATA_DIR: dataDir,
      BFF_PUBLIC_URL: origin,
    });
    extra.push(second);
    // The second BFF answers on another port but is configured as the same public origin (as behind a proxy).
    expect(await toolNames(second.url, tokens.access)).toContain('get_shipping_rates');
    const next = await tokenRequest(second.url, {
      grant_type: 'refresh_token',
      client_id: tokens.clientId,
      refresh_token: tokens.refresh,
    });
    expect(next.status).toBe(200);
  });

  it('lets another instance on the same storage take the consent step (the ticket lives in the store)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-oauth-'));
    const first = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD, BFF_DATA_DIR: dataDir });
    extra.push(first);
    const second = await startBff(sandbox.url, {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_DATA_DIR: dataDir,
      BFF_PUBLIC_URL: first.url,
    });
    extra.push(second);
    const clientId = await registerClient(first.url);
    const { challenge } = await pkce();
    const flow = await loginByForm(
      first.url,
      {
        client_id: clientId,
        redirect_uri: TEST_REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      { password: PASSWORD },
    );
    expect(flow.login.status).toBe(200);
    const consent = await consentByForm(second.url, flow, 'approve', ['rates']);
    expect(consent.status).toBe(303);
    expect(new URL(String(consent.headers.get('location'))).searchParams.get('code')).toBeTruthy();
  });

  it('limits registrations per address by default (the SDK limiter: 20 an hour, then 429)', async () => {
    const limited = await startBff(sandbox.url, { BFF_ADMIN_PASSWORD: PASSWORD });
    extra.push(limited);
    for (let i = 0; i < 20; i++) await registerClient(limited.url);
    const response = await fetch(`${limited.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'] }),
    });
    expect(response.status).toBe(429);
  });

  it('has no OAuth without BFF_ADMIN_PASSWORD: no metadata, no /admin, and the 401 has no resource_metadata', async () => {
    const off = await startBff(sandbox.url);
    extra.push(off);
    expect((await fetch(`${off.url}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    expect((await fetch(`${off.url}/admin/agents`)).status).toBe(404);
    expect(await toolNames(off.url, 'x'.repeat(30))).toBe(401);
  });
});
