import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectEach401, McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/labels/diagnosis.ts';
import { GenerateLabelOutputSchema } from '../../shared/labels/label.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { connectHost } from './apps/testing.ts';
import { JsonExchange } from './json-exchange.ts';

const ALL = 'agent-all-scopes-0001';
const RATES = 'agent-rates-only-0002';
let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();
/** Every 401 body and every log line of this suite, for the leak test at the end. */
const seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 20, labelPdfWaitMs: 1000 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
  bff = await startBff(sandbox.url, {}, { labels: { pdfDelaysMs: [50, 100, 200, 400] } });
});
afterEach(async () => {
  await clients.closeAll();
  await bff.stop();
  seen.push(...bff.logs);
});

const connect = (token: string, target = bff) => clients.connect(`${target.url}/mcp`, token);
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  clients.call(client, name, args, 30_000);
/** A generate_label reply, parsed with the shared schema. */
const labelOf = (result: { structuredContent?: unknown }) =>
  GenerateLabelOutputSchema.parse(result.structuredContent);

type Prepostings = { prepostings: { prepostagemId: string; trackingCode: string }[] };
const prepostings = async () =>
  ((await (await sandbox.control('prepostings', undefined, 'GET')).json()) as Prepostings).prepostings;
const stats = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo'] ?? {};
const label = (weightGrams = 800) => ({ ...SAMPLE_LABEL, weightGrams });

describe('agent authentication and scopes', () => {
  it('offers the nine tools to a token with every scope, with the spec annotations', async () => {
    const { tools } = await (await connect(ALL)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'diagnose_label_issue',
      'generate_label',
      'get_label_pdf',
      'get_shipping_rates',
      'list_labels',
      'list_orders_to_ship',
      'plan_shipment',
      'preview_label',
      'track_shipment',
    ]);
    const generate = tools.find((t) => t.name === 'generate_label');
    expect(generate?.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      readOnlyHint: false,
    });
    expect(generate?.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(tools.find((t) => t.name === 'track_shipment')?.annotations?.readOnlyHint).toBe(true);
  });

  it('offers one tool to a rates-only token and one to a tracking-only token', async () => {
    expect((await (await connect('agent-rates-only-0002')).listTools()).tools.map((t) => t.name)).toEqual([
      'get_shipping_rates',
    ]);
    expect((await (await connect('agent-tracking-only-3')).listTools()).tools.map((t) => t.name)).toEqual([
      'track_shipment',
    ]);
  });

  it('refuses a missing token, a wrong one and a platform key with 401 and WWW-Authenticate', async () => {
    const bodies = await expectEach401(`${bff.url}/mcp`, [
      undefined,
      'Bearer agent-all-scopes-0002',
      'Bearer mk_test_demo',
      'Bearer pk_test_demo',
    ]);
    seen.push(...bodies.map((body) => JSON.stringify(body)));
  });

  it('answers 405 method_not_allowed to GET /mcp (stateless server)', async () => {
    const res = await fetch(`${bff.url}/mcp`, { headers: { authorization: `Bearer ${ALL}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('offers no label tools when the platform withholds them, and says why in its instructions', async () => {
    const other = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_sem_etiquetas' });
    try {
      const client = await connect(ALL, other);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'get_shipping_rates',
        'track_shipment',
      ]);
      expect(client.getInstructions()).toContain('Label tools are not offered');
    } finally {
      await other.stop();
    }
  });
});

describe('quotes and tracking through the REST client', () => {
  it('quotes with structured rates and readable text', async () => {
    const result = await call(await connect(ALL), 'get_shipping_rates', {
      destinationCep: '20040-020',
      items: [{ name: 'x', quantity: 1, unitPriceBRL: 300 }],
    });
    expect(result.structuredContent).toMatchObject({
      rates: [{ code: 'PAC', free: true }, { code: 'SEDEX' }],
    });
    expect(JSON.stringify(result.content)).toContain('free');
    expect((await stats())['POST /v1/rates']).toBe(1);
  });

  it('passes the platform reason and actionUrl to the merchant agent (subscription_required)', async () => {
    const other = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_sem_plano' });
    try {
      const result = await call(await connect(ALL, other), 'get_shipping_rates', {
        destinationCep: '20040020',
        items: [{ name: 'x', quantity: 1, unitPriceBRL: 1 }],
      });
      expect(result.structuredContent).toMatchObject({
        rates: [],
        reason: 'subscription_required',
        actionUrl: expect.stringMatching(/^https:/),
      });
    } finally {
      await other.stop();
    }
  });

  it('tracks through the cache: two calls, one upstream call', async () => {
    const client = await connect(ALL);
    const first = await call(client, 'track_shipment', { codes: ['DG049186226BR', 'QB123456785BR'] });
    await call(client, 'track_shipment', { codes: ['DG049186226BR'] });
    expect(first.structuredContent).toMatchObject({
      results: [{ delivered: true }, { found: true, delivered: false, events: [] }],
    });
    expect((await stats())['POST /v1/tracking']).toBe(1);
  });
});

describe('generate_label: never issued twice', () => {
  it('creates a pre-posting with its PDF, and get_label_pdf returns it, the PDF once in each answer', async () => {
    const client = await connect(ALL);
    const result = await call(client, 'generate_label', label());
    const record = labelOf(result);
    expect(
      Buffer.from(record.labelPdfBase64 ?? '', 'base64')
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    const pdf = await call(client, 'get_label_pdf', { prepostagemId: record.prepostagemId });
    expect(pdf.structuredContent).toMatchObject({ labelPdfBase64: record.labelPdfBase64 });
    // The PDF travels once: in the structured result, neither in the text nor as another resource.
    for (const answer of [result, pdf]) {
      const all = JSON.stringify(answer);
      expect(all.split(record.labelPdfBase64 ?? '').length - 1).toBe(1);
      expect(answer.content).toHaveLength(1);
      expect((answer.content[0] as { text: string }).text.length).toBeLessThanOrEqual(1000);
    }
    expect(await prepostings()).toHaveLength(1);
    expect(await bff.ledger.list()).toMatchObject([
      { state: 'created', prepostagemId: record.prepostagemId },
    ]);
  });

  it('returns the first label for an identical request without a key', async () => {
    const client = await connect(ALL);
    const first = labelOf(await call(client, 'generate_label', label()));
    expect(first.prepostagemId).toMatch(/^PP/);
    const second = await call(client, 'generate_label', label());
    expect(second.structuredContent).toMatchObject({ prepostagemId: first.prepostagemId });
    expect(JSON.stringify(second.content)).toContain('Already issued');
    expect(await prepostings()).toHaveLength(1);
  });

  it('honours idempotency keys: same key same label; same key other payload refused; new key a new label', async () => {
    const client = await connect(ALL);
    const a = labelOf(await call(client, 'generate_label', { ...label(), idempotencyKey: 'order-1' }));
    const again = await call(client, 'generate_label', { ...label(), idempotencyKey: 'order-1' });
    expect(again.structuredContent).toMatchObject({ prepostagemId: a.prepostagemId });
    const conflict = await call(client, 'generate_label', { ...label(900), idempotencyKey: 'order-1' });
    expect(conflict.isError).toBe(true);
    expect(JSON.stringify(conflict.content)).toContain('different label request');
    const b = labelOf(await call(client, 'generate_label', { ...label(), idempotencyKey: 'order-2' }));
    expect(b.prepostagemId).not.toBe(a.prepostagemId);
    expect(await prepostings()).toHaveLength(2);
  });

  it('makes one upstream call for concurrent calls with one key', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'latency', latencyMs: 300 });
    const client = await connect(ALL);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(client, 'generate_label', { ...label(), idempotencyKey: 'same-key' }),
      ),
    );
    const ids = new Set(results.map((r) => labelOf(r).prepostagemId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^PP/);
    expect((await stats())['mcp:generate_label']).toBe(1);
    expect(await prepostings()).toHaveLength(1);
  });

  it('on label_pdf_timeout, fetches the PDF with get_label_pdf and never calls generate_label again', async () => {
    await sandbox.control('labels', { pdfDelayMs: 400, pdfWaitMs: 50 });
    const result = await call(await connect(ALL), 'generate_label', label());
    const record = labelOf(result);
    expect(record.reason).toBeUndefined();
    expect(
      Buffer.from(record.labelPdfBase64 ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const counts = await stats();
    expect(counts['mcp:generate_label']).toBe(1);
    expect(counts['mcp:get_label_pdf']).toBeGreaterThanOrEqual(1);
    expect(await prepostings()).toHaveLength(1);
  });

  it('tells the agent which prepostagemId to use when the PDF is still not ready', async () => {
    await sandbox.control('labels', { pdfDelayMs: 60_000, pdfWaitMs: 10 });
    const result = await call(await connect(ALL), 'generate_label', label());
    const record = labelOf(result);
    expect(record.reason).toBe('label_pdf_timeout');
    expect(JSON.stringify(result.content)).toContain(
      `get_label_pdf with prepostagemId ${record.prepostagemId}`,
    );
    expect((await stats())['mcp:generate_label']).toBe(1);
  });

  it('settles a dropped answer from the platform history right after the loss, instead of resending', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit' });
    const client = await connect(ALL);
    const first = await call(client, 'generate_label', label());
    const [created] = await prepostings();
    // The answer was lost; the BFF read the platform's history at once and found this exact request there.
    expect(first.structuredContent).toMatchObject({ prepostagemId: created?.prepostagemId });
    const second = await call(client, 'generate_label', label());
    expect(second.structuredContent).toMatchObject({ prepostagemId: created?.prepostagemId });
    expect(JSON.stringify(second.content)).toContain('Already issued');
    expect(await prepostings()).toHaveLength(1);
    expect((await stats())['mcp:generate_label']).toBe(1);
    expect(await bff.ledger.list()).toMatchObject([{ state: 'created', settledBy: 'diagnosis' }]);
  });

  it('keeps refusing to resend while the platform history shows nothing (the reset fault created nothing)', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset' });
    const client = await connect(ALL);
    expect((await call(client, 'generate_label', label())).structuredContent).toMatchObject({
      reason: 'outcome_unknown',
    });
    expect((await call(client, 'generate_label', label())).structuredContent).toMatchObject({
      reason: 'outcome_unknown',
    });
    expect(
      (await call(client, 'generate_label', { ...label(), idempotencyKey: 'fresh-key' })).structuredContent,
    ).toMatchObject({ reason: 'outcome_unknown' });
    expect(await prepostings()).toHaveLength(0);
    expect((await stats())['mcp:generate_label']).toBe(1);
  });

  it('refuses a presentation name itself, sending nothing, and passes the platform refusals through', async () => {
    const before = (await stats())['mcp:generate_label'] ?? 0;
    const rejected = await call(await connect(ALL), 'generate_label', { ...label(), serviceCode: 'SEDEX' });
    expect(rejected.structuredContent).toMatchObject({
      reason: 'unknown_service',
      status: expect.stringContaining('presentation name'),
    });
    expect((await stats())['mcp:generate_label'] ?? 0).toBe(before);
    const other = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_sem_contrato' });
    try {
      const result = await call(await connect(ALL, other), 'generate_label', label());
      expect(result.structuredContent).toMatchObject({
        reason: 'own_contract_required',
        actionUrl: expect.any(String),
      });
    } finally {
      await other.stop();
    }
  });

  it('diagnoses through the platform', async () => {
    const client = await connect(ALL);
    await call(client, 'generate_label', label());
    const result = await call(client, 'diagnose_label_issue', {});
    expect(DiagnoseLabelIssueOutputSchema.parse(result.structuredContent).attempts[0]).toMatchObject({
      outcome: 'created',
    });
  });

  it('re-establishes the platform connection after a failure', async () => {
    const client = await connect(ALL);
    await sandbox.control('faults', { target: 'mcp:get_label_pdf', mode: 'reset' });
    const result = await call(client, 'get_label_pdf', { prepostagemId: 'PP0000000000' });
    expect(result.structuredContent).toMatchObject({ reason: 'label_not_printable' });
  });
});

describe('one server per request', () => {
  it('gives a client that declares MCP Apps a session id, and serves its next request, carrying it, as an Apps session', async () => {
    const { client, transport } = await connectHost(`${bff.url}/mcp`, RATES);
    try {
      // SEP-1865: the negotiation happens once, in initialize; the session id is how a later request says so.
      expect(transport.sessionId).toMatch(/^ui1\./);
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((resource) => resource.uri.startsWith('ui://'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('gives a client without the extension no session id, and no Apps on its next request', async () => {
    const { client, transport } = await connectHost(`${bff.url}/mcp`, RATES, { apps: false });
    try {
      expect(transport.sessionId).toBeUndefined();
      await expect(client.listResources()).rejects.toThrow(/Method not found/);
    } finally {
      await client.close();
    }
  });

  it('closes the server it built for a request once the response is done: none of five is left connected', async () => {
    // The servers the route builds are the ones connected to a JsonExchange (the sandbox's own are not).
    const connect = vi.spyOn(McpServer.prototype, 'connect');
    try {
      for (let id = 1; id <= 5; id++) {
        const res = await fetch(`${bff.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${RATES}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
        });
        expect(await res.json()).toEqual({ jsonrpc: '2.0', id, result: {} });
      }
      const built = connect.mock.contexts.filter(
        (_, call) => connect.mock.calls[call]?.[0] instanceof JsonExchange,
      ) as McpServer[];
      expect(built).toHaveLength(5);
      // Each server is closed on its response's 'close', which may come just after the client has read the answer:
      // wait for it (a second at most). One left connected keeps its transport and handlers, and fails here.
      await vi.waitFor(
        () =>
          expect(built.map((server) => server.isConnected())).toEqual([false, false, false, false, false]),
        { timeout: 1_000 },
      );
    } finally {
      connect.mockRestore();
    }
  });
});

describe('secrets', () => {
  // Runs last: the suite above filled `seen` (401 bodies, logs) and `clients.seen` (every tool text).
  it('never shows the secret key in a tool text, a 401 body or a log line of this suite', () => {
    expect(clients.seen.length, 'tool texts were collected, so this check can fail').toBeGreaterThan(10);
    expect(seen.length, 'the four 401 bodies and the log lines were collected').toBeGreaterThan(4);
    expect([...clients.seen, ...seen].join('\n')).not.toMatch(/mk_[A-Za-z0-9_]/);
  });
});
