import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import type { Attempt, DiagnoseLabelIssueOutput } from '../../shared/labels/diagnosis.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { createLogger } from '../logger.ts';
import { LabelIssuer } from './issuer.ts';
import { diagnoseOrder } from './order-diagnosis.ts';
import { sqliteLedger } from './testing/ledgers.ts';
import { ScriptedPlatform, type Step } from './testing/scripted-platform.ts';

/**
 * `diagnose_label_issue` with an `orderId`, answered from the ledger as well as the platform (order-diagnosis.ts), in
 * process: the real issuer writes the order's attempts into a real ledger against a scripted platform, and the
 * platform's answers to the two queries are the test's. Every field of every entry, exactly.
 */
const T0 = Date.parse('2026-11-23T12:00:00-03:00');
const input = GenerateLabelInputSchema.parse(SAMPLE_LABEL);

const open: { close(): void | Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** An order whose volumes 1.. came to `steps`, a second apart; the ledger, the platform and the attempts' ids. */
async function order(steps: Step[]) {
  const clock = { now: T0 };
  const now = () => clock.now;
  const ledger = sqliteLedger({ dataDir: ':memory:', now });
  const platform = new ScriptedPlatform(now);
  const issuer = new LabelIssuer({
    ledger,
    platform: platform.asPlatform(),
    logger: createLogger({ level: 'silent' }),
    now,
    retryReconcileMs: [],
    pdfDelaysMs: [0, 0],
  });
  await issuer.start();
  open.push({ close: () => issuer.close() }, ledger);
  const ids: string[] = [];
  for (const [i, step] of steps.entries()) {
    platform.answers(step);
    const outcome = await issuer.issue(
      { ...input, weightGrams: 800 + i },
      { orderId: 'PED-7', volume: i + 1 },
    );
    ids.push('attemptId' in outcome ? outcome.attemptId : '');
    clock.now += 1_000;
  }
  return { ledger, platform, ids };
}

const iso = (ms: number) => new Date(ms).toISOString();
const asked: unknown[] = [];
const answering =
  (recent: Attempt[], filed: Attempt[] = [], down = false) =>
  async (query: { orderId?: string | undefined }): Promise<DiagnoseLabelIssueOutput> => {
    asked.push(query);
    if (down) throw new Error('diagnosis timed out');
    return { attempts: query.orderId === undefined ? recent : filed };
  };

describe('diagnoseOrder', () => {
  afterEach(() => {
    asked.length = 0;
  });

  it("asks the platform alone for an order the ledger does not hold, or for another source's attempts", async () => {
    const { ledger } = await order([{ kind: 'create' }]);
    const theirs = { attempts: [] };
    const platform = async () => theirs;
    expect(await diagnoseOrder(ledger, platform, { orderId: 'PED-8' })).toBe(theirs);
    expect(await diagnoseOrder(ledger, platform, { orderId: 'PED-7', source: 'nuvemshop' })).toBe(theirs);
  });

  it("tells each of the order's attempts as the platform lists it, with the order, volume and attempt added", async () => {
    const { ledger, platform, ids } = await order([{ kind: 'create' }, { kind: 'create' }]);
    const [first, second] = platform.history as [Attempt, Attempt];
    const answer = await diagnoseOrder(ledger, answering([second, first]), { orderId: 'PED-7' });
    expect(answer).toEqual({
      attempts: [
        { ...second, orderId: 'PED-7', volume: 2, attemptId: ids[1] },
        { ...first, orderId: 'PED-7', volume: 1, attemptId: ids[0] },
      ],
    });
    // Two queries: the recent history, and what the platform files under the order itself.
    expect(asked).toEqual([{}, { orderId: 'PED-7' }]);
  });

  it('tells, from the ledger, each attempt the platform no longer lists: its outcome, reason and what to do', async () => {
    const { ledger, ids } = await order([
      { kind: 'create' },
      { kind: 'reject' },
      { kind: 'vanish' },
      { kind: 'not_sent' },
    ]);
    const answer = await diagnoseOrder(ledger, answering([], [], true), { orderId: 'PED-7', source: 'mcp' });
    const request = (i: number) => {
      const { instanceId: _instance, ...sent } = { ...input, weightGrams: 800 + i };
      return expect.objectContaining({ weightGrams: sent.weightGrams, serviceCode: sent.serviceCode });
    };
    expect(answer.attempts.map((attempt) => attempt.attemptId)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    const [notSent, unknown, rejected, created] = answer.attempts as [Attempt, Attempt, Attempt, Attempt];
    expect(notSent).toEqual({
      supportCode: ids[3],
      createdAt: iso(T0 + 3_000),
      source: 'mcp',
      outcome: 'failed',
      reason: 'not_sent',
      evidence: { request: request(3), ledgerState: 'not_sent' },
      action: 'It never reached the platform and nothing was created: sending the same input again is safe.',
      orderId: 'PED-7',
      volume: 4,
      attemptId: ids[3],
    });
    expect(unknown).toEqual({
      supportCode: ids[2],
      createdAt: iso(T0 + 2_000),
      source: 'mcp',
      outcome: 'failed',
      reason: 'outcome_unknown',
      evidence: { request: request(2), ledgerState: 'unknown' },
      action:
        'The outcome is unknown (the answer was lost after sending): call generate_label again with the same input, which checks the platform history first; the merchant can settle it in the desk.',
      orderId: 'PED-7',
      volume: 3,
      attemptId: ids[2],
    });
    expect(rejected).toMatchObject({
      createdAt: iso(T0 + 1_000),
      outcome: 'rejected',
      reason: 'prepostagem_rejected',
      evidence: { ledgerState: 'rejected' },
      action: 'The carrier refused it: correct the input as its reason says, then send it again.',
      volume: 2,
    });
    expect(rejected.supportCode).not.toBe(ids[1]);
    expect(rejected).not.toHaveProperty('prepostagemId');
    expect(created).toMatchObject({
      createdAt: iso(T0),
      outcome: 'created',
      prepostagemId: 'PP1000001',
      trackingCode: 'AB000000001BR',
      evidence: { ledgerState: 'created' },
      action:
        'The label exists: get_label_pdf with its prepostagemId prints it; generate_label with the same input answers it again.',
      volume: 1,
    });
    expect(created).not.toHaveProperty('reason');
  });

  it("adds the platform's own attempts filed under the order that no ledger attempt holds, the most recent first, at most 10", async () => {
    const { ledger, platform, ids } = await order([{ kind: 'create' }]);
    const [ours] = platform.history as [Attempt];
    const app = (i: number): Attempt => ({
      supportCode: `app-${i}`,
      createdAt: iso(T0 - 60_000 + i),
      source: 'nuvemshop',
      outcome: 'created',
      orderId: 'PED-7',
      evidence: { request: {} },
      action: 'Imprima a etiqueta.',
    });
    const filed = [{ ...ours, orderId: 'PED-7' }, ...Array.from({ length: 12 }, (_, i) => app(i))];
    const answer = await diagnoseOrder(ledger, answering([], filed), { orderId: 'PED-7' });
    expect(answer.attempts.map((attempt) => attempt.supportCode)).toEqual([
      ours.supportCode,
      ...Array.from({ length: 9 }, (_, i) => `app-${11 - i}`),
    ]);
    expect(answer.attempts[0]).toMatchObject({ attemptId: ids[0], volume: 1 });
  });
});
