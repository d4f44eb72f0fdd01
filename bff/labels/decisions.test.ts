import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { SERVER_ERROR_STATUS } from '../../shared/errors.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { createLogger } from '../logger.ts';
import { type Decision, type DecisionRefusalCode, DecisionRefused, OperatorDecisions } from './decisions.ts';
import { LabelIssuer } from './issuer.ts';
import { sqliteLedger, type TestLedger } from './testing/ledgers.ts';
import { ScriptedPlatform } from './testing/scripted-platform.ts';

/**
 * The operator's decisions on unknown attempts (docs/desk.md, "Decisions are checked"), in process: the real ledger
 * on node:sqlite, an attempt left unknown by the real issuer (its answer lost, nothing in the history yet), and a
 * scripted platform whose history the test writes. Each refusal with its code and status, and what a decision
 * writes to the ledger, exactly.
 */
const T0 = Date.parse('2026-11-23T12:00:00-03:00');
const input = GenerateLabelInputSchema.parse(SAMPLE_LABEL);

const open: { close(): void | Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function unknownAttempt() {
  const clock = { now: T0 };
  const now = () => clock.now;
  const ledger: TestLedger = sqliteLedger({ dataDir: ':memory:', now });
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
  platform.answers({ kind: 'vanish' });
  const outcome = await issuer.issue(input, { idempotencyKey: 'lost' });
  if (outcome.kind !== 'unknown') throw new Error(`expected unknown, got ${outcome.kind}`);
  const sent = platform.sent[0] as Record<string, unknown>;
  const decisions = new OperatorDecisions({ ledger, platform: platform.asPlatform() });
  return { ledger, platform, issuer, clock, decisions, attemptId: outcome.attemptId, sent };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: DecisionRefusalCode; status: number }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DecisionRefused)) throw new Error(`not refused: ${String(error)}`);
  expect(error.status).toBe(SERVER_ERROR_STATUS[error.code]);
  return { code: error.code, status: error.status };
}

const BY = { by: 'ana' };
const FORCE = { by: 'ana', force: { reason: 'checked the carrier panel' } };

describe('OperatorDecisions: which attempts a person decides', () => {
  it('refuses an attempt that does not exist (404) and one that is not unknown (409), changing nothing', async () => {
    const { decisions, issuer } = await unknownAttempt();
    expect(await refusal(decisions.resolve('no-such', { notCreated: true }, BY))).toEqual({
      code: 'attempt_not_found',
      status: 404,
    });
    const created = await issuer.issue({ ...input, weightGrams: 900 });
    const id = created.kind === 'created' ? created.attemptId : '';
    const error = await decisions.resolve(id, { notCreated: true }, BY).catch((caught: Error) => caught);
    expect(error).toMatchObject({
      code: 'not_unknown',
      status: 409,
      message: `attempt ${id} is created; only an unknown outcome is decided by a person`,
    });
  });

  it('wants a written reason of at least 10 characters to force, blanks not counted', async () => {
    const { decisions, attemptId, ledger } = await unknownAttempt();
    for (const reason of ['', '   ', 'too short', '   123456789   ']) {
      expect(
        await refusal(decisions.resolve(attemptId, { notCreated: true }, { by: 'ana', force: { reason } })),
      ).toEqual({ code: 'reason_required', status: 400 });
    }
    expect((await ledger.get(attemptId))?.state).toBe('unknown');
    const settled = await decisions.resolve(
      attemptId,
      { notCreated: true },
      { by: 'ana', force: { reason: ' 1234567890 ' } },
    );
    expect(settled).toMatchObject({ state: 'not_sent', note: 'resolved by ana (forced: 1234567890)' });
  });
});

describe('OperatorDecisions: "nothing was created"', () => {
  it('settles not_sent by the operator when the history shows no pre-posting of this request', async () => {
    const { decisions, attemptId, platform, sent } = await unknownAttempt();
    platform.record({ ...sent, weightGrams: 900 });
    expect(await decisions.resolve(attemptId, { notCreated: true }, BY)).toMatchObject({
      id: attemptId,
      state: 'not_sent',
      settledBy: 'operator',
      note: 'resolved by ana',
      prepostagemId: null,
    });
  });

  it('is refused while the history lists a created pre-posting of this very request that no attempt holds', async () => {
    const { decisions, attemptId, platform, sent, ledger } = await unknownAttempt();
    const listed = platform.record(sent);
    const error = await decisions
      .resolve(attemptId, { notCreated: true }, BY)
      .catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: 'created_in_history', status: 409 });
    expect((error as Error).message).toContain(
      `lists ${listed.prepostagemId} as created for this very request`,
    );
    expect((await ledger.get(attemptId))?.state).toBe('unknown');
    // A person who checked the carrier's panel may still say so, with the reason kept.
    expect(await decisions.resolve(attemptId, { notCreated: true }, FORCE)).toMatchObject({
      state: 'not_sent',
      note: 'resolved by ana (forced: checked the carrier panel)',
    });
  });

  it('is not refused for a pre-posting of this request the history lists as rejected', async () => {
    const rejected = await unknownAttempt();
    rejected.platform.record(rejected.sent, { outcome: 'rejected', prepostagemId: undefined });
    expect(await rejected.decisions.resolve(rejected.attemptId, { notCreated: true }, BY)).toMatchObject({
      state: 'not_sent',
    });
  });

  it('is refused when the history is full and its oldest entry is younger than the attempt (5 s of skew allowed)', async () => {
    const young = await unknownAttempt();
    for (let i = 0; i < 10; i++)
      young.platform.record({ ...young.sent, weightGrams: 901 + i }, { offsetMs: -4_999 });
    expect(await refusal(young.decisions.resolve(young.attemptId, { notCreated: true }, BY))).toEqual({
      code: 'history_too_short',
      status: 409,
    });
    const reaching = await unknownAttempt();
    reaching.platform.record({ ...reaching.sent, weightGrams: 900 }, { offsetMs: -5_000 });
    for (let i = 0; i < 9; i++) reaching.platform.record({ ...reaching.sent, weightGrams: 901 + i });
    expect(await reaching.decisions.resolve(reaching.attemptId, { notCreated: true }, BY)).toMatchObject({
      state: 'not_sent',
    });
    const nine = await unknownAttempt();
    for (let i = 0; i < 9; i++) nine.platform.record({ ...nine.sent, weightGrams: 901 + i });
    expect(await nine.decisions.resolve(nine.attemptId, { notCreated: true }, BY)).toMatchObject({
      state: 'not_sent',
    });
  });

  it('is refused (503) while the history cannot be read, unless forced', async () => {
    const { decisions, attemptId, platform } = await unknownAttempt();
    platform.diagnosisDown = true;
    const error = await decisions
      .resolve(attemptId, { notCreated: true }, BY)
      .catch((caught: Error) => caught);
    expect(error).toMatchObject({
      code: 'history_unavailable',
      status: 503,
      message: "the platform's history could not be read now; try again in a minute",
    });
    expect(await decisions.resolve(attemptId, { notCreated: true }, FORCE)).toMatchObject({
      state: 'not_sent',
    });
  });
});

describe('OperatorDecisions: "created, with this pre-posting"', () => {
  const created = (id: string, trackingCode?: string): Decision => ({ created: id, trackingCode });

  it('binds a pre-posting the history lists as created for this request, with its tracking and support codes', async () => {
    const { decisions, attemptId, platform, sent } = await unknownAttempt();
    const listed = platform.record(sent);
    const settled = await decisions.resolve(
      attemptId,
      created(` ${listed.prepostagemId?.toLowerCase()} `),
      BY,
    );
    expect(settled).toMatchObject({
      state: 'created',
      settledBy: 'operator',
      prepostagemId: listed.prepostagemId,
      trackingCode: listed.trackingCode,
      supportCode: listed.supportCode,
      note: 'resolved by ana',
    });
  });

  it('refuses a malformed pre-posting id and a malformed tracking code (400)', async () => {
    const { decisions, attemptId } = await unknownAttempt();
    for (const id of ['PP1', 'PP-1000001', 'P'.repeat(41), '']) {
      expect(await refusal(decisions.resolve(attemptId, created(id), FORCE))).toEqual({
        code: 'malformed_prepostagem_id',
        status: 400,
      });
    }
    expect(await refusal(decisions.resolve(attemptId, created('PP1000001', 'DG049186225BR'), FORCE))).toEqual(
      {
        code: 'malformed_tracking_code',
        status: 400,
      },
    );
  });

  it('refuses a pre-posting the history does not list, or lists as not created, unless forced where it is absent', async () => {
    const { decisions, attemptId, platform, sent } = await unknownAttempt();
    const error = await decisions
      .resolve(attemptId, created('PP9999999'), BY)
      .catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: 'not_confirmed', status: 409 });
    expect((error as Error).message).toContain('does not list PP9999999 as created');
    platform.record(sent, { outcome: 'rejected', prepostagemId: 'PP7777777' });
    expect(await refusal(decisions.resolve(attemptId, created('PP7777777'), FORCE))).toEqual({
      code: 'not_confirmed',
      status: 409,
    });
    // Absent from the history: a person's word, with a tracking code cleaned and checked, and the reason kept.
    const forced = await decisions.resolve(attemptId, created('PP9999999', ' dg 049186226 br '), FORCE);
    expect(forced).toMatchObject({
      state: 'created',
      prepostagemId: 'PP9999999',
      trackingCode: 'DG049186226BR',
      supportCode: null,
      note: 'resolved by ana (forced: checked the carrier panel)',
    });
  });

  it('refuses a pre-posting created for another request, forced or not', async () => {
    const { decisions, attemptId, platform, sent } = await unknownAttempt();
    const other = platform.record({ ...sent, weightGrams: 900 });
    for (const options of [BY, FORCE]) {
      expect(
        await refusal(decisions.resolve(attemptId, created(other.prepostagemId ?? ''), options)),
      ).toEqual({
        code: 'other_request',
        status: 409,
      });
    }
  });

  it('refuses a pre-posting another attempt holds', async () => {
    const { decisions, attemptId, issuer } = await unknownAttempt();
    const held = await issuer.issue({ ...input, weightGrams: 900 });
    const id = held.kind === 'created' ? (held.record.prepostagemId ?? '') : '';
    expect(await refusal(decisions.resolve(attemptId, created(id), FORCE))).toEqual({
      code: 'bound_elsewhere',
      status: 409,
    });
    expect(await refusal(decisions.resolve(attemptId, created(id), BY))).toEqual({
      code: 'bound_elsewhere',
      status: 409,
    });
  });

  it('binds a forced id the history cannot be read for', async () => {
    const { decisions, attemptId, platform } = await unknownAttempt();
    platform.diagnosisDown = true;
    expect(await decisions.resolve(attemptId, created('PP5555555'), FORCE)).toMatchObject({
      state: 'created',
      prepostagemId: 'PP5555555',
      trackingCode: null,
    });
  });
});

describe('OperatorDecisions.evidence', () => {
  it('lists the history beside the attempt: which entry is this request, and which another attempt holds', async () => {
    const { decisions, attemptId, platform, sent, issuer } = await unknownAttempt();
    const same = platform.record(sent);
    const other = platform.record({ ...sent, weightGrams: 900 });
    await issuer.issue({ ...input, weightGrams: 950 });
    const { attempt, history } = await decisions.evidence(attemptId);
    expect(attempt).toMatchObject({ id: attemptId, state: 'unknown' });
    const flags = Object.fromEntries(
      history.map((entry) => [entry.attempt.supportCode, [entry.sameRequest, entry.boundElsewhere]]),
    );
    expect(flags[same.supportCode]).toEqual([true, false]);
    expect(flags[other.supportCode]).toEqual([false, false]);
    expect(history).toHaveLength(3);
    expect(history.filter((entry) => entry.boundElsewhere)).toHaveLength(1);
    expect(await refusal(decisions.evidence('no-such'))).toEqual({ code: 'attempt_not_found', status: 404 });
  });
});

describe('OperatorDecisions: two people deciding at once', () => {
  /** Holds the platform's history until both decisions have asked for it, then lets both go on. */
  function holdHistory(platform: ScriptedPlatform) {
    let open = () => {};
    platform.diagnoseGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const before = platform.reads.length;
    return async () => {
      await expect.poll(() => platform.reads.length - before).toBe(2);
      open();
    };
  }

  it('settles the attempt once: the other is told it was settled meanwhile', async () => {
    const { decisions, attemptId, platform } = await unknownAttempt();
    const release = holdHistory(platform);
    const both = Promise.allSettled([
      decisions.resolve(attemptId, { notCreated: true }, { by: 'ana' }),
      decisions.resolve(attemptId, { notCreated: true }, { by: 'bia' }),
    ]);
    await release();
    const [a, b] = await both;
    const settled = [a, b].filter((outcome) => outcome.status === 'fulfilled');
    const refused = [a, b].flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(settled).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      code: 'not_unknown',
      status: 409,
      message: 'the attempt was settled meanwhile (by the history or another person)',
    });
  });

  it('binds one pre-posting to one attempt: the second is told it is bound elsewhere', async () => {
    const { decisions, attemptId, platform, issuer } = await unknownAttempt();
    platform.answers({ kind: 'vanish' });
    const other = await issuer.issue({ ...input, weightGrams: 900 }, { idempotencyKey: 'lost-2' });
    const otherId = 'attemptId' in other ? other.attemptId : '';
    const release = holdHistory(platform);
    const both = Promise.allSettled([
      decisions.resolve(attemptId, { created: 'PP5555555' }, FORCE),
      decisions.resolve(otherId, { created: 'PP5555555' }, FORCE),
    ]);
    await release();
    const outcomes = await both;
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))).toEqual([
      expect.objectContaining({
        code: 'bound_elsewhere',
        status: 409,
        message: 'that pre-posting is already bound to another attempt',
      }),
    ]);
  });
});
