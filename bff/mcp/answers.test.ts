import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/labels/diagnosis.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * What an agent is told in the cases beside the happy path: its instructions, an outage of each tool, a key the
 * platform does not know, an idempotency key out of bounds, a ledger that cannot be written. One sandbox and one BFF
 * for the file (reset between tests), and an upstream client that does not wait between retries.
 */
const ALL = 'agent-all-scopes-0001';
const RATES = 'agent-rates-only-0002';
const LABELS_ONLY = 'agent-labels-only-04';
const AGENTS = JSON.stringify([
  { token: ALL, scopes: ['rates', 'tracking', 'labels'] },
  { token: RATES, scopes: ['rates'] },
  { token: LABELS_ONLY, scopes: ['labels'] },
]);
const FAST = { upstream: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } };

let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();
const others: RunningBff[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, { BFF_AGENT_TOKENS: AGENTS }, FAST);
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});
afterEach(async () => {
  await clients.closeAll();
  await Promise.all(others.splice(0).map((other) => other.stop()));
  await sandbox.control('reset');
});

async function bffWith(env: Record<string, string>): Promise<RunningBff> {
  const other = await startBff(sandbox.url, { BFF_AGENT_TOKENS: AGENTS, ...env }, FAST);
  others.push(other);
  return other;
}
const connect = (token: string, target = bff) => clients.connect(`${target.url}/mcp`, token);
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  clients.call(client, name, args, 30_000);
const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const fault = (target: string, mode: string, times = 1) => sandbox.control('faults', { target, mode, times });
const QUOTE = { destinationCep: '20040-020', items: [{ name: 'x', quantity: 1, unitPriceBRL: 50 }] };

describe('the instructions an agent gets', () => {
  it('names this server and tells a token with every scope how to read results and issue labels safely', async () => {
    const client = await connect(ALL);
    expect(client.getServerVersion()).toEqual({ name: 'frete-kit-bff', version: '1.0.0' });
    const lines = (client.getInstructions() ?? '').split('\n');
    expect(lines).toEqual([
      'Shipping tools of this store: get_shipping_rates, track_shipment, generate_label, preview_label, plan_shipment, list_orders_to_ship, list_labels, get_label_pdf, diagnose_label_issue. Every result ends with its structured JSON.',
      'A result with reason and actionUrl is a configuration problem for the merchant (show them actionUrl); calling again will not help.',
      'An error that says "try again in N seconds" is transient: wait that long before calling again.',
      'An empty rates list is "no quote available", never free shipping.',
      'generate_label creates a REAL, billable pre-posting. Pass the orderId (and volume, 1, 2, … for each box of the order), or an idempotencyKey (one per intended label), and reuse them when you retry.',
      'If a result says the outcome is unknown, do not resend with another key: call generate_label again with the same input, and the server checks the platform history first.',
      'A result with reason not_sent never reached the platform: nothing was created; send the same request again once the platform answers.',
      'A result with reason approval_pending waits for the merchant: nothing was sent; call again later with the same input.',
      "From a quote to a label: give generate_label the option's serviceId (or its serviceCode), never its display code.",
      "plan_shipment packs an order into the merchant's boxes: issue one label per volume it answers (volume 1, 2, …).",
      'preview_label shows the price, the policy and what would be printed, and creates nothing: use it before generate_label.',
    ]);
  });

  it('tells a labels-only token on a store without label tools that it has none, and why', async () => {
    const other = await bffWith({ SHIPPING_SECRET_KEY: 'mk_test_sem_etiquetas' });
    const client = await connect(LABELS_ONLY, other);
    const lines = (client.getInstructions() ?? '').split('\n');
    expect(lines[0]).toBe('Shipping tools of this store: none. Every result ends with its structured JSON.');
    expect(lines.at(-1)).toBe(
      'Label tools are not offered: the platform does not offer label tools to this key: label integration is off for the store, or the key has no merchant permission.',
    );
    expect(lines.join('\n')).not.toContain('idempotencyKey');
  });

  it('never asks the platform about label tools for a token without the labels scope', async () => {
    const other = await bffWith({ SHIPPING_SECRET_KEY: 'mk_test_sem_etiquetas' });
    const client = await connect(RATES, other);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_shipping_rates']);
    expect(client.getInstructions()).not.toContain('Label tools are not offered');
  });
});

describe('quotes and lookups when the platform refuses or fails', () => {
  it('answers a key whose store was removed with its reason and no actionUrl', async () => {
    const other = await bffWith({ SHIPPING_SECRET_KEY: 'mk_test_removida' });
    const result = await call(await connect(RATES, other), 'get_shipping_rates', QUOTE);
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toEqual({ rates: [], reason: 'merchant_not_found' });
    expect(textOf(result)).toMatch(/^No quote: the platform refused the request/);
    const tracked = await call(await connect(ALL, other), 'track_shipment', { codes: ['DG049186226BR'] });
    expect(tracked.structuredContent).toEqual({ results: [], reason: 'merchant_not_found' });
    expect(textOf(tracked)).toMatch(/^No tracking: the platform refused the request/);
  });

  it('tells the agent to retry a quote later when the platform fails, without its words', async () => {
    await fault('rates', 'error502', 5);
    const result = await call(await connect(RATES), 'get_shipping_rates', QUOTE);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Quoting is temporarily unavailable \(the platform did not answer\); try again in 10 seconds\./,
    );
  });

  it('tells the agent to retry a lookup later when the platform fails', async () => {
    await fault('tracking', 'error502', 5);
    const result = await call(await connect(ALL), 'track_shipment', { codes: ['DG049186226BR'] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Tracking is temporarily unavailable \(the platform did not answer\)/);
  });

  it('refuses a malformed tracking code as a tool error with the wire error, nothing looked up', async () => {
    const result = await call(await connect(ALL), 'track_shipment', { codes: ['NOT-A-CODE'] });
    expect(JSON.stringify(await (await sandbox.control('stats', undefined, 'GET')).json())).not.toContain(
      'POST /v1/tracking',
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Nothing was looked up: /);
    expect(textOf(result)).toContain('"NOT-A-CODE" is not a Correios tracking code');
    expect(textOf(result)).toContain('"code": "invalid_body"');
  });
});

/** generate_label calls the platform received for the demo store. */
const stats = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['mcp:generate_label'] ?? 0;

describe('generate_label beside the happy path', () => {
  it('accepts an idempotency key of 1 to 200 characters and refuses an empty or longer one, sending nothing', async () => {
    const client = await connect(ALL);
    for (const idempotencyKey of ['', 'k'.repeat(201)]) {
      const result = await call(client, 'generate_label', { ...SAMPLE_LABEL, idempotencyKey });
      expect(result.isError).toBe(true);
    }
    expect(await stats()).toBe(0);
    const longest = await call(client, 'generate_label', {
      ...SAMPLE_LABEL,
      idempotencyKey: 'k'.repeat(200),
    });
    expect(longest.structuredContent).toMatchObject({ prepostagemId: expect.stringMatching(/^PP/) });
    expect(await stats()).toBe(1);
  });

  it('describes the idempotency key in the tool description, and says why a refused label was not created', async () => {
    const client = await connect(ALL);
    const generate = (await client.listTools()).tools.find((tool) => tool.name === 'generate_label');
    expect(generate?.description).toContain(
      'idempotencyKey and reuse them on retry: the same returns that label, never a second (without either, an identical request within 24 h does)',
    );
    // A presentation name is refused by the BFF, before anything reaches the platform.
    const before = await stats();
    const refusedByBff = await call(client, 'generate_label', {
      ...SAMPLE_LABEL,
      weightGrams: 703,
      serviceCode: 'SEDEX',
    });
    expect(refusedByBff.isError).toBe(true);
    expect(refusedByBff.structuredContent).toMatchObject({ reason: 'unknown_service', field: 'serviceCode' });
    expect(textOf(refusedByBff)).toMatch(
      /^Nothing was sent \(reason: unknown_service, field: serviceCode\)\. "SEDEX" is not a contract product code/,
    );
    expect(await stats()).toBe(before);
    // A refusal of the carrier quotes its words as such.
    const rejected = await call(client, 'generate_label', {
      ...SAMPLE_LABEL,
      weightGrams: 703,
      serviceCode: '03140',
      // A CEP without coverage: only the carrier knows (a UF that is not its CEP's the BFF refuses first).
      recipient: {
        ...SAMPLE_LABEL.recipient,
        endereco: { ...SAMPLE_LABEL.recipient.endereco, cep: '00100-000' },
      },
    });
    expect(rejected.structuredContent).toMatchObject({ reason: 'prepostagem_rejected' });
    expect(textOf(rejected)).toMatch(
      /^No pre-posting was created \(the carrier says, in Portuguese: ".*"\) \(reason: prepostagem_rejected\)/,
    );
  });

  it('says not_sent when the platform refused the call before the tool ran: nothing created', async () => {
    await fault('mcp:generate_label', 'error502', 10);
    const result = await call(await connect(ALL), 'generate_label', { ...SAMPLE_LABEL, weightGrams: 701 });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toEqual({
      reason: 'not_sent',
      status: expect.stringContaining('did not reach the platform'),
      attemptId: expect.any(String),
    });
    expect(textOf(result)).toMatch(/^Not sent \(reason: not_sent\)\. The request did not reach the platform/);
  });

  it('says how an unknown outcome is settled: when it was sent, the attempt, the desk', async () => {
    await fault('mcp:generate_label', 'reset');
    const before = Date.now();
    const result = await call(await connect(ALL), 'generate_label', { ...SAMPLE_LABEL, weightGrams: 702 });
    const structured = result.structuredContent as { reason: string; status: string; attemptId: string };
    expect(structured.reason).toBe('outcome_unknown');
    const attempt = (await bff.ledger.list()).find((entry) => entry.id === structured.attemptId);
    expect(attempt?.state).toBe('unknown');
    expect(structured.status).toContain(`settle attempt ${attempt?.id} in the label desk (/admin/labels)`);
    const since = /at (\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(structured.status)?.[1];
    expect(Date.parse(since ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(since ?? '')).toBeLessThanOrEqual(Date.now());
    expect(textOf(result)).toMatch(
      /^Outcome UNKNOWN \(reason: outcome_unknown\)\. The answer to this request/,
    );
  });

  it('tells the agent to resend with the same key in 30 s when the ledger cannot be written, and logs it', async () => {
    const other = await bffWith({});
    const client = await connect(ALL, other);
    await other.backends.sql.close();
    const result = await call(client, 'generate_label', { ...SAMPLE_LABEL, idempotencyKey: 'order-9' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The label ledger is unavailable right now\. Resend the same input/);
    expect(textOf(result)).toContain('"error": "ledger_unavailable"');
    expect(textOf(result)).toContain('"retryAfterSeconds": 30');
    expect(textOf(result)).toContain('"retryable": true');
    const logged = other.logs
      .map((line) => JSON.parse(line))
      .find((line) => /ledger could not be written/.test(line.msg));
    expect(logged?.level).toBe(50);
    expect(typeof logged?.error).toBe('string');
  });
});

describe('get_label_pdf and diagnose_label_issue when the platform fails', () => {
  it('answers a PDF request during an outage with a retry delay', async () => {
    await fault('mcp:get_label_pdf', 'error502', 2);
    const result = await call(await connect(ALL), 'get_label_pdf', { prepostagemId: 'PP0000000000' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The label service is temporarily unavailable .*try again in 10 seconds/);
  });

  it('answers a diagnosis during an outage with a retry delay', async () => {
    await fault('mcp:diagnose_label_issue', 'error502', 2);
    const result = await call(await connect(ALL), 'diagnose_label_issue', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The label service is temporarily unavailable .*try again in 10 seconds/);
  });

  it('says "no attempt with that support code" for an unknown support code, and lists the attempts otherwise', async () => {
    const client = await connect(ALL, await bffWith({}));
    const bySupport = await call(client, 'diagnose_label_issue', {
      supportCode: '00000000-0000-4000-8000-000000000000',
    });
    expect(DiagnoseLabelIssueOutputSchema.parse(bySupport.structuredContent).attempts).toEqual([]);
    expect(textOf(bySupport)).toMatch(/^No attempt with that support code/);
    const all = await call(client, 'diagnose_label_issue', {});
    expect(textOf(all)).toMatch(/^\d+ attempts?, most recent first/);
  });
});

describe('the /mcp door', () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${bff.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

  it('answers an unknown token with a Bearer challenge and closes the connection (no OAuth configured)', async () => {
    const res = await post({ authorization: 'Bearer nobody-knows-me' }, ping);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="frete-kit-bff", error="invalid_token"');
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({
      error: { code: 'invalid_api_key', message: 'Send Authorization: Bearer <agent token>.' },
    });
  });

  it('reads a body up to 1 MB from a known agent and refuses a larger one', async () => {
    const auth = { authorization: `Bearer ${ALL}` };
    const padded = (bytes: number) => {
      const base = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: '' } } };
      const pad = 'x'.repeat(bytes - JSON.stringify(base).length);
      return JSON.stringify({ ...base, params: { _meta: { pad } } });
    };
    expect((await post(auth, padded(1024 * 1024 - 10))).status).toBe(200);
    expect((await post(auth, padded(1024 * 1024 + 10))).status).toBe(413);
  });
});
