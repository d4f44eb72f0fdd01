import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../../sandbox/testing.ts';
import { AgentLabelOutputSchema } from '../../../shared/labels/agent-label.ts';
import { MERCHANT } from '../../oauth/oauth.ts';
import { deskClient } from '../../orders/testing.ts';
import { type RunningBff, startBff } from '../../testing.ts';
import { META } from './apps.ts';
import { AppSeals } from './seals.ts';
import { APP_ONLY_TOOLS } from './testing.ts';

// Issue 48, finding 2 (reproduced red first): a static `issue: "app"` token declared the UI extension, took the grant
// from generate_label's `_meta` and called app_issue_label itself — no merchant clicked.
const PASSWORD = 'senha-do-lojista-static-apps';
const HEADLESS = {
  token: 'agent-headless-app-0001',
  scopes: ['rates', 'labels'],
  name: 'sem-tela',
  issue: 'app',
};
const LABEL = { ...SAMPLE_LABEL, serviceCode: undefined, serviceId: 'correios-pac' };

/** Every capability a client can declare (MCP 2025-11-25), the UI extension with its HTML profile among them. */
const EVERY_CAPABILITY = {
  roots: { listChanged: true },
  sampling: { context: {}, tools: {} },
  elicitation: { form: {}, url: {} },
  tasks: { list: {}, cancel: {}, requests: {} },
  experimental: { anything: {} },
  extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
};

let sandbox: RunningSandbox;
let bff: RunningBff;
const open: Client[] = [];
/** The seals every instance makes from the demo secret key: the grants a leak would carry, to search for. */
const seals = new AppSeals('mk_test_demo');

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_AGENT_TOKENS: JSON.stringify([HEADLESS]),
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298' }),
  });
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});
beforeEach(() => sandbox.control('reset'));
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

/** The SDK's real client with the headless agent's static token, declaring every capability (or none). */
async function headless(capabilities: Record<string, unknown> = EVERY_CAPABILITY): Promise<Client> {
  const client = new Client({ name: 'headless', version: '1.0.0' }, { capabilities: capabilities as never });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${HEADLESS.token}` } },
    }),
  );
  open.push(client);
  return client;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const prepostings = async () =>
  ((await (await sandbox.control('prepostings', undefined, 'GET')).json()) as { prepostings: unknown[] })
    .prepostings;

/** No grant of this approval for anyone, in any part of a result (content, structuredContent, _meta). */
function expectNoGrant(result: CallToolResult, approvalId: string): void {
  const text = JSON.stringify(result);
  for (const grant of [
    seals.grant('issue', approvalId, HEADLESS.name),
    seals.grant('decide', approvalId, MERCHANT),
  ])
    expect(text).not.toContain(grant.split('.').at(-1));
  expect(result._meta?.[META.grant]).toBeUndefined();
  expect(result._meta?.[META.grants]).toBeUndefined();
}

describe('a static token with issue: "app"', () => {
  it('never issues by itself, whatever it declares: approval_pending, no grant, no app-only tool; the desk decides', async () => {
    const client = await headless();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of APP_ONLY_TOOLS) expect(names).not.toContain(name);
    const pending = await call(client, 'generate_label', { ...LABEL, orderId: 'H-1' });
    const approvalId = String(pending.structuredContent?.approvalId);
    expect(pending.structuredContent).toMatchObject({ reason: 'approval_pending' });
    expectNoGrant(pending, approvalId);
    // The grant it would have had, forged from outside, and the tool called anyway: nothing is sent.
    const forged = seals.grant('issue', approvalId, HEADLESS.name);
    const click = await call(client, 'app_issue_label', { grant: forged });
    expect(click.isError).toBe(true);
    const preview = await call(client, 'preview_label', { ...LABEL, orderId: 'H-1' });
    expect(preview._meta?.[META.byClick]).toBeUndefined();
    expect(await prepostings()).toHaveLength(0);
    // The merchant approves on the desk; the agent's next call answers that label.
    const desk = await deskClient(bff.url, PASSWORD);
    const approved = await desk.post(`/admin/api/approvals/${approvalId}/approve`, {});
    expect(approved.status).toBe(201);
    const label = await call(client, 'generate_label', { ...LABEL, orderId: 'H-1' });
    expect(AgentLabelOutputSchema.parse(label.structuredContent).prepostagemId).toMatch(/^PP/);
    expect(await prepostings()).toHaveLength(1);
  });

  it('gets no grant for an approval it asked for before declaring the extension', async () => {
    const plain = await headless({});
    const first = await call(plain, 'generate_label', { ...LABEL, orderId: 'H-2' });
    const approvalId = String(first.structuredContent?.approvalId);
    expect(first.structuredContent).toMatchObject({ reason: 'approval_pending' });
    const declared = await headless();
    const again = await call(declared, 'generate_label', { ...LABEL, orderId: 'H-2' });
    expect(again.structuredContent).toMatchObject({ reason: 'approval_pending', approvalId });
    expectNoGrant(again, approvalId);
    expect(
      (await call(declared, 'app_issue_label', { grant: seals.grant('issue', approvalId, HEADLESS.name) }))
        .isError,
    ).toBe(true);
    expect(await prepostings()).toHaveLength(0);
  });
});
