import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import {
  approvedTokens,
  type OAuthServerUnderTest,
  oauthServerSuite,
} from '../../shared/oauth/testing/suite.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
let offset = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.now() + offset });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
});

const server = (email = 'loja-demo@sandbox.example'): OAuthServerUnderTest => ({
  origin: () => sandbox.url,
  credentials: { email, password: 'sandbox' },
  wrongCredentials: { email, password: 'Sandbox' },
  consentScopes: [],
  scopesSupported: ['mcp'],
  advance: (ms) => {
    offset += ms;
  },
});

const listTools = async (token: string) => {
  const response = await sandbox.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, token, {
    accept: 'application/json, text/event-stream',
  });
  return { status: response.status, body: await response.json() };
};

describe("the sandbox as the platform's OAuth authorization server (spec 5.2 item 1)", () => {
  oauthServerSuite(server());

  it("lets an OAuth token act on /mcp for its store with merchant permission (the catalog of that store's mk_)", async () => {
    const demo = await approvedTokens(server());
    const names = (await listTools(demo.access)).body.result.tools
      .map((t: { name: string }) => t.name)
      .sort();
    expect(names).toEqual([
      'diagnose_label_issue',
      'generate_label',
      'get_label_pdf',
      'get_shipping_rates',
      'track_shipment',
    ]);
    const noLabels = await approvedTokens(server('sem-etiquetas@sandbox.example'));
    const fewer = (await listTools(noLabels.access)).body.result.tools
      .map((t: { name: string }) => t.name)
      .sort();
    expect(fewer).toEqual(['get_shipping_rates', 'track_shipment']);
  });

  it('answers a token of the deleted store like its key: 404 merchant_not_found', async () => {
    const removed = await approvedTokens(server('removida@sandbox.example'));
    const { status, body } = await listTools(removed.access);
    expect(status).toBe(404);
    expect(ErrorBodySchema.parse(body).error.code).toBe('merchant_not_found');
  });

  it('refuses an OAuth token on REST with 401 invalid_api_key (REST takes keys only)', async () => {
    const { access } = await approvedTokens(server());
    for (const path of ['/v1/rates', '/v1/tracking']) {
      const response = await sandbox.post(
        path,
        { destinationCep: '20040020', items: [], codes: ['DG049186226BR'] },
        access,
      );
      expect(response.status).toBe(401);
      expect(ErrorBodySchema.parse(await response.json()).error.code).toBe('invalid_api_key');
    }
  });

  it('does not confuse a key with a token: mk_ keeps working beside OAuth', async () => {
    await approvedTokens(server());
    expect((await listTools('mk_test_demo')).status).toBe(200);
  });

  it('forgets clients and tokens on /_sandbox/reset', async () => {
    const { access, clientId } = await approvedTokens(server());
    await sandbox.control('reset');
    expect((await listTools(access)).status).toBe(401);
    const register = await fetch(`${sandbox.url}/authorize?client_id=${clientId}&response_type=code`);
    expect(register.status).toBe(400);
  });

  it("does not log in with another store's e-mail, a look-alike e-mail or an empty password", async () => {
    for (const credentials of [
      { email: 'loja-demo@sandbox.example.evil', password: 'sandbox' },
      { email: 'loja-demo@sandbox.example', password: '' },
      { email: '', password: 'sandbox' },
      { email: 'nobody@sandbox.example', password: 'sandbox' },
    ]) {
      offset += 3_600_000;
      const s = { ...server(), credentials };
      await expect(approvedTokens(s)).rejects.toThrow();
    }
  });
});
