import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { TrackShipmentOutputSchema } from '../../shared/tracking.ts';
import { type RunningBff, startBff } from '../testing.ts';

const TRACKING = 'agent-tracking-only-3';
const RATES = 'agent-rates-only-0002';
let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
  bff = await startBff(sandbox.url);
});
afterEach(async () => {
  await clients.closeAll();
  await bff.stop();
  logs.push(...bff.logs);
});

const connect = (token: string) => clients.connect(`${bff.url}/mcp`, token);
const track = (client: Client, codes: unknown) => clients.call(client, 'track_shipment', { codes }, 30_000);

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

async function upstreamCalls(): Promise<number> {
  const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  return Object.values(stats.stores).reduce((sum, routes) => sum + (routes['POST /v1/tracking'] ?? 0), 0);
}

describe('track_shipment through the BFF', () => {
  it('answers one result per requested code, in order, duplicates included, with one upstream call', async () => {
    const client = await connect(TRACKING);
    const codes = ['DG049186226BR', 'sw 371675211 br', 'DG049186226BR', 'dg049186226br'];
    const result = await track(client, codes);
    expect(result.isError).toBeFalsy();
    const { results } = TrackShipmentOutputSchema.parse(result.structuredContent);
    expect(results.map((r) => r.code)).toEqual([
      'DG049186226BR',
      'SW371675211BR',
      'DG049186226BR',
      'DG049186226BR',
    ]);
    expect(await upstreamCalls()).toBe(1);
  });

  it('puts a one-line summary and then the structured result as JSON in the text, within 1,000 characters', async () => {
    const result = await track(await connect(TRACKING), ['QB123456785BR']);
    const [summary, ...json] = textOf(result).split('\n');
    expect(summary).toBe('1 code: 0 delivered, 1 not delivered, 0 not found.');
    expect(JSON.parse(json.join('\n'))).toEqual(result.structuredContent);
    // A longer history does not fit: the summary stays, and says where the rest is.
    const long = await track(await connect(TRACKING), ['DG049186226BR', 'SW371675211BR']);
    expect(textOf(long).length).toBeLessThanOrEqual(1000);
    expect(textOf(long)).toMatch(/^2 codes: .*\nThe whole result is in structuredContent\.$/);
  });

  it('refuses a code that is not S10 as a tool error naming it, and sends nothing upstream', async () => {
    const client = await connect(TRACKING);
    const bad = await track(client, ['DG049186226BR', 'DG049186225BR']);
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('codes.1');
    expect(textOf(bad)).toContain('DG049186225BR');
    const many = await track(
      client,
      Array.from({ length: 51 }, () => 'DG049186226BR'),
    );
    expect(many.isError).toBe(true);
    expect(await upstreamCalls()).toBe(0);
  });

  it('isolates a poisoned code: a 40,000-character code fails alone, visitors in the same window are answered', async () => {
    await bff.stop();
    // A wide window, so the agent's call and the visitors' lookups would share one batch.
    // Ten visitors behind a proxy on this host, each with an address of its own.
    bff = await startBff(sandbox.url, { BFF_TRUST_PROXY: 'loopback' }, { coalesceWindowMs: 300 });
    const client = await connect(TRACKING);
    const poison = track(client, [`DG${'0'.repeat(40_000)}BR`]);
    const visitors = Array.from({ length: 10 }, (_, i) =>
      bff.track(['SW371675211BR'], { 'x-forwarded-for': `198.51.100.${i}` }),
    );
    const [agent, ...answers] = await Promise.all([poison, ...visitors]);
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(agent?.isError).toBe(true);
    expect(textOf(agent as CallToolResult).length).toBeLessThan(2000);
    expect(await upstreamCalls()).toBe(1);
    const errors = bff.logs.map((line) => JSON.parse(line) as { level: number }).filter((l) => l.level >= 50);
    expect(errors).toEqual([]);
  });

  it('answers a store without a plan with a structured reason and actionUrl, not "try again later"', async () => {
    await bff.stop();
    bff = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_sem_plano' });
    const result = await track(await connect(TRACKING), ['DG049186226BR']);
    expect(result.isError).toBeFalsy();
    const output = TrackShipmentOutputSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ results: [], reason: 'subscription_required' });
    expect(output.actionUrl).toMatch(/^https?:\/\//);
    expect(textOf(result)).not.toMatch(/try again/i);
  });

  it('says when to retry when the platform is down, and logs one line per failed upstream call', async () => {
    await sandbox.control('faults', { target: 'tracking', mode: 'error502', times: 100 });
    const client = await connect(TRACKING);
    const codes = Array.from(
      { length: 5 },
      (_, i) => ['DG049186226BR', 'SW371675211BR', 'QB123456785BR'][i % 3],
    );
    const result = await track(client, codes);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/try again in \d+ seconds/);
    expect(textOf(result)).toContain('"retryAfterSeconds"');
    const failed = bff.logs.filter((line) => line.includes('tracking: upstream lookup failed'));
    expect(failed).toHaveLength(1);
  });

  it('gives a rates-only token instructions about its own tools only', async () => {
    const client = await connect(RATES);
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('get_shipping_rates');
    expect(instructions).not.toContain('generate_label');
    expect(instructions).not.toContain('track_shipment');
  });
});

describe('secrets', () => {
  // Runs last: every test above added what it received and what the BFF logged.
  it('never shows the secret key in a tool text or a log line of this suite', () => {
    expect(
      [...clients.seen, ...logs].length,
      'replies and log lines were collected, so this check can fail',
    ).toBeGreaterThan(5);
    expect([...clients.seen, ...logs].join('\n')).not.toMatch(/mk_[A-Za-z0-9_]/);
  });
});
