import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../../sandbox/testing.ts';
import { AgentLabelOutputSchema, PreviewLabelOutputSchema } from '../../../shared/labels/agent-label.ts';
import type { AgentPolicy } from '../../policies/policies.ts';
import { type RunningBff, startBff } from '../../testing.ts';
import { META } from './apps.ts';
import { APPS } from './resources.ts';
import { APP_ONLY_TOOLS, appContent, connectHost, merchantToken, modelTools, uiOfTool } from './testing.ts';

const PASSWORD = 'senha-do-lojista-apps-test';
/** An agent whose labels only the merchant's click issues. */
const CLICK = {
  token: 'agent-click-only-apps-0001',
  scopes: ['rates', 'labels'],
  name: 'clique',
  issue: 'app',
};
/** Another such agent: its grants are not the first one's. */
const OTHER = { token: 'agent-click-only-apps-0002', scopes: ['labels'], name: 'outro', issue: 'app' };
/** An agent that issues on its own (today's default). */
const FREE = { token: 'agent-free-apps-test-0003', scopes: ['rates', 'labels'], name: 'livre' };
/** An `issue: "app"` agent already at its daily limit. */
const SPENT = {
  token: 'agent-spent-apps-test-004',
  scopes: ['labels'],
  name: 'gasto',
  issue: 'app',
  maxLabelsPerDay: 0,
};

const LABEL = { ...SAMPLE_LABEL, serviceCode: undefined, serviceId: 'correios-pac' };
const orderLabel = (orderId: string) => ({ ...LABEL, orderId });

let sandbox: RunningSandbox;
let bff: RunningBff;
const open: Client[] = [];

/** One built-looking document per app, so the resources can be read without a build. */
function appsDir(): string {
  const dir = `${mkdtempSync(join(tmpdir(), 'apps-'))}/`;
  for (const name of Object.keys(APPS)) {
    writeFileSync(`${dir}${name}.html`, `<!doctype html><html lang="pt-BR"><title>${name}</title></html>`);
  }
  return dir;
}

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(
    sandbox.url,
    {
      BFF_ADMIN_PASSWORD: PASSWORD,
      BFF_AGENT_TOKENS: JSON.stringify([CLICK, OTHER, FREE, SPENT]),
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { appsDir: appsDir() },
  );
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});
beforeEach(() => sandbox.control('reset'));
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function host(token: string, options: Parameters<typeof connectHost>[2] = {}): Promise<Client> {
  const { client } = await connectHost(`${bff.url}/mcp`, token, options);
  open.push(client);
  return client;
}
/**
 * An OAuth connection the merchant granted by logging in, whose policy on /admin/agents is `issue: "app"`: the only
 * kind of connection the app's click issues for (a static token's labels wait for the desk: static-tokens.test.ts).
 */
const clicker = (policy: AgentPolicy = {}) =>
  merchantToken(bff.url, PASSWORD, {
    store: bff.backends.oauth as NonNullable<typeof bff.backends.oauth>,
    set: { ...policy, issue: 'app' },
  });
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
type Prepostings = { prepostings: { prepostagemId: string; request: { orderId?: string } }[] };
const prepostings = async () =>
  ((await (await sandbox.control('prepostings', undefined, 'GET')).json()) as Prepostings).prepostings;
const grantOf = (result: CallToolResult) => String(result._meta?.[META.grant]);

describe('capability negotiation', () => {
  it('gives a client without the extension exactly the server it had: no session, no resources, no app tools, no _meta', async () => {
    const init = await fetch(`${bff.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${CLICK.token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const body = (await init.json()) as { result: { capabilities: Record<string, unknown> } };
    expect(Object.keys(body.result.capabilities).sort()).toEqual(['tools']);

    const client = await host(CLICK.token, { apps: false });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('app_issue_label');
    expect(tools.every((tool) => tool._meta === undefined)).toBe(true);
    await expect(client.listResources()).rejects.toThrow(/Method not found/);
    // The app-only tool does not exist for it: refused, nothing sent.
    const refused = await call(client, 'app_issue_label', { grant: 'x'.repeat(40) });
    expect(refused.isError).toBe(true);
    expect(await prepostings()).toHaveLength(0);
  });

  it('gives a client with the extension the ui:// resources, with their CSP, and links the tools', async () => {
    const client = await host(FREE.token);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      Object.values(APPS)
        .map((app) => app.uri)
        .sort(),
    );
    for (const resource of resources) expect(resource.mimeType).toBe(RESOURCE_MIME_TYPE);
    const read = await client.readResource({ uri: APPS.preview.uri });
    const content = appContent(read);
    expect(content.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(content.text).toMatch(/^<!doctype html>/);
    expect(content.ui.csp).toEqual({
      connectDomains: [],
      resourceDomains: [],
      frameDomains: [],
      baseUriDomains: [],
    });
    const { tools } = await client.listTools();
    const uri = (name: string) =>
      (tools.find((tool) => tool.name === name)?._meta?.ui as { resourceUri?: string } | undefined)
        ?.resourceUri;
    expect(uri('get_shipping_rates')).toBe(APPS.quote.uri);
    expect(uri('preview_label')).toBe(APPS.preview.uri);
    expect(uri('generate_label')).toBe(APPS.label.uri);
    expect(uri('get_label_pdf')).toBe(APPS.label.uri);
    // This agent issues on its own: no app-only issue tool, and no approvals app (a static token is not the merchant).
    expect(tools.map((tool) => tool.name)).not.toContain('app_issue_label');
    expect(tools.map((tool) => tool.name)).not.toContain('show_approvals');
  });

  it('lists the app-only tool to the host, marked so that the model never sees it', async () => {
    const client = await host(await clicker());
    const { tools } = await client.listTools();
    const issue = tools.find((tool) => tool.name === 'app_issue_label');
    expect(uiOfTool(issue ?? {})).toEqual({ resourceUri: APPS.preview.uri, visibility: ['app'] });
    for (const name of APP_ONLY_TOOLS) expect(modelTools(tools).map((tool) => tool.name)).not.toContain(name);
    expect(modelTools(tools).map((tool) => tool.name)).toContain('generate_label');
    // Its generate_label answers with the preview app.
    const generate = tools.find((tool) => tool.name === 'generate_label');
    expect(uiOfTool(generate ?? {}).resourceUri).toBe(APPS.preview.uri);
  });

  it("keeps a session sealed to its agent: another agent's session id, or a forged one, is a client without apps", async () => {
    const [mine, theirs] = [await clicker(), await clicker()];
    const { transport } = await connectHost(`${bff.url}/mcp`, mine);
    const session = String(transport.sessionId);
    expect(session).toMatch(/^ui1\./);
    await transport.close();
    const listed = async (token: string, sessionId: string) => {
      const res = await fetch(`${bff.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      return ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map(
        (t) => t.name,
      );
    };
    expect(await listed(mine, session)).toContain('app_issue_label');
    expect(await listed(theirs, session)).not.toContain('app_issue_label');
    expect(await listed(mine, `${session.slice(0, -2)}AA`)).not.toContain('app_issue_label');
  });
});

describe('protocol revisions', () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS)(
    'serves a client that asks for %s, with and without MCP Apps',
    async (version) => {
      for (const apps of [false, true]) {
        const { client, transport } = await connectHost(`${bff.url}/mcp`, FREE.token, {
          apps,
          protocolVersion: version,
        });
        open.push(client);
        expect(transport.protocolVersion).toBe(version);
        const { tools } = await client.listTools();
        expect(tools.some((tool) => tool.name === 'preview_label')).toBe(true);
        const preview = await call(client, 'preview_label', LABEL);
        expect(PreviewLabelOutputSchema.parse(preview.structuredContent).quotedPrice).toBeGreaterThan(0);
      }
    },
  );
});

describe('issue: "app" — only the click in the app issues', () => {
  it('sends nothing on generate_label, hands the app a grant and the preview (never the model), and issues once on the click', async () => {
    const client = await host(await clicker());
    const pending = await call(client, 'generate_label', orderLabel('A-1'));
    const structured = AgentLabelOutputSchema.parse(pending.structuredContent);
    expect(structured.reason).toBe('approval_pending');
    expect(await prepostings()).toHaveLength(0);
    const grant = grantOf(pending);
    const preview = PreviewLabelOutputSchema.parse(pending._meta?.[META.preview]);
    expect(preview.quotedPrice).toBeGreaterThan(0);
    // The model reads the text and the structured content: the grant is in neither.
    expect(JSON.stringify([pending.content, pending.structuredContent])).not.toContain(grant.split('.')[1]);

    // Five clicks at once (a double click, a replayed bridge message): one label.
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () => call(client, 'app_issue_label', { grant })),
    );
    const labels = clicks.map((click) => AgentLabelOutputSchema.parse(click.structuredContent));
    expect(new Set(labels.map((label) => label.prepostagemId)).size).toBe(1);
    expect(labels[0]?.prepostagemId).toMatch(/^PP/);
    expect(await prepostings()).toHaveLength(1);

    // A reload gets the same result again, its click answers the same label; the agent's own call answers it too.
    const again = await call(client, 'app_issue_label', { grant });
    expect(AgentLabelOutputSchema.parse(again.structuredContent).prepostagemId).toBe(
      labels[0]?.prepostagemId,
    );
    const agent = await call(client, 'generate_label', orderLabel('A-1'));
    expect(AgentLabelOutputSchema.parse(agent.structuredContent).prepostagemId).toBe(
      labels[0]?.prepostagemId,
    );
    expect(await prepostings()).toHaveLength(1);
  });

  it("refuses a tampered grant, a forged one and another agent's grant, sending nothing", async () => {
    const client = await host(await clicker());
    const grant = grantOf(await call(client, 'generate_label', orderLabel('B-1')));
    const other = await host(await clicker());
    // One character of the signature changed (it was tested on the last character while the third from last was
    // replaced: when that one was already 'A', the "tampered" grant was the grant itself, 1 run in 64).
    const tampered = `${grant.slice(0, -3)}${grant.at(-3) === 'A' ? 'B' : 'A'}${grant.slice(-2)}`;
    expect(tampered).not.toBe(grant);
    for (const [who, bad] of [
      [client, tampered],
      [client, `${grant.split('.')[0]}.${'A'.repeat(43)}`],
      [other, grant],
    ] as const) {
      const result = await call(who, 'app_issue_label', { grant: bad });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ reason: 'grant_invalid' });
    }
    expect(await prepostings()).toHaveLength(0);
  });

  it("keeps the agent's daily limits on the click: over them, the click sends nothing", async () => {
    const client = await host(await clicker({ maxLabelsPerDay: 0 }));
    const grant = grantOf(await call(client, 'generate_label', orderLabel('C-1')));
    const click = await call(client, 'app_issue_label', { grant });
    expect(click.isError).toBe(true);
    expect(click.structuredContent).toMatchObject({ reason: 'agent_limit_reached' });
    expect(await prepostings()).toHaveLength(0);
    // The refused click decided nothing: the model's own call finds the label still waiting (it never issues it past
    // the limit), and a second click is refused the same way; only the merchant's confirmation on the desk would.
    const agent = await call(client, 'generate_label', orderLabel('C-1'));
    expect(agent.structuredContent).toMatchObject({ reason: 'approval_pending' });
    expect(await call(client, 'app_issue_label', { grant })).toMatchObject({
      structuredContent: { reason: 'agent_limit_reached' },
    });
    expect(await prepostings()).toHaveLength(0);
  });

  it('without MCP Apps, waits on the desk as an approval: no grant, no app tool', async () => {
    const client = await host(CLICK.token, { apps: false });
    const pending = await call(client, 'generate_label', orderLabel('D-1'));
    expect(pending.structuredContent).toMatchObject({ reason: 'approval_pending' });
    expect(pending._meta).toBeUndefined();
    expect(await prepostings()).toHaveLength(0);
  });
});

describe('the approvals app', () => {
  const ownAssistant = (policy: AgentPolicy = {}) =>
    merchantToken(bff.url, PASSWORD, {
      store: bff.backends.oauth as NonNullable<typeof bff.backends.oauth>,
      set: { ...policy, decidesApprovals: true },
    });

  it('is offered to no connection the merchant has not marked as their own assistant on /admin/agents', async () => {
    const plain = await host(await merchantToken(bff.url, PASSWORD));
    const names = (await plain.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('show_approvals');
    expect(names).not.toContain('app_decide_approval');
    const refused = await call(plain, 'app_decide_approval', { grant: 'x.y', decision: 'approve' });
    expect(refused.isError).toBe(true);
  });

  it("is the merchant's own connection's: an OAuth grant shows the pending approvals and decides them once", async () => {
    const agent = await host(CLICK.token, { apps: false });
    await call(agent, 'generate_label', orderLabel('E-1'));
    await call(agent, 'generate_label', orderLabel('E-2'));
    const access = await ownAssistant();
    const merchant = await host(access);
    const shown = await call(merchant, 'show_approvals', {});
    const listed = shown.structuredContent as {
      approvals: { approvalId: string; request: { orderId: string } }[];
    };
    const approvals = listed.approvals.filter((approval) => approval.request.orderId.startsWith('E-'));
    expect(approvals.map((approval) => approval.request.orderId).sort()).toEqual(['E-1', 'E-2']);
    const grants = shown._meta?.[META.grants] as Record<string, string>;
    const [first, second] = approvals.map((approval) => String(grants[approval.approvalId]));
    const approved = await Promise.all(
      [1, 2].map(() => call(merchant, 'app_decide_approval', { grant: first, decision: 'approve' })),
    );
    expect(
      new Set(approved.map((result) => AgentLabelOutputSchema.parse(result.structuredContent).prepostagemId))
        .size,
    ).toBe(1);
    expect(await call(merchant, 'app_decide_approval', { grant: second, decision: 'reject' })).toMatchObject({
      structuredContent: { reason: 'approval_rejected' },
    });
    expect(await prepostings()).toHaveLength(1);
    // An issue grant is not a decide grant.
    const issueGrant = grantOf(await call(await host(await clicker()), 'generate_label', orderLabel('E-3')));
    const wrong = await call(merchant, 'app_decide_approval', { grant: issueGrant, decision: 'approve' });
    expect(wrong.isError).toBe(true);
    expect(await prepostings()).toHaveLength(1);
  });

  it('never lets a connection decide the approvals it asked for itself, whatever grant it brings', async () => {
    const before = (await prepostings()).length;
    const assistant = await host(await ownAssistant({ approval: 'always' }));
    // The assistant's own label waits for approval (its policy asks the merchant first)…
    const own = await call(assistant, 'generate_label', orderLabel('F-1'));
    expect(own.structuredContent).toMatchObject({ reason: 'approval_pending' });
    const ownId = String(own.structuredContent?.approvalId);
    // …is not among the approvals its app shows, and a grant for it (sealed with the merchant's key, as a grant
    // made for another connection's list would be) is refused at the click.
    const shown = await call(assistant, 'show_approvals', {});
    const listed = (shown.structuredContent as { approvals: { approvalId: string }[] }).approvals;
    expect(listed.map((approval) => approval.approvalId)).not.toContain(ownId);
    const otherView = await host(await ownAssistant());
    const grants = (await call(otherView, 'show_approvals', {}))._meta?.[META.grants] as Record<
      string,
      string
    >;
    const grant = grants[ownId];
    expect(grant).toBeDefined();
    const refused = await call(assistant, 'app_decide_approval', { grant, decision: 'approve' });
    expect(refused.structuredContent).toMatchObject({ reason: 'grant_invalid' });
    expect(await prepostings()).toHaveLength(before);
    // The other assistant may decide it: separation of duties, not a ban.
    const decided = await call(otherView, 'app_decide_approval', { grant, decision: 'reject' });
    expect(decided.structuredContent).toMatchObject({ reason: 'approval_rejected' });
  });
});
