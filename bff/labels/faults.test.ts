import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { GenerateLabelInputSchema, GenerateLabelOutputSchema } from '../../shared/labels/label.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { fingerprint } from './fingerprint.ts';
import { connectAgent, judgeSoak, lookAlikeOrders, runSoak } from './testing/soak.ts';

const TOKEN = 'agent-all-scopes-0001';
let sandbox: RunningSandbox;
let bff: RunningBff;
let client: Client;

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, labelPdfWaitMs: 1000, random: seeded(42) });
  bff = await startBff(sandbox.url, {}, { labels: { pdfDelaysMs: [20], retryReconcileMs: [200, 1000] } });
  client = await connectAgent(bff.url, TOKEN);
});
afterAll(async () => {
  await client.close();
  await bff.stop();
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

const LabelAnswer = GenerateLabelOutputSchema;
const PrepostingsSchema = z.object({
  prepostings: z.array(
    z.object({
      prepostagemId: z.string(),
      createdAt: z.string(),
      request: z.record(z.string(), z.unknown()),
    }),
  ),
});
const StatsSchema = z.object({
  stores: z.record(z.string(), z.record(z.string(), z.number())),
  faultsFired: z.record(z.string(), z.number()),
});

async function prepostings() {
  return PrepostingsSchema.parse(await (await sandbox.control('prepostings', undefined, 'GET')).json())
    .prepostings;
}
async function stats() {
  return StatsSchema.parse(await (await sandbox.control('stats', undefined, 'GET')).json());
}
async function generate(agent: Client, args: Record<string, unknown>) {
  const result = await agent.callTool({ name: 'generate_label', arguments: args }, CallToolResultSchema, {
    timeout: 60_000,
  });
  return { result, record: LabelAnswer.parse(result.structuredContent ?? {}) };
}
const order = (weightGrams: number) => ({ ...SAMPLE_LABEL, weightGrams });
const fp = (input: unknown) => fingerprint(GenerateLabelInputSchema.parse(input));

describe('labels under faults', () => {
  it('soak: look-alike orders, dropped answers and latency, concurrent sends and resends → 0 duplicates, 0 misassigned, 0 lost', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'drop_after_commit',
      probability: 0.25,
      times: 100_000,
    });
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'latency',
      latencyMs: 150,
      probability: 0.3,
      times: 100_000,
    });
    // Look-alike orders, some of them two identical boxes of one order (orderId, volumes 1 and 2).
    const orders = lookAlikeOrders(SAMPLE_LABEL, 36, 'soak', { volumes: true });
    const reports = await runSoak({ client, orders, concurrency: 6, tries: 3 });
    const figures = await judgeSoak(sandbox.url, reports);

    // The instrument can fail: the faults fired (both, combined), and the orders really are look-alikes.
    const fired = (await stats()).faultsFired;
    expect(fired['mcp:generate_label drop_after_commit']).toBeGreaterThan(3);
    expect(fired['mcp:generate_label latency']).toBeGreaterThan(3);
    const boxes = orders.filter((order) => order.orderId).length;
    expect(boxes).toBeGreaterThanOrEqual(14);
    expect(new Set(reports.map((r) => r.fingerprint)).size).toBe(orders.length - boxes / 2);
    expect(new Set(reports.map((r) => r.intent)).size).toBe(orders.length);

    expect(figures).toMatchObject({ duplicates: 0, misassigned: 0, lost: 0 });
    // The judge can fail: two look-alike orders told each other's pre-posting are counted as misassigned.
    const [a, b] = reports;
    if (a && b) {
      const swapped = [
        { ...a, told: b.told },
        { ...b, told: a.told },
      ];
      expect((await judgeSoak(sandbox.url, swapped)).misassigned).toBe(2);
    }
    // …and two boxes of one order told the same pre-posting are counted as misassigned too.
    const volumes = reports.filter((r) => r.intent.startsWith('order:'));
    const [one, two] = [volumes[0], volumes[1]];
    if (one && two && one.fingerprint === two.fingerprint) {
      const same = reports.map((r) => (r === two ? { ...two, told: one.told } : r));
      expect((await judgeSoak(sandbox.url, same)).misassigned).toBeGreaterThanOrEqual(2);
    }
    expect(figures.unknownPerDrop).toBeLessThanOrEqual(1);
    // Every intended label is either created and told, or honestly unknown.
    for (const report of reports) expect(report.told.length > 0 || report.last === 'unknown').toBe(true);
    // The storage agrees: each bound pre-posting was made from the very request of its attempt.
    const made = new Map((await prepostings()).map((p) => [p.prepostagemId, fp(p.request)]));
    const bound = (await bff.ledger.list()).filter((a) => a.prepostagemId);
    for (const attempt of bound) expect(made.get(attempt.prepostagemId as string)).toBe(attempt.fingerprint);
    expect(new Set(bound.map((a) => a.prepostagemId)).size).toBe(bound.length);
  }, 60_000);

  it('a dropped answer on one call never fails, nor marks unknown, the calls beside it', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'latency',
      latencyMs: 300,
      times: 5,
    });
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit', times: 1 });
    const inputs = [1, 2, 3, 4].map((n) => order(2000 + n));
    const answers = await Promise.all(inputs.map((input) => generate(client, input)));
    expect((await stats()).faultsFired['mcp:generate_label drop_after_commit']).toBe(1);
    // Four calls in flight at once, one of them dropped: every one ends with its own label.
    const made = new Map((await prepostings()).map((p) => [p.prepostagemId, fp(p.request)]));
    expect(made.size).toBe(4);
    answers.forEach(({ record }, i) => {
      expect(made.get(record.prepostagemId ?? '')).toBe(fp(inputs[i]));
    });
    const mine = new Set(inputs.map(fp));
    const ledger = (await bff.ledger.list()).filter((a) => mine.has(a.fingerprint));
    expect(ledger.filter((a) => a.settledBy === 'answer' && a.state === 'created')).toHaveLength(3);
    expect(ledger.filter((a) => a.settledBy === 'diagnosis' && a.state === 'created')).toHaveLength(1);
  }, 30_000);

  it('an HTTP error before the tool ran is not_sent, and the same request then goes through once', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'error502', times: 1 });
    const input = { ...order(3001), idempotencyKey: 'ns-key' };
    const first = await generate(client, input);
    expect(first.record).toMatchObject({ reason: 'not_sent' });
    expect(JSON.stringify(first.result.content)).toContain('did not reach the platform');
    expect(await prepostings()).toHaveLength(0);
    const second = await generate(client, input);
    const [made] = await prepostings();
    expect(second.record.prepostagemId).toBe(made?.prepostagemId);
    const third = await generate(client, input);
    expect(third.record.prepostagemId).toBe(made?.prepostagemId);
    expect(await prepostings()).toHaveLength(1);
  }, 30_000);

  it('with the platform down (connection refused) the attempt is not_sent, again and again, never unknown', async () => {
    const port = await freePort();
    const down = await startBff(`http://127.0.0.1:${port}`, {}, { labels: { pdfDelaysMs: [20] } });
    try {
      const directClient = await connectAgent(down.url, TOKEN);
      // The label tools are not offered while the platform does not answer; call the issuer the agent would reach.
      const input = GenerateLabelInputSchema.parse(order(3002));
      for (let i = 0; i < 3; i++)
        expect((await down.issuer.issue(input, { idempotencyKey: 'down-key' })).kind).toBe('not_sent');
      expect((await down.issuer.issue(input)).kind).toBe('not_sent');
      const states = (await down.ledger.list()).map((a) => a.state);
      expect(states).toEqual(['not_sent', 'not_sent', 'not_sent', 'not_sent']);
      await directClient.close();
    } finally {
      await down.stop();
    }
  }, 30_000);

  it('a platform refusal is recorded rejected, never created: replayed for its key, sent again without one', async () => {
    const input = GenerateLabelInputSchema.parse({ ...order(3010), serviceCode: 'SEDEX' });
    const first = await bff.issuer.issue(input, { idempotencyKey: 'refused-key' });
    expect(first).toMatchObject({ kind: 'rejected', replayed: false });
    expect(await bff.issuer.issue(input, { idempotencyKey: 'refused-key' })).toMatchObject({
      kind: 'rejected',
      replayed: true,
    });
    expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(1);
    // without a key, a refusal holds nothing back: it created nothing, so the request goes to the platform again
    expect(await bff.issuer.issue(input)).toMatchObject({ kind: 'rejected', replayed: false });
    expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(2);
    const mine = (await bff.ledger.list()).filter((a) => a.fingerprint === fp(input));
    expect(mine.map((a) => a.state)).toEqual(['rejected', 'rejected']);
    expect(mine.map((a) => a.prepostagemId ?? null)).toEqual([null, null]);
    expect(await prepostings()).toHaveLength(0);
  }, 30_000);

  it('concurrent identical requests without a key make one upstream call and get the same label', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'latency',
      latencyMs: 300,
      times: 5,
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(client, order(3003))));
    const ids = new Set(answers.map((a) => a.record.prepostagemId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^PP/);
    expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(1);
    expect(await prepostings()).toHaveLength(1);
  }, 30_000);

  it('identical unkeyed requests that wait for a send slot while the first one is created get the first label', async () => {
    // One send slot, held by a slow call; two identical unkeyed requests queue behind it: the first is sent and
    // created before the second gets the slot.
    const narrow = await startBff(sandbox.url, {}, { labels: { pdfDelaysMs: [20], maxInFlight: 1 } });
    try {
      const agent = await connectAgent(narrow.url, TOKEN);
      await sandbox.control('faults', {
        target: 'mcp:generate_label',
        mode: 'latency',
        latencyMs: 400,
        times: 1,
      });
      const slow = generate(agent, order(3101));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const twins = await Promise.all([generate(agent, order(3200)), generate(agent, order(3200))]);
      await slow;
      expect(twins[0].record.prepostagemId).toMatch(/^PP/);
      expect(twins[1].record.prepostagemId).toBe(twins[0].record.prepostagemId);
      expect((await prepostings()).filter((p) => fp(p.request) === fp(order(3200)))).toHaveLength(1);
      await agent.close();
    } finally {
      await narrow.stop();
    }
  }, 30_000);

  it('the race for one idempotency key under a dropped answer: one upstream call, one label, told to all', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'latency',
      latencyMs: 200,
      times: 1,
    });
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit', times: 1 });
    const input = { ...order(3004), idempotencyKey: 'race-key' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(client, input)));
    const [made] = await prepostings();
    for (const { record } of answers) expect(record.prepostagemId).toBe(made?.prepostagemId);
    expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(1);
    expect(await prepostings()).toHaveLength(1);
  }, 30_000);

  it('stays unknown, and never resends, when the history shows no such request; says why and what to do', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const first = await generate(client, order(3005));
    expect(first.record).toMatchObject({ reason: 'outcome_unknown' });
    const text = JSON.stringify(first.result.content);
    expect(text).toContain('label desk (/admin/labels)');
    expect(text).toContain('absence proves nothing');
    for (const key of [undefined, 'another-key']) {
      const again = await generate(client, { ...order(3005), ...(key ? { idempotencyKey: key } : {}) });
      expect(again.record).toMatchObject({ reason: 'outcome_unknown' });
    }
    expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(1);
  }, 30_000);

  it('stays unknown when another client sent the identical request moments before: two matches, no guess', async () => {
    // The order is fixed, not raced: the other client's pre-posting is committed and answered before the BFF sends,
    // so whenever the BFF reads the history after its lost answer, both entries are there. (Sent after the BFF's
    // call instead, the BFF may read first and rightly claim its own single match.) The other entry still falls
    // within the attempt's window (its start minus the 5 s clock-skew margin), which the test checks below.
    const other = await connectAgent(sandbox.url, 'mk_test_demo');
    try {
      const input = order(3300);
      const theirs = await generate(other, input);
      expect(theirs.record.prepostagemId).toMatch(/^PP/);
      await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit', times: 1 });
      const answer = await generate(client, input);
      expect((await stats()).faultsFired['mcp:generate_label drop_after_commit']).toBe(1);
      const made = await prepostings();
      expect(made.map((p) => fp(p.request))).toEqual([fp(input), fp(input)]);
      // Two unclaimed entries carry this exact request: the BFF takes neither, and says why.
      expect(answer.record).toMatchObject({ reason: 'outcome_unknown' });
      expect(answer.record.prepostagemId).toBeUndefined();
      expect(JSON.stringify(answer.result.content)).toContain('more than one unclaimed platform attempt');
      const [attempt] = (await bff.ledger.list()).filter((a) => a.fingerprint === fp(input));
      expect(attempt).toMatchObject({ state: 'unknown', prepostagemId: null });
      expect(attempt?.unknownWhy).toBe('ambiguous');
      // The instrument: the other client's entry is inside the window the BFF matches in, so this is the
      // "two matches" case and not an entry the BFF ignored for its time.
      const earliest = Math.min(...made.map((p) => Date.parse(p.createdAt)));
      expect(earliest).toBeGreaterThanOrEqual((attempt?.createdAt ?? 0) - 5_000);
    } finally {
      await other.close();
    }
  }, 30_000);

  it('says when the platform history no longer reaches back to an unknown attempt', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    expect((await generate(client, order(3400))).record).toMatchObject({ reason: 'outcome_unknown' });
    const other = await connectAgent(sandbox.url, 'mk_test_demo');
    for (let i = 0; i < 10; i++) await generate(other, order(3500 + i));
    await other.close();
    const again = await generate(client, order(3400));
    expect(again.record).toMatchObject({ reason: 'outcome_unknown' });
    expect(JSON.stringify(again.result.content)).toContain('no longer reaches back');
  }, 30_000);

  it('forgets an idempotency key after BFF_IDEMPOTENCY_KEY_DAYS, and not before', async () => {
    let clock = 1.7e12;
    const keyed = await startBff(
      sandbox.url,
      { BFF_IDEMPOTENCY_KEY_DAYS: '1' },
      { now: () => clock, labels: { pdfDelaysMs: [20] } },
    );
    try {
      const agent = await connectAgent(keyed.url, TOKEN);
      const first = await generate(agent, { ...order(3600), idempotencyKey: 'daily' });
      expect(first.record.prepostagemId).toMatch(/^PP/);
      clock += 86_400_000 - 1;
      const early = await generate(agent, { ...order(3601), idempotencyKey: 'daily' });
      expect(early.result.isError).toBe(true);
      expect(JSON.stringify(early.result.content)).toContain('different label request');
      clock += 2;
      const later = await generate(agent, { ...order(3601), idempotencyKey: 'daily' });
      expect(later.record.prepostagemId).toMatch(/^PP/);
      expect(later.record.prepostagemId).not.toBe(first.record.prepostagemId);
      await agent.close();
    } finally {
      await keyed.stop();
    }
  }, 30_000);

  it('survives a restart on the same data directory: a created label is replayed, an unknown one stays blocked', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-restart-'));
    const first = await startBff(sandbox.url, { BFF_DATA_DIR: dataDir }, { labels: { pdfDelaysMs: [20] } });
    const agent1 = await connectAgent(first.url, TOKEN);
    const created = await generate(agent1, { ...order(3006), idempotencyKey: 'keep-me' });
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    expect((await generate(agent1, order(3007))).record).toMatchObject({ reason: 'outcome_unknown' });
    await agent1.close();
    await first.stop();

    const second = await startBff(sandbox.url, { BFF_DATA_DIR: dataDir }, { labels: { pdfDelaysMs: [20] } });
    try {
      const agent2 = await connectAgent(second.url, TOKEN);
      const replay = await generate(agent2, { ...order(3006), idempotencyKey: 'keep-me' });
      expect(replay.record.prepostagemId).toBe(created.record.prepostagemId);
      const unkeyed = await generate(agent2, order(3006));
      expect(unkeyed.record.prepostagemId).toBe(created.record.prepostagemId);
      expect((await generate(agent2, order(3007))).record).toMatchObject({ reason: 'outcome_unknown' });
      expect((await stats()).stores['loja-demo']?.['mcp:generate_label']).toBe(2);
      expect(await prepostings()).toHaveLength(1);
      await agent2.close();
    } finally {
      await second.stop();
    }
  }, 30_000);
});

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
