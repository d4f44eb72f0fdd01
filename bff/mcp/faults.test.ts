import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

let sandbox: RunningSandbox;
let bff: RunningBff;
let client: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, labelPdfWaitMs: 1000, random: seeded(42) });
  bff = await startBff(sandbox.url, {}, { labels: { pdfDelaysMs: [20] } });
  client = new Client({ name: 'fault-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer agent-all-scopes-0001' } },
    }),
  );
});
afterAll(async () => {
  await client.close();
  await bff.stop();
  await sandbox.close();
});

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('label faults at scale', () => {
  it('makes ≥ 100 label attempts under dropped answers and latency with zero duplicate pre-postings', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'drop_after_commit',
      probability: 0.3,
      times: 10_000,
    });
    await sandbox.control('faults', {
      target: 'mcp:get_label_pdf',
      mode: 'latency',
      latencyMs: 20,
      probability: 0.5,
      times: 10_000,
    });
    const orders = 40;
    const callsPerOrder = 3;
    const reported = new Map<number, { created?: string; unknown: number; first?: string }>();
    // Each order is one intended label (distinct weight). The agent sends it 3 times whatever it hears back: the
    // retries of a careless agent after an unknown answer, or a duplicate click. 120 attempts in all.
    for (let order = 0; order < orders; order++) {
      const input = { ...SAMPLE_LABEL, weightGrams: 1000 + order };
      const seen: { created?: string; unknown: number; first?: string } = { unknown: 0 };
      for (let n = 0; n < callsPerOrder; n++) {
        const result = (await client.callTool({ name: 'generate_label', arguments: input }, undefined, {
          timeout: 30_000,
        })) as CallToolResult;
        const record = result.structuredContent as { prepostagemId?: string; reason?: string };
        seen.first ??=
          record.reason === 'outcome_unknown' ? 'unknown' : record.prepostagemId ? 'created' : 'other';
        if (record.reason === 'outcome_unknown') seen.unknown += 1;
        else if (record.prepostagemId) {
          // Once an order has a label, every later answer names the same one.
          if (seen.created) expect(record.prepostagemId).toBe(seen.created);
          seen.created = record.prepostagemId;
        }
      }
      reported.set(order, seen);
    }
    expect(orders * callsPerOrder).toBeGreaterThanOrEqual(100);

    const { prepostings } = (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: { prepostagemId: string }[];
    };
    const stats =
      (
        (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
          stores: Record<string, Record<string, number>>;
        }
      ).stores['loja-demo'] ?? {};
    // At most one upstream generate_label per order, and each one created exactly one pre-posting.
    expect(stats['mcp:generate_label']).toBeLessThanOrEqual(orders);
    expect(prepostings.length).toBe(stats['mcp:generate_label']);
    expect(new Set(prepostings.map((p) => p.prepostagemId)).size).toBe(prepostings.length);
    // Whatever the agent was told "created" exists at the platform.
    const created = [...reported.values()].map((r) => r.created).filter(Boolean);
    for (const id of created) expect(prepostings.some((p) => p.prepostagemId === id)).toBe(true);
    // Every dropped answer was reported as unknown, never as created or as an error.
    const body = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      faultsFired: Record<string, number>;
    };
    const drops = body.faultsFired['mcp:generate_label drop_after_commit'] ?? 0;
    expect(drops).toBeGreaterThan(0);
    expect([...reported.values()].filter((r) => r.first === 'unknown')).toHaveLength(drops);
    expect([...reported.values()].every((r) => r.first === 'unknown' || r.first === 'created')).toBe(true);
    // Each order has at most one pre-posting: its attempts in the ledger share one prepostagemId.
    const perOrder = new Map<string, Set<string>>();
    for (const attempt of await bff.ledger.list()) {
      if (!attempt.prepostagemId) continue;
      const set = perOrder.get(attempt.fingerprint) ?? new Set();
      set.add(attempt.prepostagemId);
      perOrder.set(attempt.fingerprint, set);
    }
    for (const ids of perOrder.values()) expect(ids.size).toBe(1);
  }, 120_000);
});
