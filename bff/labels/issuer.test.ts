import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { createLogger } from '../logger.ts';
import { dailyLimits } from '../policies/policies.ts';
import { PlatformCallError, type PlatformPort } from '../upstream/platform-mcp.ts';
import { canonicalRequest, fingerprint } from './fingerprint.ts';
import { LabelIssuer, type LabelIssuerOptions } from './issuer.ts';
import type { IssueOutcome } from './outcomes.ts';
import { UNKNOWN_ADVICE } from './reconciler.ts';
import { sqliteLedger } from './testing/ledgers.ts';
import { PDF, ScriptedPlatform } from './testing/scripted-platform.ts';

/**
 * The platform's answers the sandbox never gives, scripted: what a real platform (or a gateway in front of it) could
 * answer. Only `call` (generate_label) and `read` (diagnose_label_issue: an empty history) are used by the issuer.
 */
function platformAnswering(answer: CallToolResult): { platform: PlatformPort; calls: () => number } {
  let calls = 0;
  const platform = {
    call: async () => {
      calls += 1;
      return answer;
    },
    read: async () => ({ content: [], structuredContent: { attempts: [] } }),
  } satisfies PlatformPort;
  return { platform, calls: () => calls };
}

const input = GenerateLabelInputSchema.parse(SAMPLE_LABEL);

async function issuerFor(answer: CallToolResult) {
  const ledger = sqliteLedger({ dataDir: ':memory:', now: () => 1_763_800_000_000 });
  const { platform, calls } = platformAnswering(answer);
  const issuer = new LabelIssuer({
    ledger,
    platform,
    logger: createLogger({ level: 'silent' }),
    now: () => 1_763_800_000_000,
    retryReconcileMs: [],
    // no PDF in these answers: one quick get_label_pdf try, not the production backoff
    pdfDelaysMs: [0],
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
    const first = await issuer.issue(input, { idempotencyKey: 'order-1' });
    expect(first.kind).toBe('unknown');
    const again = await issuer.issue(input, { idempotencyKey: 'order-1' });
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
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-2' });
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
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-3' });
    expect(outcome.kind).toBe('rejected');
    issuer.close();
  });
});

describe('LabelIssuer: attempts left pending while it runs', () => {
  it('turns a pending attempt older than any call into unknown without a restart, and leaves a young one alone', async () => {
    let now = 1_763_800_000_000;
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => now });
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
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => now });
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
    } satisfies PlatformPort;
    const issuer = new LabelIssuer({
      ledger,
      platform,
      logger: createLogger({ level: 'silent' }),
      now: () => now,
      retryReconcileMs: [],
      pdfDelaysMs: [0],
    });
    await issuer.start();
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-4' });
    expect(outcome.kind).toBe('created');
    expect(outcome.kind === 'created' && outcome.record.prepostagemId).toBe('PP9000000002');
    issuer.close();
  });
});

// Far from 0, so no rule can pass by comparing against an epoch that never moved.
const T0 = 1_763_800_000_000;
const HOUR = 3_600_000;

/** The sample order with the recipient's street number changed: a look-alike that is another order. */
const lookAlike = (numero: string) =>
  GenerateLabelInputSchema.parse({
    ...SAMPLE_LABEL,
    recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, numero } },
  });
/** The request as the platform received it (no instanceId). */
const asSent = (order: ReturnType<typeof lookAlike>) => {
  const { instanceId: _ignored, ...rest } = order;
  return structuredClone(rest) as Record<string, unknown>;
};

async function scripted(options: Partial<LabelIssuerOptions> & { dataDir?: string } = {}) {
  const clock = { now: T0 };
  const now = () => clock.now;
  const ledger = sqliteLedger({ dataDir: options.dataDir ?? ':memory:', now });
  const platform = new ScriptedPlatform(now);
  const issuer = new LabelIssuer({
    ledger,
    platform: platform.asPlatform(),
    logger: createLogger({ level: 'silent' }),
    now,
    retryReconcileMs: [],
    lostAnswerRereadMs: [],
    pdfDelaysMs: [0, 0],
    ...options,
  });
  return { issuer, ledger, platform, clock };
}

const prepostagemOf = (outcome: IssueOutcome) =>
  outcome.kind === 'created' ? outcome.record.prepostagemId : `(${outcome.kind})`;

describe('LabelIssuer: one label per request, however often it is asked', () => {
  it('sends an identical request without an idempotency key once while the first is in flight; all callers get its label', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    let open = () => {};
    platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const calls = Array.from({ length: 5 }, () => issuer.issue(input));
    await expect.poll(() => platform.sent.length).toBe(1);
    open();
    const outcomes = await Promise.all(calls);
    expect(platform.sent).toHaveLength(1);
    expect(new Set(outcomes.map(prepostagemOf))).toEqual(new Set(['PP1000001']));
    expect(outcomes.filter((o) => o.kind === 'created' && !o.replayed)).toHaveLength(1);
    issuer.close();
  });

  it('sends look-alike orders (one digit of the street number apart) each once, side by side', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const outcomes = await Promise.all([issuer.issue(lookAlike('10')), issuer.issue(lookAlike('100'))]);
    expect(platform.sent).toHaveLength(2);
    expect(new Set(outcomes.map(prepostagemOf)).size).toBe(2);
    issuer.close();
  });

  it('replays a created unkeyed request within the window without sending, and sends it again once the window is over', async () => {
    const { issuer, platform, clock } = await scripted({ dedupeWindowMs: 24 * HOUR });
    await issuer.start();
    const first = await issuer.issue(input);
    clock.now += 24 * HOUR - 1;
    const again = await issuer.issue(input);
    expect(again).toMatchObject({
      kind: 'created',
      replayed: true,
      attemptId: first.kind === 'created' ? first.attemptId : '',
    });
    expect(platform.sent).toHaveLength(1);
    clock.now += 2;
    const later = await issuer.issue(input);
    expect(later).toMatchObject({ kind: 'created', replayed: false });
    expect(prepostagemOf(later)).not.toBe(prepostagemOf(first));
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('the race for one idempotency key: one upstream call, one label, told to every caller', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    let open = () => {};
    platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The same key on look-alike bodies would be a conflict: here every caller sends the same order.
    const calls = Array.from({ length: 6 }, () => issuer.issue(input, { idempotencyKey: 'order-77' }));
    await expect.poll(() => platform.sent.length).toBe(1);
    open();
    const outcomes = await Promise.all(calls);
    expect(platform.sent).toHaveLength(1);
    expect(new Set(outcomes.map(prepostagemOf))).toEqual(new Set(['PP1000001']));
    // Once created, the key replays even after the unkeyed window: the key is the merchant's word.
    const replay = await issuer.issue(input, { idempotencyKey: 'order-77' });
    expect(replay).toMatchObject({ kind: 'created', replayed: true });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('refuses a key already used for another order, without sending it', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    await issuer.issue(lookAlike('10'), { idempotencyKey: 'order-8' });
    const other = await issuer.issue(lookAlike('11'), { idempotencyKey: 'order-8' });
    expect(other).toMatchObject({ kind: 'refused', why: 'key_conflict' });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('keeps at most maxInFlight generate_label calls in the air', async () => {
    const { issuer, platform } = await scripted({ maxInFlight: 2 });
    await issuer.start();
    let open = () => {};
    platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const calls = ['1', '2', '3', '4', '5'].map((n) => issuer.issue(lookAlike(n)));
    await expect.poll(() => platform.sent.length).toBe(2);
    open();
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((o) => o.kind === 'created')).toBe(true);
    expect(platform.sent).toHaveLength(5);
    expect(platform.mostInFlight).toBe(2);
    issuer.close();
  });
});

describe('LabelIssuer: refusals and requests that never reached the tool', () => {
  it('stores a refusal as rejected with its reason, never as created; replays it for its key; sends it again without one', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'reject' });
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-r' });
    expect(outcome).toMatchObject({
      kind: 'rejected',
      replayed: false,
      record: { reason: 'prepostagem_rejected', status: 'Peso acima do limite' },
    });
    const [row] = await ledger.list();
    expect(row).toMatchObject({
      state: 'rejected',
      prepostagemId: null,
      reason: 'prepostagem_rejected',
      status: 'Peso acima do limite',
      supportCode: platform.history[0]?.supportCode,
      settledBy: 'answer',
    });
    expect(await issuer.issue(input, { idempotencyKey: 'order-r' })).toMatchObject({
      kind: 'rejected',
      replayed: true,
    });
    expect(platform.sent).toHaveLength(1);
    // Without a key, a rejected request is no label to replay: the merchant fixed something, or tries again.
    expect(await issuer.issue(input)).toMatchObject({ kind: 'created', replayed: false });
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('settles a refusal whose platform supportCode is already bound elsewhere, without copying the code', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    const code = randomUUID();
    platform.answers({ kind: 'create', supportCode: code }, { kind: 'reject', supportCode: code });
    await issuer.issue(lookAlike('1'), { idempotencyKey: 'a' });
    const second = await issuer.issue(lookAlike('2'), { idempotencyKey: 'b' });
    expect(second.kind).toBe('rejected');
    const rejected = (await ledger.list({ state: 'rejected' }))[0];
    expect(rejected).toMatchObject({ reason: 'prepostagem_rejected', supportCode: null });
    issuer.close();
  });

  it('calls a request that never reached the tool not_sent, and lets the same key go again', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'not_sent' });
    const first = await issuer.issue(input, { idempotencyKey: 'order-ns' });
    expect(first).toMatchObject({ kind: 'not_sent', message: 'the request did not reach the platform' });
    expect((await ledger.list())[0]?.state).toBe('not_sent');
    // The ledger remembers why for the operator.
    expect((await ledger.list())[0]?.note).toContain('ECONNREFUSED');
    const second = await issuer.issue(input, { idempotencyKey: 'order-ns' });
    expect(second).toMatchObject({ kind: 'created', replayed: false });
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('tells an answer with a pre-posting the ledger already binds to another attempt as unknown, for a person', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'create', prepostagemId: 'PP42' }, { kind: 'create', prepostagemId: 'PP42' });
    await issuer.issue(lookAlike('1'), { idempotencyKey: 'a' });
    const second = await issuer.issue(lookAlike('2'), { idempotencyKey: 'b' });
    expect(second).toMatchObject({ kind: 'unknown', why: 'binding_conflict' });
    expect(await ledger.list({ state: 'created' })).toHaveLength(1);
    expect((await ledger.list({ state: 'unknown' }))[0]).toMatchObject({
      unknownWhy: 'binding_conflict',
      note: expect.stringMatching(/PP42.*already binds/),
    });
    issuer.close();
  });

  it('fetches the PDF with get_label_pdf after label_pdf_timeout, never with a second generate_label (spec 3.2)', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'create', pdfLate: true });
    platform.pdfNotReady = 1;
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-pdf' });
    expect(outcome.kind === 'created' && outcome.record).toMatchObject({
      prepostagemId: 'PP1000001',
      labelPdfBase64: PDF,
    });
    expect(outcome.kind === 'created' && outcome.record.reason).toBeUndefined();
    expect(platform.sent).toHaveLength(1);
    expect(platform.reads.filter((r) => r.name === 'get_label_pdf')).toEqual([
      { name: 'get_label_pdf', args: { prepostagemId: 'PP1000001' } },
      { name: 'get_label_pdf', args: { prepostagemId: 'PP1000001' } },
    ]);
    issuer.close();
  });

  it('keeps label_pdf_timeout and the carrier status when the PDF never becomes ready', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'create', pdfLate: true });
    platform.pdfNotReady = 99;
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-pdf2' });
    expect(outcome.kind === 'created' && outcome.record).toMatchObject({
      prepostagemId: 'PP1000001',
      reason: 'label_pdf_timeout',
      status: 'Etiqueta em processamento',
    });
    expect(platform.reads.filter((r) => r.name === 'get_label_pdf')).toHaveLength(3);
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });
});

describe('LabelIssuer: a lost answer is settled only by the platform attempt that is provably its own (spec 3.4)', () => {
  it('settles a lost answer from the history entry carrying the whole request, and never sends it again', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'drop' });
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-lost' });
    expect(outcome).toMatchObject({
      kind: 'created',
      replayed: false,
      record: { prepostagemId: 'PP1000001', labelPdfBase64: PDF },
    });
    expect(platform.reads[0]).toEqual({ name: 'diagnose_label_issue', args: { source: 'mcp' } });
    expect((await ledger.list())[0]).toMatchObject({
      state: 'created',
      settledBy: 'diagnosis',
      prepostagemId: 'PP1000001',
      supportCode: platform.history[0]?.supportCode,
    });
    expect(await issuer.issue(input, { idempotencyKey: 'order-lost' })).toMatchObject({
      kind: 'created',
      replayed: true,
    });
    expect(await issuer.issue(input)).toMatchObject({ kind: 'created', replayed: true });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('does not claim a look-alike order (or an app attempt of the same order); stays unknown and never resends', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.record(asSent(lookAlike('100')));
    platform.record(asSent(lookAlike('10')), { source: 'nuvemshop', orderId: '1001' });
    platform.answers({ kind: 'vanish' });
    const outcome = await issuer.issue(lookAlike('10'), { idempotencyKey: 'order-la' });
    expect(outcome).toMatchObject({ kind: 'unknown', why: 'no_match', since: T0 });
    expect((await ledger.list())[0]).toMatchObject({ state: 'unknown', prepostagemId: null });
    expect((await ledger.list())[0]).toMatchObject({
      unknownWhy: 'no_match',
      note: expect.stringMatching(/^no platform attempt with this exact request/),
    });
    expect(await issuer.issue(lookAlike('10'), { idempotencyKey: 'order-la' })).toMatchObject({
      kind: 'unknown',
      why: 'no_match',
    });
    expect(await issuer.issue(lookAlike('10'))).toMatchObject({ kind: 'unknown' });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it("claims an entry only within the attempt's time, clock skew included: 5 s either side, not 1 ms more", async () => {
    for (const [offsetMs, claimed] of [
      [-5_001, false],
      [-5_000, true],
      [5_000, true],
      [5_001, false],
    ] as const) {
      const { issuer, platform } = await scripted({ clockSkewMs: 5_000 });
      await issuer.start();
      platform.answers({ kind: 'drop', offsetMs });
      const outcome = await issuer.issue(input, { idempotencyKey: 'order-t' });
      expect(outcome.kind, `entry ${offsetMs} ms from the attempt`).toBe(claimed ? 'created' : 'unknown');
      issuer.close();
    }
  });

  it('claims only an entry nothing in the ledger holds: the earlier label of the same order stays its own', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    // Two orders of the same customer and content, told apart only by their keys.
    platform.answers({ kind: 'create' }, { kind: 'drop' });
    const first = await issuer.issue(input, { idempotencyKey: 'order-1' });
    const second = await issuer.issue(input, { idempotencyKey: 'order-2' });
    expect(prepostagemOf(first)).toBe('PP1000001');
    expect(prepostagemOf(second)).toBe('PP1000002');
    const created = await ledger.list({ state: 'created' });
    expect(new Set(created.map((a) => a.prepostagemId))).toEqual(new Set(['PP1000001', 'PP1000002']));
    issuer.close();
  });

  it('stays unknown when two unclaimed entries carry the same request: no guess', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    // Another client of the same store sent the identical request at the same moment.
    platform.record(asSent(input));
    platform.answers({ kind: 'drop' });
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-amb' });
    expect(outcome).toMatchObject({ kind: 'unknown', why: 'ambiguous' });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('settles a lost answer that the platform refused as rejected, never as created', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.record(asSent(input), {
      outcome: 'rejected',
      reason: 'prepostagem_rejected',
      prepostagemId: undefined,
      trackingCode: undefined,
    });
    platform.answers({ kind: 'vanish' });
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-rej' });
    expect(outcome).toMatchObject({ kind: 'rejected', record: { reason: 'prepostagem_rejected' } });
    expect((await ledger.list())[0]).toMatchObject({
      state: 'rejected',
      settledBy: 'diagnosis',
      prepostagemId: null,
      reason: 'prepostagem_rejected',
    });
    issuer.close();
  });

  it('settles as rejected a failed entry without a reason, and a "created" entry that names no pre-posting', async () => {
    for (const entry of [
      { outcome: 'failed' as const, reason: undefined, why: 'failed' },
      { outcome: 'created' as const, reason: undefined, why: null },
    ]) {
      const { issuer, ledger, platform } = await scripted();
      await issuer.start();
      platform.record(asSent(input), {
        outcome: entry.outcome,
        prepostagemId: undefined,
        trackingCode: undefined,
      });
      platform.answers({ kind: 'vanish' });
      const outcome = await issuer.issue(input, { idempotencyKey: 'order-f' });
      expect(outcome.kind).toBe('rejected');
      expect((await ledger.list())[0]).toMatchObject({
        state: 'rejected',
        reason: entry.why,
        prepostagemId: null,
      });
      issuer.close();
    }
  });

  it("says the history no longer reaches back when 10 newer attempts fill the platform's list", async () => {
    const run = async (newer: number, olderOne: boolean) => {
      const { issuer, platform } = await scripted();
      await issuer.start();
      if (olderOne) platform.record(asSent(lookAlike('x')), { offsetMs: -HOUR });
      for (let i = 0; i < newer; i++) platform.record(asSent(lookAlike(`n${i}`)), { offsetMs: 1_000 + i });
      platform.answers({ kind: 'vanish' });
      const outcome = await issuer.issue(input, { idempotencyKey: 'order-h' });
      issuer.close();
      return outcome.kind === 'unknown' ? outcome.why : outcome.kind;
    };
    expect(await run(10, false)).toBe('history_overflow');
    expect(await run(9, false)).toBe('no_match');
    // A full list that still reaches back past the attempt: the history covers it, and it is not there.
    expect(await run(9, true)).toBe('no_match');
  });

  it('stays unknown, saying why, when the history cannot be read or answers only a reason', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.diagnosisDown = true;
    platform.answers({ kind: 'drop' });
    expect(await issuer.issue(input, { idempotencyKey: 'order-d' })).toMatchObject({
      kind: 'unknown',
      why: 'diagnosis_failed',
    });
    expect((await ledger.list())[0]).toMatchObject({
      unknownWhy: 'diagnosis_failed',
      note: expect.stringMatching(/could not be read: .*diagnosis timed out/),
    });
    // Once the history can be read, asking again settles it from there, still without resending.
    platform.diagnosisDown = false;
    expect(await issuer.issue(input, { idempotencyKey: 'order-d' })).toMatchObject({
      kind: 'created',
      replayed: true,
    });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('treats a diagnosis that answers only a reason as unreadable, not as an empty history', async () => {
    const clock = { now: T0 };
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => clock.now });
    const platform = {
      call: async () => {
        throw new PlatformCallError('unknown', 'answer lost');
      },
      read: async () => ({
        content: [],
        structuredContent: { reason: 'subscription_required', actionUrl: 'https://x' },
      }),
    } satisfies PlatformPort;
    const issuer = new LabelIssuer({
      ledger,
      platform,
      logger: createLogger({ level: 'silent' }),
      now: () => clock.now,
      retryReconcileMs: [],
      lostAnswerRereadMs: [],
    });
    await issuer.start();
    expect(await issuer.issue(input, { idempotencyKey: 'order-s' })).toMatchObject({
      kind: 'unknown',
      why: 'diagnosis_failed',
    });
    expect((await ledger.list())[0]?.note).toContain('subscription_required');
    issuer.close();
  });

  it('tries an unsettled attempt again in the background, and settles it once the platform lists it', async () => {
    const { issuer, ledger, platform } = await scripted({ retryReconcileMs: [5, 5] });
    await issuer.start();
    platform.answers({ kind: 'vanish' });
    expect(await issuer.issue(input, { idempotencyKey: 'order-bg' })).toMatchObject({
      kind: 'unknown',
      why: 'no_match',
    });
    // The platform writes its record late.
    platform.record(asSent(input));
    await expect.poll(async () => (await ledger.list())[0]?.state, { timeout: 2_000 }).toBe('created');
    issuer.close();
  });
});

describe('LabelIssuer: a crash mid-call, and a restart on the same data directory', () => {
  it('turns an attempt left pending by a crash into unknown at start, and settles it from the history before any new send', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-crash-'));
    // The process that crashed: it wrote the attempt, the platform created the label, nobody settled it.
    const crashed = sqliteLedger({ dataDir, now: () => T0 });
    const pending = await crashed.begin({
      fingerprint: fingerprint(input),
      idempotencyKey: 'order-c',
      request: canonicalRequest(input),
    });
    await crashed.close();
    const { issuer, ledger, platform } = await scripted({ dataDir });
    platform.record(asSent(input));
    await issuer.start();
    expect(await ledger.get(pending.id)).toMatchObject({
      state: 'created',
      settledBy: 'diagnosis',
      prepostagemId: 'PP1000001',
    });
    expect(await issuer.issue(input, { idempotencyKey: 'order-c' })).toMatchObject({
      kind: 'created',
      replayed: true,
      attemptId: pending.id,
    });
    expect(platform.sent).toHaveLength(0);
    issuer.close();
    await ledger.close();
  });

  it('leaves a crashed attempt unknown when the history does not show it, and never sends it again after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-crash-'));
    const crashed = sqliteLedger({ dataDir, now: () => T0 });
    const pending = await crashed.begin({
      fingerprint: fingerprint(input),
      request: canonicalRequest(input),
    });
    await crashed.close();
    const { issuer, ledger, platform } = await scripted({ dataDir });
    await issuer.start();
    expect(await ledger.get(pending.id)).toMatchObject({ state: 'unknown', settledBy: 'restart' });
    expect(await issuer.issue(input)).toMatchObject({
      kind: 'unknown',
      attemptId: pending.id,
      why: 'no_match',
    });
    expect(platform.sent).toHaveLength(0);
    issuer.close();
    await ledger.close();
  });

  it("with a shared ledger, leaves at start a young pending attempt alone (another instance's call in flight)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-shared-'));
    const other = sqliteLedger({ dataDir, now: () => T0 });
    const inFlight = await other.begin({ fingerprint: 'other-instance', request: '{}' });
    const { issuer, ledger } = await scripted({ dataDir, sharedLedger: true, timeoutMs: 60_000 });
    await issuer.start();
    expect((await ledger.get(inFlight.id))?.state).toBe('pending');
    issuer.close();
    await Promise.all([ledger.close(), other.close()]);
  });

  it('replays a created label after a restart on the same data directory, without sending it again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-restart-'));
    const before = await scripted({ dataDir });
    await before.issuer.start();
    const first = await before.issuer.issue(input, { idempotencyKey: 'order-rs' });
    before.issuer.close();
    await before.ledger.close();
    const after = await scripted({ dataDir });
    await after.issuer.start();
    expect(await after.issuer.issue(input, { idempotencyKey: 'order-rs' })).toMatchObject({
      kind: 'created',
      replayed: true,
      record: { prepostagemId: prepostagemOf(first) },
    });
    expect(await after.issuer.issue(input)).toMatchObject({ kind: 'created', replayed: true });
    expect(after.platform.sent).toHaveLength(0);
    after.issuer.close();
    await after.ledger.close();
  });
});

describe('LabelIssuer: two instances sharing one ledger', () => {
  it("waits for the other instance's call in flight and tells its label, without sending again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-two-'));
    const a = await scripted({ dataDir, sharedLedger: true });
    const b = await scripted({ dataDir, sharedLedger: true });
    await Promise.all([a.issuer.start(), b.issuer.start()]);
    let open = () => {};
    a.platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = a.issuer.issue(input, { idempotencyKey: 'order-two' });
    await expect.poll(() => a.platform.sent.length).toBe(1);
    const second = b.issuer.issue(input, { idempotencyKey: 'order-two' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    open();
    expect(await second).toMatchObject({
      kind: 'created',
      replayed: true,
      record: { prepostagemId: 'PP1000001' },
    });
    expect(prepostagemOf(await first)).toBe('PP1000001');
    expect(b.platform.sent).toHaveLength(0);
    a.issuer.close();
    b.issuer.close();
    await Promise.all([a.ledger.close(), b.ledger.close()]);
  });

  it('answers in_progress, never a second send, when the other instance holds the request longer than any call lasts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'issuer-two-'));
    const a = await scripted({ dataDir, sharedLedger: true });
    const b = await scripted({ dataDir, sharedLedger: true, timeoutMs: 1_000 });
    await Promise.all([a.issuer.start(), b.issuer.start()]);
    a.platform.gate = new Promise<void>(() => {});
    void a.issuer.issue(input, { idempotencyKey: 'order-held' });
    await expect.poll(() => a.platform.sent.length).toBe(1);
    let answered = false;
    const waiting = b.issuer.issue(input, { idempotencyKey: 'order-held' }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Not yet past the call's timeout and 5 s: still waiting.
    b.clock.now += 6_000;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(answered).toBe(false);
    b.clock.now += 1;
    expect(await waiting).toMatchObject({ kind: 'refused', why: 'in_progress' });
    expect(b.platform.sent).toHaveLength(0);
    a.issuer.close();
    b.issuer.close();
  });
});

describe('LabelIssuer: what is told, and kept, in the less common paths', () => {
  it('tells an unknown request as unknown to a keyed resend too, and never sends it', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'vanish' });
    expect((await issuer.issue(input)).kind).toBe('unknown');
    expect(await issuer.issue(input, { idempotencyKey: 'order-k' })).toMatchObject({
      kind: 'unknown',
      why: 'no_match',
    });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('gives the first label to identical unkeyed requests that waited for a send slot while it was created', async () => {
    const { issuer, platform } = await scripted({ maxInFlight: 1 });
    await issuer.start();
    let open = () => {};
    platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const other = issuer.issue(lookAlike('1'));
    await expect.poll(() => platform.sent.length).toBe(1);
    const both = [issuer.issue(input), issuer.issue(input)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    const outcomes = await Promise.all(both);
    await other;
    expect(platform.sent).toHaveLength(2);
    expect(new Set(outcomes.map(prepostagemOf)).size).toBe(1);
    issuer.close();
  });

  it('frees its send slot after every call: one slot serves calls one after the other', async () => {
    const { issuer, platform } = await scripted({ maxInFlight: 1 });
    await issuer.start();
    platform.answers({ kind: 'not_sent' }, { kind: 'reject' }, { kind: 'drop' }, { kind: 'create' });
    for (const n of ['1', '2', '3', '4']) await issuer.issue(lookAlike(n));
    expect(platform.sent).toHaveLength(4);
    issuer.close();
  });

  it('replays an unkeyed request for 24 hours by default', async () => {
    const { issuer, platform, clock } = await scripted();
    await issuer.start();
    await issuer.issue(input);
    clock.now += 24 * HOUR;
    expect(await issuer.issue(input)).toMatchObject({ kind: 'created', replayed: true });
    clock.now += 1;
    expect(await issuer.issue(input)).toMatchObject({ kind: 'created', replayed: false });
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('does not fetch the PDF again when the answer carries it', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const outcome = await issuer.issue(input, { idempotencyKey: 'order-p' });
    expect(outcome.kind === 'created' && outcome.record.labelPdfBase64).toBe(PDF);
    expect(platform.reads).toEqual([]);
    issuer.close();
  });

  it('tries get_label_pdf again after it fails, and keeps the last carrier status it gave', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const read = platform.asPlatform().read;
    let reads = 0;
    const flaky = {
      ...platform.asPlatform(),
      read: async (name: string, args: Record<string, unknown>) => {
        reads += 1;
        if (reads === 1) throw new PlatformCallError('unknown', 'get_label_pdf timed out');
        if (reads === 2)
          return {
            content: [],
            structuredContent: { status: 'Etiqueta em processamento', reason: 'label_not_printable' },
          };
        if (reads === 3) return { content: [], structuredContent: { reason: 'label_not_printable' } };
        return read(name, args);
      },
    } satisfies PlatformPort;
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => T0 });
    const late = new LabelIssuer({
      ledger,
      platform: flaky,
      logger: createLogger({ level: 'silent' }),
      now: () => T0,
      retryReconcileMs: [],
      pdfDelaysMs: [0, 0],
    });
    await late.start();
    platform.answers({ kind: 'create', pdfLate: true });
    const outcome = await late.issue(input, { idempotencyKey: 'order-f' });
    // Three tries: a failure, a status, nothing new: the status stays with the label_pdf_timeout.
    expect(outcome.kind === 'created' && outcome.record).toMatchObject({
      reason: 'label_pdf_timeout',
      status: 'Etiqueta em processamento',
    });
    expect(reads).toBe(3);
    platform.answers({ kind: 'create', pdfLate: true });
    const ok = await late.issue(lookAlike('9'), { idempotencyKey: 'order-g' });
    expect(ok.kind === 'created' && ok.record.labelPdfBase64).toBe(PDF);
    late.close();
    issuer.close();
  });

  it('calls an answer that does not parse lost, and says so in the ledger note', async () => {
    const { issuer, ledger } = await issuerFor({
      content: [],
      structuredContent: { prepostagemId: 12345, trackingCode: ['AB'] },
    });
    expect(await issuer.issue(input, { idempotencyKey: 'order-np' })).toMatchObject({ kind: 'unknown' });
    expect((await ledger.list())[0]).toMatchObject({
      unknownWhy: 'no_match',
      note: expect.stringMatching(/^no platform attempt with this exact request/),
    });
    issuer.close();
  });

  it('answers an error when the platform answers a pre-posting other than the one the history bound meanwhile', async () => {
    const now = T0;
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => now });
    const platform = {
      call: async () => {
        const [pending] = await ledger.list({ state: 'pending' });
        if (pending) {
          await ledger.settle(pending.id, { state: 'unknown', settledBy: 'restart' });
          await ledger.settle(pending.id, {
            state: 'created',
            settledBy: 'diagnosis',
            prepostagemId: 'PP-OTHER',
          });
        }
        return { content: [], structuredContent: { prepostagemId: 'PP-ANSWERED', labelPdfBase64: PDF } };
      },
      read: async () => ({ content: [], structuredContent: { attempts: [] } }),
    } satisfies PlatformPort;
    const issuer = new LabelIssuer({
      ledger,
      platform,
      logger: createLogger({ level: 'silent' }),
      now: () => now,
      retryReconcileMs: [],
    });
    await issuer.start();
    await expect(issuer.issue(input, { idempotencyKey: 'order-x' })).rejects.toThrow();
    expect((await ledger.list())[0]).toMatchObject({ state: 'created', prepostagemId: 'PP-OTHER' });
    issuer.close();
  });

  it('tells a resend why it is still unknown now, not why it was before', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.diagnosisDown = true;
    platform.answers({ kind: 'vanish' });
    expect(await issuer.issue(input, { idempotencyKey: 'order-w' })).toMatchObject({
      kind: 'unknown',
      why: 'diagnosis_failed',
    });
    platform.diagnosisDown = false;
    expect(await issuer.issue(input, { idempotencyKey: 'order-w' })).toMatchObject({
      kind: 'unknown',
      why: 'no_match',
    });
    issuer.close();
  });

  it('reads a diagnosis without structured content as an empty history, and one that does not parse as a failure', async () => {
    for (const [structuredContent, why] of [
      [undefined, 'no_match'],
      [{ attempts: 'none' }, 'diagnosis_failed'],
    ] as const) {
      const ledger = sqliteLedger({ dataDir: ':memory:', now: () => T0 });
      const platform = {
        call: async () => {
          throw new PlatformCallError('unknown', 'answer lost');
        },
        read: async () => ({ content: [], ...(structuredContent ? { structuredContent } : {}) }),
      } satisfies PlatformPort;
      const issuer = new LabelIssuer({
        ledger,
        platform,
        logger: createLogger({ level: 'silent' }),
        now: () => T0,
        retryReconcileMs: [],
        lostAnswerRereadMs: [],
      });
      await issuer.start();
      expect(await issuer.issue(input, { idempotencyKey: 'order-e' })).toMatchObject({
        kind: 'unknown',
        why,
      });
      issuer.close();
    }
  });

  it("settles by the platform's outcome, not by the presence of an id: a rejected entry naming a pre-posting stays rejected", async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    platform.record(asSent(input), { outcome: 'rejected', reason: 'prepostagem_rejected' });
    platform.answers({ kind: 'vanish' });
    expect(await issuer.issue(input, { idempotencyKey: 'order-o' })).toMatchObject({
      kind: 'rejected',
      replayed: false,
    });
    expect((await ledger.list())[0]).toMatchObject({ state: 'rejected', settledBy: 'diagnosis' });
    issuer.close();
  });

  it('counts a full list reaching back exactly to the attempt (skew included) as covering it', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.record(asSent(lookAlike('edge')), { offsetMs: -5_000 });
    for (let i = 0; i < 9; i++) platform.record(asSent(lookAlike(`n${i}`)), { offsetMs: 1_000 + i });
    platform.answers({ kind: 'vanish' });
    expect(await issuer.issue(input, { idempotencyKey: 'order-edge' })).toMatchObject({
      kind: 'unknown',
      why: 'no_match',
    });
    issuer.close();
  });

  it('keeps trying in the background at each configured delay, never takes a later identical attempt for the lost one, and stops when closed', async () => {
    const { issuer, ledger, platform } = await scripted({ retryReconcileMs: [5, 5, 5] });
    await issuer.start();
    platform.answers({ kind: 'vanish' });
    // The answer's own reconciliation and the first background try find nothing; the platform then lists it.
    platform.onDiagnose = (count) => {
      if (count === 3) platform.record(asSent(input));
    };
    expect((await issuer.issue(input, { idempotencyKey: 'order-bg2' })).kind).toBe('unknown');
    await expect.poll(async () => (await ledger.list())[0]?.state, { timeout: 2_000 }).toBe('created');

    const later = await scripted({ retryReconcileMs: [5, 5] });
    await later.issuer.start();
    later.platform.answers({ kind: 'vanish' });
    await later.issuer.issue(input, { idempotencyKey: 'order-bg3' });
    // An hour on, an identical request from another client: not this attempt's, however alike.
    later.clock.now += HOUR;
    later.platform.record(asSent(input));
    await expect.poll(() => later.platform.reads.length, { timeout: 2_000 }).toBe(3);
    expect((await later.ledger.list())[0]?.state).toBe('unknown');
    later.issuer.close();

    const closing = await scripted({ retryReconcileMs: [30] });
    await closing.issuer.start();
    closing.platform.answers({ kind: 'vanish' });
    await closing.issuer.issue(input, { idempotencyKey: 'order-bg4' });
    closing.issuer.close();
    closing.platform.record(asSent(input));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(closing.platform.reads).toHaveLength(1);
    issuer.close();
  });

  it('logs, and survives, a start-up reconciliation that fails (the ledger cannot be read)', async () => {
    const lines: { msg: string; level: number }[] = [];
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => T0 });
    await ledger.close();
    const issuer = new LabelIssuer({
      ledger,
      platform: new ScriptedPlatform(() => T0).asPlatform(),
      logger: createLogger({
        level: 'info',
        destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
      }),
      now: () => T0,
      retryReconcileMs: [],
    });
    await issuer.start();
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'labels: recovering orphaned attempts failed',
        'labels: reconciliation of unknown attempts failed',
      ]),
    );
    issuer.close();
  });

  it('logs the attempts a stop left pending, for the operator', async () => {
    const lines: { msg: string; attempts?: string[] }[] = [];
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => T0 });
    const pending = await ledger.begin({ fingerprint: 'x', request: '{}' });
    const issuer = new LabelIssuer({
      ledger,
      platform: new ScriptedPlatform(() => T0).asPlatform(),
      logger: createLogger({
        level: 'info',
        destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
      }),
      now: () => T0,
      retryReconcileMs: [],
    });
    await issuer.start();
    expect(
      lines.find(
        (l) =>
          l.msg === 'labels: attempts left pending by a stopped call or instance are unknown; reconciling',
      )?.attempts,
    ).toEqual([pending.id]);
    issuer.close();
  });

  it('stops its sweep for orphans when closed', async () => {
    let now = T0;
    const ledger = sqliteLedger({ dataDir: ':memory:', now: () => now });
    const issuer = new LabelIssuer({
      ledger,
      platform: new ScriptedPlatform(() => now).asPlatform(),
      logger: createLogger({ level: 'silent' }),
      now: () => now,
      retryReconcileMs: [],
      timeoutMs: 1_000,
      sweepEveryMs: 10,
    });
    await issuer.start();
    issuer.close();
    const stuck = await ledger.begin({ fingerprint: 'stuck', request: '{}' });
    now += HOUR;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await ledger.get(stuck.id))?.state).toBe('pending');
  });

  it('has advice for every reason an outcome stays unknown', () => {
    expect(UNKNOWN_ADVICE.no_match).toMatch(/absence proves nothing/);
    expect(UNKNOWN_ADVICE.ambiguous).toMatch(/none can be chosen safely/);
    expect(UNKNOWN_ADVICE.history_overflow).toMatch(/no longer reaches back/);
    expect(UNKNOWN_ADVICE.diagnosis_failed).toMatch(/could not be read/);
    expect(UNKNOWN_ADVICE.binding_conflict).toMatch(/already binds/);
  });
});

describe('LabelIssuer: orders and volumes (docs/architecture.md, "Labels")', () => {
  it('issues two labels for two identical boxes of one order, and replays each volume when asked again', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const first = await issuer.issue(input, { orderId: 'PED-1', volume: 1 });
    const second = await issuer.issue(input, { orderId: 'PED-1', volume: 2 });
    expect(first).toMatchObject({ kind: 'created', replayed: false });
    expect(second).toMatchObject({ kind: 'created', replayed: false });
    const ids = [first, second].map((o) => (o.kind === 'created' ? o.record.prepostagemId : undefined));
    expect(new Set(ids).size).toBe(2);
    expect(platform.sent).toHaveLength(2);
    expect(await issuer.issue(input, { orderId: 'PED-1', volume: 1 })).toMatchObject({
      kind: 'created',
      replayed: true,
      record: { prepostagemId: ids[0] },
    });
    // Volume defaults to 1.
    expect(await issuer.issue(input, { orderId: 'PED-1' })).toMatchObject({
      record: { prepostagemId: ids[0] },
    });
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('sends identical boxes of one order one after the other, so a lost answer is never told to the other box', async () => {
    const { issuer, platform, ledger } = await scripted();
    await issuer.start();
    let open: () => void = () => {};
    platform.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = issuer.issue(input, { orderId: 'PED-2', volume: 1 });
    const second = issuer.issue(input, { orderId: 'PED-2', volume: 2 });
    await vi.waitFor(() => expect(platform.inFlight).toBe(1));
    // The second box waits for the first (same request in the air), whatever the timing.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(platform.sent).toHaveLength(1);
    open();
    platform.gate = undefined;
    const outcomes = await Promise.all([first, second]);
    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'created']);
    expect(platform.mostInFlight).toBe(1);
    expect((await ledger.byOrder('PED-2')).map((a) => [a.volume, a.state])).toEqual([
      [1, 'created'],
      [2, 'created'],
    ]);
    issuer.close();
  });

  it('refuses the same volume with a different request, sending nothing, and names what holds it', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    await issuer.issue(lookAlike('10'), { orderId: 'PED-3', volume: 1 });
    const conflict = await issuer.issue(lookAlike('11'), { orderId: 'PED-3', volume: 1 });
    expect(conflict).toMatchObject({ kind: 'refused', why: 'order_volume_conflict' });
    expect(conflict.kind === 'refused' && conflict.message).toMatch(
      /Volume 1 of order PED-3 already has a label \(PP/,
    );
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('lets a rejected volume be sent again with a corrected request', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'reject' });
    expect(await issuer.issue(lookAlike('10'), { orderId: 'PED-4' })).toMatchObject({ kind: 'rejected' });
    expect(await issuer.issue(lookAlike('12'), { orderId: 'PED-4' })).toMatchObject({ kind: 'created' });
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('does not merge an order with another order that sent the identical request: each gets its own label', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const a = await issuer.issue(input, { orderId: 'PED-5' });
    const b = await issuer.issue(input, { orderId: 'PED-6' });
    expect(
      a.kind === 'created' && b.kind === 'created' && a.record.prepostagemId !== b.record.prepostagemId,
    ).toBe(true);
    expect(platform.sent).toHaveLength(2);
    issuer.close();
  });

  it('holds an identical box of another order while the first one is unknown, and sends nothing', async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    platform.answers({ kind: 'vanish' });
    expect(await issuer.issue(input, { orderId: 'PED-7' })).toMatchObject({ kind: 'unknown' });
    const held = await issuer.issue(input, { orderId: 'PED-8' });
    expect(held).toMatchObject({ kind: 'refused', why: 'identical_request_unknown' });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });
});

describe('LabelIssuer: limits and the send window', () => {
  it("refuses past an issuer's daily limit with when it resets, sending nothing", async () => {
    const { issuer, platform } = await scripted();
    await issuer.start();
    const limits = { issuedBy: 'robo', dayStart: T0 - HOUR, dayEnd: T0 + HOUR, maxLabels: 2 };
    for (const n of ['1', '2']) {
      expect(await issuer.issue(lookAlike(n), { issuedBy: 'robo', limits })).toMatchObject({
        kind: 'created',
      });
    }
    const refused = await issuer.issue(lookAlike('3'), { issuedBy: 'robo', limits });
    expect(refused).toMatchObject({
      kind: 'refused',
      why: 'agent_limit_reached',
      limit: 'maxLabelsPerDay',
      resetsAt: T0 + HOUR,
    });
    expect(platform.sent).toHaveLength(2);
    // What was already issued is still replayed (it counts once).
    expect(await issuer.issue(lookAlike('1'), { issuedBy: 'robo', limits })).toMatchObject({
      replayed: true,
    });
    issuer.close();
  });

  it('counts a daily declared value in the centavos it sends: R$ 64,07 at the limit sent, one centavo more refused', async () => {
    const { issuer, ledger, platform } = await scripted();
    await issuer.start();
    const limits = dailyLimits({ issuedBy: 'exact', policy: { maxDeclaredValuePerDay: 64.07 } }, T0);
    const declaring = (
      numero: string,
      declaredItems: { conteudo: string; quantidade: number; valor: number }[],
    ) => GenerateLabelInputSchema.parse({ ...lookAlike(numero), declaredItems });
    const atLimit = declaring('1', [
      { conteudo: 'Camiseta', quantidade: 3, valor: 19.99 },
      { conteudo: 'Adesivo', quantidade: 1, valor: 0.07 },
      { conteudo: 'Botão', quantidade: 1, valor: 0.1 },
      { conteudo: 'Meia', quantidade: 1, valor: 3.93 },
    ]);
    expect(await issuer.issue(atLimit, { issuedBy: 'exact', limits })).toMatchObject({ kind: 'created' });
    const over = declaring('2', [{ conteudo: 'Bala', quantidade: 1, valor: 0.01 }]);
    expect(await issuer.issue(over, { issuedBy: 'exact', limits })).toMatchObject({
      kind: 'refused',
      why: 'agent_limit_reached',
      limit: 'maxDeclaredValuePerDay',
    });
    expect(platform.sent).toHaveLength(1);
    const sentItems = GenerateLabelInputSchema.parse(platform.sent[0]).declaredItems;
    expect([declaredValueCents(sentItems), (await ledger.list())[0]?.declaredValueCents]).toEqual([
      6407, 6407,
    ]);
    issuer.close();
  });

  it('keeps a lost answer within the platform’s recent history: new labels wait until it is reconciled', async () => {
    const { issuer, platform } = await scripted({ recentReach: 4, windowWaitMs: 5_000 });
    await issuer.start();
    // The lost answer's diagnosis is slow: while it runs, at most 3 more attempts may be written after it (so it
    // stays among the 4 most recent, all this platform is said to list).
    let diagnose: () => void = () => {};
    platform.diagnoseGate = new Promise<void>((resolve) => {
      diagnose = resolve;
    });
    platform.answers({ kind: 'drop' });
    const lost = issuer.issue(lookAlike('100'), { idempotencyKey: 'lost' });
    await vi.waitFor(() => expect(platform.reads.some((r) => r.name === 'diagnose_label_issue')).toBe(true));
    const others = ['101', '102', '103', '104'].map((n) => issuer.issue(lookAlike(n), { idempotencyKey: n }));
    await vi.waitFor(() => expect(platform.sent).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Three attempts after the lost one: a fourth would push it out of the 4 most recent.
    expect(platform.sent).toHaveLength(4);
    diagnose();
    platform.diagnoseGate = undefined;
    expect(await lost).toMatchObject({ kind: 'created', replayed: false });
    expect((await Promise.all(others)).map((o) => o.kind)).toEqual([
      'created',
      'created',
      'created',
      'created',
    ]);
    issuer.close();
  });

  it('refuses as in progress, sending nothing, when the window stays full longer than it waits', async () => {
    const { issuer, platform } = await scripted({ recentReach: 1, windowWaitMs: 100 });
    await issuer.start();
    platform.diagnoseGate = new Promise<void>(() => {});
    platform.answers({ kind: 'drop' });
    void issuer.issue(lookAlike('200'), { idempotencyKey: 'stuck' });
    await vi.waitFor(() => expect(platform.reads.some((r) => r.name === 'diagnose_label_issue')).toBe(true));
    const busy = await issuer.issue(lookAlike('201'), { idempotencyKey: 'waits' });
    expect(busy).toMatchObject({ kind: 'refused', why: 'in_progress' });
    expect(platform.sent).toHaveLength(1);
    issuer.close();
  });

  it('reads the history again after a failed read while the lost answer holds the window, and tells its label on the same call', async () => {
    const { issuer, platform } = await scripted({
      recentReach: 4,
      windowWaitMs: 5_000,
      lostAnswerRereadMs: [0, 0],
    });
    await issuer.start();
    // The first read of the history fails (a 502); the second is slow, and newer labels ask to be sent meanwhile.
    let reread: () => void = () => {};
    platform.onDiagnose = (count) => {
      platform.diagnosisDown = count === 1;
      if (count === 2)
        platform.diagnoseGate = new Promise<void>((resolve) => {
          reread = resolve;
        });
    };
    platform.answers({ kind: 'drop' });
    const lost = issuer.issue(lookAlike('300'), { idempotencyKey: 'lost' });
    await vi.waitFor(() =>
      expect(platform.reads.filter((r) => r.name === 'diagnose_label_issue')).toHaveLength(2),
    );
    const others = ['301', '302', '303', '304'].map((n) => issuer.issue(lookAlike(n), { idempotencyKey: n }));
    await vi.waitFor(() => expect(platform.sent).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still three after the lost one: the failed read did not give its place in the window away.
    expect(platform.sent).toHaveLength(4);
    reread();
    platform.diagnoseGate = undefined;
    expect(await lost).toMatchObject({ kind: 'created', replayed: false });
    expect((await Promise.all(others)).map((o) => o.kind)).toEqual([
      'created',
      'created',
      'created',
      'created',
    ]);
    issuer.close();
  });

  it('gives the window back after its last re-read: unknown, diagnosis_failed, and the next label is sent', async () => {
    const { issuer, platform } = await scripted({ recentReach: 1, lostAnswerRereadMs: [0, 0] });
    await issuer.start();
    platform.diagnosisDown = true;
    platform.answers({ kind: 'drop' });
    expect(await issuer.issue(lookAlike('400'), { idempotencyKey: 'down' })).toMatchObject({
      kind: 'unknown',
      why: 'diagnosis_failed',
    });
    expect(platform.reads.filter((r) => r.name === 'diagnose_label_issue')).toHaveLength(3);
    expect(await issuer.issue(lookAlike('401'), { idempotencyKey: 'next' })).toMatchObject({
      kind: 'created',
    });
    issuer.close();
  });

  it('notices within seconds that another instance died mid-call (its lease ran out) and settles its attempt', async () => {
    const { issuer, ledger, platform, clock } = await scripted({
      sharedLedger: true,
      sweepEveryMs: 20,
      leaseMs: 1_000,
    });
    // Another instance wrote this attempt, sent it (the platform recorded it), then died: its lease is not renewed.
    const dead = await ledger.begin({
      fingerprint: fingerprint(input),
      request: canonicalRequest(input),
      leaseUntil: T0 + 1_000,
    });
    platform.record(asSent(input));
    await issuer.start();
    expect((await ledger.get(dead.id))?.state).toBe('pending');
    clock.now = T0 + 1_001;
    await vi.waitFor(() =>
      expect(ledger.get(dead.id)).resolves.toMatchObject({ state: 'created', settledBy: 'diagnosis' }),
    );
    expect((await ledger.get(dead.id))?.leaseUntil).toBeNull();
    issuer.close();
  });
});
