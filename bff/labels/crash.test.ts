import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { recordChild } from '../../testing/processes.ts';
import { TEST_AGENTS } from '../testing.ts';
import { fingerprint } from './fingerprint.ts';
import { sqliteLedger } from './testing/ledgers.ts';
import { connectAgent, judgeSoak, lookAlikeOrders, runSoak } from './testing/soak.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const TOKEN = 'agent-all-scopes-0001';
let sandbox: RunningSandbox;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, labelPdfWaitMs: 1000 });
});
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await sandbox.close();
});

/** The BFF as its own process (`node bff/main.ts`), on port 0; resolves with its URL once it listens. */
async function startBffProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = recordChild(
    spawn(process.execPath, ['bff/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        SHIPPING_API_URL: sandbox.url,
        SHIPPING_SECRET_KEY: 'mk_test_demo',
        BFF_PORT: '0',
        BFF_DATA_DIR: dataDir,
        BFF_AGENT_TOKENS: JSON.stringify(TEST_AGENTS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    'a BFF',
  );
  children.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the BFF did not start:\n${output}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /BFF listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', () => reject(new Error(`the BFF exited:\n${output}`)));
  });
  return { child, url };
}

const StatsSchema = z.object({ stores: z.record(z.string(), z.record(z.string(), z.number())) });
async function upstreamCalls(): Promise<number> {
  const stats = StatsSchema.parse(await (await sandbox.control('stats', undefined, 'GET')).json());
  return stats.stores['loja-demo']?.['mcp:generate_label'] ?? 0;
}
const PrepostingsSchema = z.object({
  prepostings: z.array(z.object({ prepostagemId: z.string(), request: z.record(z.string(), z.unknown()) })),
});
async function madeFrom(): Promise<Map<string, string>> {
  const { prepostings } = PrepostingsSchema.parse(
    await (await sandbox.control('prepostings', undefined, 'GET')).json(),
  );
  return new Map(
    prepostings.map((p) => [p.prepostagemId, fingerprint(GenerateLabelInputSchema.parse(p.request))]),
  );
}

describe('the BFF killed (SIGKILL) during a burst of labels', () => {
  it('restarts on the same data: attempts settled from the platform history without a person, no duplicate on resend', async () => {
    await sandbox.control('faults', {
      target: 'mcp:generate_label',
      mode: 'latency',
      latencyMs: 400,
      probability: 1,
      times: 10_000,
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-crash-'));
    const orders = lookAlikeOrders(SAMPLE_LABEL, 20, 'crash').map((order) => ({ ...order, twin: false }));

    const first = await startBffProcess(dataDir);
    const agent1 = await connectAgent(first.url, TOKEN);
    const burst = runSoak({ client: agent1, orders, concurrency: 20, tries: 1 }).catch(() => undefined);
    // Kill once a few calls have reached the platform and others wait in the BFF.
    for (let i = 0; i < 100 && (await upstreamCalls()) < 6; i++) await sleep(50);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    await burst;
    await agent1.close().catch(() => undefined);
    // The platform finishes the calls it had already received (its latency ends after the kill).
    await sleep(700);

    const ledger = sqliteLedger({ dataDir });
    const leftPending = await ledger.list({ state: 'pending' });
    expect(leftPending.length).toBeGreaterThan(0);
    // Send slots keep the attempts in the air few: all of them are among the platform's 10 most recent.
    expect(leftPending.length).toBeLessThanOrEqual(4);

    const second = await startBffProcess(dataDir);
    // Reconciled in the background at start-up: every attempt the platform has a pre-posting for is settled with
    // exactly that pre-posting, and none is left pending.
    let made = await madeFrom();
    for (let i = 0; i < 100; i++) {
      const open = [
        ...(await ledger.list({ state: 'pending' })),
        ...(await ledger.list({ state: 'unknown' })),
      ];
      made = await madeFrom();
      const settleable = open.filter((a) => [...made.values()].includes(a.fingerprint));
      if (settleable.length === 0 && open.every((a) => a.state === 'unknown')) break;
      await sleep(100);
    }
    expect(await ledger.list({ state: 'pending' })).toEqual([]);
    let settledByHistory = 0;
    for (const attempt of leftPending) {
      const after = await ledger.get(attempt.id);
      if (after?.settledBy === 'diagnosis') settledByHistory += 1;
      const ownPreposting = [...made].find(([, fp]) => fp === attempt.fingerprint)?.[0];
      if (ownPreposting) expect(after).toMatchObject({ state: 'created', prepostagemId: ownPreposting });
      else expect(after?.state).toBe('unknown');
    }
    // The calls in the air had reached the platform: the history settles them, not a person.
    expect(settledByHistory).toBeGreaterThan(0);
    for (const attempt of await ledger.list()) {
      if (attempt.prepostagemId) expect(made.get(attempt.prepostagemId)).toBe(attempt.fingerprint);
    }

    // Every agent resends its order (same key where it had one): no duplicate, nobody told another's label.
    const agent2 = await connectAgent(second.url, TOKEN);
    const reports = await runSoak({ client: agent2, orders, concurrency: 6, tries: 2 });
    const figures = await judgeSoak(sandbox.url, reports);
    expect(figures).toMatchObject({ duplicates: 0, misassigned: 0, lost: 0 });
    for (const report of reports) expect(report.told.length > 0 || report.last === 'unknown').toBe(true);
    await agent2.close();
    await ledger.close();
    second.child.kill('SIGTERM');
  }, 60_000);
});
