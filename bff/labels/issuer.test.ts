import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { GenerateLabelInputSchema } from '../../shared/label.ts';
import { createLogger } from '../logger.ts';
import type { PlatformMcp } from '../upstream/platform-mcp.ts';
import { LabelIssuer } from './issuer.ts';
import { SqliteLedgerStore } from './sqlite-store.ts';

/**
 * The platform's answers the sandbox never gives, scripted: what a real platform (or a gateway in front of it) could
 * answer. Only `call` (generate_label) and `read` (diagnose_label_issue: an empty history) are used by the issuer.
 */
function platformAnswering(answer: CallToolResult): { platform: PlatformMcp; calls: () => number } {
  let calls = 0;
  const platform = {
    call: async () => {
      calls += 1;
      return answer;
    },
    read: async () => ({ content: [], structuredContent: { attempts: [] } }),
  } as unknown as PlatformMcp;
  return { platform, calls: () => calls };
}

const input = GenerateLabelInputSchema.parse(SAMPLE_LABEL);

async function issuerFor(answer: CallToolResult) {
  const ledger = new SqliteLedgerStore({ dataDir: ':memory:', now: () => 1_763_800_000_000 });
  const { platform, calls } = platformAnswering(answer);
  const issuer = new LabelIssuer({
    ledger,
    platform,
    logger: createLogger({ level: 'silent' }),
    now: () => 1_763_800_000_000,
    retryReconcileMs: [],
  });
  await issuer.start();
  return { issuer, ledger, calls };
}

describe('LabelIssuer: answers that do not say what happened', () => {
  it('calls a tool error with no record unknown (the tool may have created it first), and never sends it again', async () => {
    const { issuer, ledger, calls } = await issuerFor({
      content: [{ type: 'text', text: 'Internal error while creating the pre-posting' }],
      isError: true,
    });
    const first = await issuer.issue(input, 'order-1');
    expect(first.kind).toBe('unknown');
    const again = await issuer.issue(input, 'order-1');
    expect(again.kind).toBe('unknown');
    expect(calls()).toBe(1);
    expect((await ledger.list())[0]?.state).toBe('unknown');
    issuer.close();
  });

  it('binds the pre-posting of a record that carries one, even when flagged as a tool error', async () => {
    const { issuer, calls } = await issuerFor({
      content: [{ type: 'text', text: 'created, but the PDF failed' }],
      structuredContent: { prepostagemId: 'PP9000000001', trackingCode: 'AB123456785BR' },
      isError: true,
    });
    const outcome = await issuer.issue(input, 'order-2');
    expect(outcome.kind).toBe('created');
    expect(outcome.kind === 'created' && outcome.record.prepostagemId).toBe('PP9000000001');
    expect(calls()).toBe(1);
    issuer.close();
  });

  it('settles a refusal with a reason as rejected', async () => {
    const { issuer } = await issuerFor({
      content: [{ type: 'text', text: 'refused' }],
      structuredContent: { reason: 'prepostagem_rejected', status: 'CEP de destino inválido' },
    });
    const outcome = await issuer.issue(input, 'order-3');
    expect(outcome.kind).toBe('rejected');
    issuer.close();
  });
});

describe('LabelIssuer: attempts left pending while it runs', () => {
  it('turns a pending attempt older than any call into unknown without a restart, and leaves a young one alone', async () => {
    let now = 1_763_800_000_000;
    const ledger = new SqliteLedgerStore({ dataDir: ':memory:', now: () => now });
    const { platform } = platformAnswering({
      content: [],
      structuredContent: { reason: 'prepostagem_rejected' },
    });
    const issuer = new LabelIssuer({
      ledger,
      platform,
      logger: createLogger({ level: 'silent' }),
      now: () => now,
      retryReconcileMs: [],
      timeoutMs: 1_000,
      sweepEveryMs: 20,
    });
    await issuer.start();
    // As if its answer could not be written: the row stays pending while the process goes on.
    const stuck = await ledger.begin({ fingerprint: 'stuck', request: '{}' });
    now += 31_001;
    const young = await ledger.begin({ fingerprint: 'young', request: '{}' });
    await expect.poll(async () => (await ledger.get(stuck.id))?.state, { timeout: 2_000 }).toBe('unknown');
    expect((await ledger.get(young.id))?.state).toBe('pending');
    issuer.close();
  });
});

describe('LabelIssuer: an answer that arrives after the attempt was settled elsewhere', () => {
  it('tells the created label when another instance already bound the same pre-posting from the history', async () => {
    const now = 1_763_800_000_000;
    const ledger = new SqliteLedgerStore({ dataDir: ':memory:', now: () => now });
    const answer: CallToolResult = {
      content: [],
      structuredContent: { prepostagemId: 'PP9000000002', trackingCode: 'AB123456785BR' },
    };
    const platform = {
      call: async () => {
        // Meanwhile another instance took this slow call for a dead one and settled it from the platform's history.
        const [pending] = await ledger.list({ state: 'pending' });
        if (pending) {
          await ledger.settle(pending.id, { state: 'unknown', settledBy: 'restart' });
          await ledger.settle(pending.id, {
            state: 'created',
            settledBy: 'diagnosis',
            prepostagemId: 'PP9000000002',
          });
        }
        return answer;
      },
      read: async () => ({ content: [], structuredContent: { attempts: [] } }),
    } as unknown as PlatformMcp;
    const issuer = new LabelIssuer({
      ledger,
      platform,
      logger: createLogger({ level: 'silent' }),
      now: () => now,
      retryReconcileMs: [],
    });
    await issuer.start();
    const outcome = await issuer.issue(input, 'order-4');
    expect(outcome.kind).toBe('created');
    expect(outcome.kind === 'created' && outcome.record.prepostagemId).toBe('PP9000000002');
    issuer.close();
  });
});
