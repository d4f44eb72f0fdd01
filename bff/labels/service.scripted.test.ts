import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { type AgentLabelInput, AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { createLogger } from '../logger.ts';
import { ApprovalStore } from '../policies/approval-store.ts';
import { type AgentPolicy, type Caller, DESK } from '../policies/policies.ts';
import type { QuoteCaller } from '../rates/quote-share.ts';
import type { QuoteAnswer, QuoteRequest } from '../rates/service.ts';
import type { LabelAnswer } from './answer.ts';
import { APPROVAL_TTL_MS, MAX_PENDING_APPROVALS } from './approvals.ts';
import { LabelIssuer } from './issuer.ts';
import { LabelService } from './service.ts';
import { ServiceCodes } from './service-codes.ts';
import { sqliteLedger, type TestLedger } from './testing/ledgers.ts';
import { ScriptedPlatform } from './testing/scripted-platform.ts';

/**
 * The label service in process (no BFF, no sandbox): the real ledger and approval store on node:sqlite in memory, the
 * real issuer against a scripted platform, and a scripted quote core. What service.test.ts states through a BFF and
 * the SDK's client, stated here with exact values, so the mutation run (which cannot afford a BFF a mutant) judges
 * the approvals, the charged price, the previews and the limits by it.
 */

// Noon in São Paulo: its day ends at 03:00 UTC the next day.
const T0 = Date.parse('2026-11-23T12:00:00-03:00');
const DAY_END = '2026-11-24T03:00:00.000Z';
/** R$ 159,80: 2 × R$ 79,90, the sample's declared content. */
const DECLARED_CENTS = 15_980;

const open: { close(): void | Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

interface World {
  service: LabelService;
  platform: ScriptedPlatform;
  ledger: TestLedger;
  approvals: ApprovalStore;
  clock: { now: number };
  quotes: { request: QuoteRequest; caller: QuoteCaller | undefined }[];
  /** The quote core's next answer (PAC R$ 23,45 and SEDEX R$ 41,20 unless a test changes it). */
  rates: QuoteAnswer['rates'];
  quoteFails: boolean;
}

async function world(): Promise<World> {
  const clock = { now: T0 };
  const now = () => clock.now;
  const ledger = sqliteLedger({ dataDir: ':memory:', now });
  const sql = new SqliteSql({ dataDir: ':memory:', file: 'approvals.sqlite' });
  const approvals = new ApprovalStore(sql, { now });
  await approvals.ready;
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
  open.push({ close: () => issuer.close() }, ledger, sql);
  const state: World = {
    platform,
    ledger,
    approvals,
    clock,
    quotes: [],
    rates: [
      { serviceId: 'correios-pac', price: 23.45 },
      { serviceId: 'correios-sedex', price: 41.2 },
    ] as QuoteAnswer['rates'],
    quoteFails: false,
  } as Omit<World, 'service'> as World;
  state.service = new LabelService({
    issuer,
    ledger,
    approvals,
    serviceCodes: new ServiceCodes({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    rates: {
      quote: async (request, caller) => {
        state.quotes.push({ request, caller });
        if (state.quoteFails) throw new Error('the platform did not answer');
        return { rates: state.rates };
      },
    },
    now,
  });
  return state;
}

const label = (more: Partial<AgentLabelInput> = {}): AgentLabelInput =>
  AgentLabelInputSchema.parse({ ...SAMPLE_LABEL, ...more });

const agent = (policy: AgentPolicy, issuedBy = 'robo'): Caller => ({ issuedBy, policy });

const issuedId = (answer: LabelAnswer) =>
  answer.kind === 'issued' && answer.outcome.kind === 'created'
    ? answer.outcome.record.prepostagemId
    : answer;

const approvalId = (answer: LabelAnswer): string => {
  if (answer.kind !== 'approval') throw new Error(`not an approval: ${JSON.stringify(answer)}`);
  return answer.approvalId;
};

describe('LabelService.generate: what is sent, and every refusal before it', () => {
  it('sends the platform fields alone, the serviceId mapped to its contract code, and tells the order and volume', async () => {
    const { service, platform } = await world();
    const { serviceCode: _code, ...rest } = label();
    const answer = await service.generate(
      label({ ...rest, serviceId: 'correios-pac', orderId: 'PED-1', idempotencyKey: 'k-1', locale: 'es' }),
      DESK,
    );
    expect(answer).toMatchObject({ kind: 'issued', orderId: 'PED-1', volume: 1 });
    expect(issuedId(answer)).toBe('PP1000001');
    expect(platform.sent).toHaveLength(1);
    const { instanceId: _instance, ...platformFields } = label();
    expect(platform.sent[0]).toEqual({ ...platformFields, serviceCode: '03298' });
  });

  it('tells no order or volume for a label without an order', async () => {
    const { service } = await world();
    const answer = await service.generate(label(), DESK);
    expect(answer).toMatchObject({ kind: 'issued', orderId: undefined, volume: undefined });
    const second = await service.generate(
      label({ orderId: 'PED-2', volume: 2, idempotencyKey: 'k-2' }),
      DESK,
    );
    expect(second).toMatchObject({ kind: 'issued', orderId: 'PED-2', volume: 2 });
  });

  it('refuses an unknown serviceId naming the field, and sends nothing', async () => {
    const { service, platform } = await world();
    const answer = await service.generate(
      label({ serviceId: 'jadlog-package', serviceCode: undefined }),
      DESK,
    );
    expect(answer).toEqual({
      kind: 'refused',
      refusal: {
        reason: 'unknown_service',
        field: 'serviceCode',
        message:
          'serviceId "jadlog-package" is not one of this store\'s services. Mapped services (serviceId → serviceCode): correios-pac → 03298, correios-sedex → 03220.',
      },
    });
    expect(platform.sent).toHaveLength(0);
  });

  it('refuses an implausible parcel (the carrier rules) and sends nothing', async () => {
    const { service, platform } = await world();
    const answer = await service.generate(label({ weightGrams: 800_000 }), DESK);
    expect(answer).toMatchObject({ kind: 'refused', refusal: { field: 'weightGrams' } });
    expect(platform.sent).toHaveLength(0);
  });

  it('keeps an agent to its services, by serviceId or contract code, saying which it has', async () => {
    const { service, platform } = await world();
    const sedexOnly = agent({ services: ['correios-sedex'] });
    expect(await service.generate(label(), sedexOnly)).toEqual({
      kind: 'refused',
      refusal: {
        reason: 'agent_limit_reached',
        limit: 'services',
        field: 'serviceCode',
        message:
          'This agent may not use service correios-pac; its services are correios-sedex. Nothing was sent.',
      },
    });
    expect(platform.sent).toHaveLength(0);
    const byCode = agent({ services: ['03298'] });
    expect(issuedId(await service.generate(label(), byCode))).toBe('PP1000001');
  });

  it('refuses the label past the daily limit with which limit and when it resets, sending nothing', async () => {
    const { service, platform } = await world();
    const one = agent({ maxLabelsPerDay: 1 });
    expect(issuedId(await service.generate(label({ idempotencyKey: 'a' }), one))).toBe('PP1000001');
    const refused = await service.generate(label({ idempotencyKey: 'b', weightGrams: 900 }), one);
    expect(refused).toMatchObject({
      kind: 'issued',
      outcome: {
        kind: 'refused',
        why: 'agent_limit_reached',
        limit: 'maxLabelsPerDay',
        resetsAt: Date.parse(DAY_END),
      },
    });
    expect(platform.sent).toHaveLength(1);
  });
});

describe('LabelService: labels the merchant approves first', () => {
  it('asks the merchant once, with the charged price, the declared value and the policy, and sends nothing', async () => {
    const { service, platform, approvals, quotes } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const first = await service.generate(label({ orderId: 'PED-9', locale: 'es' }), careful);
    expect(first).toEqual({
      kind: 'approval',
      reason: 'approval_pending',
      approvalId: approvalId(first),
      message:
        'The merchant must approve this label first; nothing was sent. Call generate_label again later with the same input: once approved it answers the label.',
    });
    const again = await service.generate(label({ orderId: 'PED-9', locale: 'es' }), careful);
    expect(again).toEqual(first);
    expect(platform.sent).toHaveLength(0);
    const stored = await approvals.get(approvalId(first));
    expect(stored).toMatchObject({
      intent: 'order:PED-9#1',
      issuedBy: 'careful',
      state: 'pending',
      quotedPriceCents: 2345,
      declaredValueCents: DECLARED_CENTS,
      policy: '{"approval":"always"}',
    });
    const { instanceId: _instance, ...platformFields } = label();
    expect(JSON.parse(stored?.request ?? '{}')).toEqual({
      ...platformFields,
      orderId: 'PED-9',
      volume: 1,
      locale: 'es',
    });
    // The price the store pays: the carrier's, for this parcel alone, on the agent's own share of the quotes.
    expect(quotes[0]).toEqual({
      request: {
        destinationCep: '20040020',
        items: [{ name: 'volume 1', quantity: 1, unitPriceBRL: 0, weightKg: 0.8 }],
      },
      caller: { kind: 'agent', id: 'careful' },
    });
  });

  it("keeps the carrier's price of the service asked for, and none for a free rate, a missing one or no quote", async () => {
    const careful = agent({ approval: 'always' }, 'careful');
    const priceKept = async (change: (state: World) => void, request = label()) => {
      const state = await world();
      change(state);
      const id = approvalId(await state.service.generate(request, careful));
      return (await state.approvals.get(id))?.quotedPriceCents;
    };
    expect(await priceKept(() => {}, label({ serviceCode: '03220' }))).toBe(4120);
    const free = [{ serviceId: 'correios-pac', price: 0, free: true }] as QuoteAnswer['rates'];
    expect(await priceKept((state) => (state.rates = free))).toBeNull();
    const sedexOnly = [{ serviceId: 'correios-sedex', price: 41.2 }] as QuoteAnswer['rates'];
    expect(await priceKept((state) => (state.rates = sedexOnly))).toBeNull();
    expect(await priceKept((state) => (state.quoteFails = true))).toBeNull();
  });

  it('issues on approval, once however often approved or asked, and answers the agent the same label', async () => {
    const { service, platform } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const id = approvalId(await service.generate(label({ idempotencyKey: 'ok-1' }), careful));
    const approved = await service.approve(id);
    expect(approved).toMatchObject({ answer: { kind: 'issued' } });
    const attemptId =
      'answer' in approved && approved.answer.kind === 'issued' && approved.answer.outcome.kind === 'created'
        ? approved.answer.outcome.attemptId
        : '';
    expect('answer' in approved && issuedId(approved.answer)).toBe('PP1000001');
    expect(await service.approve(id)).toMatchObject({
      answer: { kind: 'issued', outcome: { kind: 'created', attemptId, replayed: true } },
    });
    const asked = await service.generate(label({ idempotencyKey: 'ok-1' }), careful);
    expect(asked).toMatchObject({ kind: 'issued', outcome: { kind: 'created', attemptId } });
    expect(platform.sent).toHaveLength(1);
    expect(await service.reject(id)).toEqual({ notPending: 'approved' });
  });

  it('answers approval_rejected after a rejection, and a decision taken once', async () => {
    const { service, platform } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const id = approvalId(await service.generate(label(), careful));
    expect(await service.reject(id)).toEqual({ rejected: true });
    expect(await service.generate(label(), careful)).toEqual({
      kind: 'approval',
      reason: 'approval_rejected',
      approvalId: id,
      message: 'The merchant rejected this label; nothing was sent. Do not ask again for the same label.',
    });
    expect(await service.reject(id)).toEqual({ notPending: 'rejected' });
    expect(await service.approve(id)).toEqual({ notPending: 'rejected' });
    expect(await service.reject('no-such-approval')).toEqual({ missing: true });
    expect(await service.approve('no-such-approval')).toEqual({ missing: true });
    expect(platform.sent).toHaveLength(0);
  });

  it('tells an expired approval once, then asks the merchant again', async () => {
    const { service, clock } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const id = approvalId(await service.generate(label(), careful));
    clock.now += APPROVAL_TTL_MS - 1;
    expect(await service.generate(label(), careful)).toMatchObject({
      reason: 'approval_pending',
      approvalId: id,
    });
    clock.now += 1;
    expect(await service.generate(label(), careful)).toEqual({
      kind: 'approval',
      reason: 'approval_expired',
      approvalId: id,
      message:
        'Nobody approved this label within 24 hours, so the request expired; nothing was sent. Calling again asks the merchant again.',
    });
    const next = await service.generate(label(), careful);
    expect(next).toMatchObject({ reason: 'approval_pending' });
    expect(approvalId(next)).not.toBe(id);
  });

  it('asks only above a threshold in reais, to the centavo', async () => {
    const { service, platform } = await world();
    expect(await service.generate(label(), agent({ approval: 159.79 }))).toMatchObject({
      reason: 'approval_pending',
    });
    expect(issuedId(await service.generate(label({ weightGrams: 801 }), agent({ approval: 159.8 })))).toBe(
      'PP1000001',
    );
    expect(platform.sent).toHaveLength(1);
  });

  it('waits for a click for an app-issued agent, whatever the value', async () => {
    const { service, platform } = await world();
    expect(await service.generate(label(), agent({ issue: 'app' }))).toMatchObject({
      reason: 'approval_pending',
    });
    expect(platform.sent).toHaveLength(0);
  });

  it('is of this very request: another request under the same key asks again, and the ledger refuses the conflict', async () => {
    const { service, platform } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const id = approvalId(await service.generate(label({ idempotencyKey: 'same' }), careful));
    await service.approve(id);
    const other = await service.generate(label({ idempotencyKey: 'same', weightGrams: 900 }), careful);
    expect(other).toMatchObject({ kind: 'issued', outcome: { kind: 'refused', why: 'key_conflict' } });
    expect(platform.sent).toHaveLength(1);
  });

  it('answers a label the desk already issued under the key, without asking the merchant', async () => {
    const { service, platform, approvals } = await world();
    expect(issuedId(await service.generate(label({ idempotencyKey: 'desk-first' }), DESK))).toBe('PP1000001');
    const careful = agent({ approval: 'always' }, 'careful');
    const answer = await service.generate(label({ idempotencyKey: 'desk-first' }), careful);
    expect(answer).toMatchObject({ kind: 'issued', outcome: { kind: 'created', replayed: true } });
    expect(platform.sent).toHaveLength(1);
    expect(await approvals.latest('key:desk-first', 'careful')).toBeUndefined();
  });

  it(`keeps at most ${MAX_PENDING_APPROVALS} approvals of one agent waiting`, async () => {
    const { service } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    for (let i = 0; i < MAX_PENDING_APPROVALS; i++) {
      expect(await service.generate(label({ idempotencyKey: `p-${i}` }), careful)).toMatchObject({
        reason: 'approval_pending',
      });
    }
    expect(await service.generate(label({ idempotencyKey: 'one-more' }), careful)).toEqual({
      kind: 'refused',
      refusal: {
        reason: 'agent_limit_reached',
        limit: 'pending_approvals',
        message: `This agent already has ${MAX_PENDING_APPROVALS} labels waiting for the merchant's approval; nothing was sent. Ask again once the merchant has answered some.`,
      },
    });
  });
});

describe('LabelService.approve over the daily limits', () => {
  it('says which limit and what is left without the second confirmation, and issues with it', async () => {
    const { service, platform, approvals } = await world();
    const policy = { approval: 'always', maxLabelsPerDay: 1, maxDeclaredValuePerDay: 500 } as const;
    const careful = agent(policy, 'careful');
    const first = approvalId(await service.generate(label({ idempotencyKey: 'l-1' }), careful));
    const second = approvalId(await service.generate(label({ idempotencyKey: 'l-2' }), careful));
    const pending = await approvals.get(second);
    expect(pending && (await service.approvalLimits(pending))).toEqual({
      labels: 1,
      declaredValue: 500,
      resetsAt: DAY_END,
    });
    const approvedFirst = await service.approve(first);
    expect('answer' in approvedFirst && issuedId(approvedFirst.answer)).toBe('PP1000001');
    expect(platform.sent).toHaveLength(1);
    expect(pending && (await service.approvalLimits(pending))).toEqual({
      labels: 0,
      declaredValue: 500 - 159.8,
      resetsAt: DAY_END,
      over: 'maxLabelsPerDay',
    });
    expect(await service.approve(second)).toEqual({
      overLimit: { labels: 0, declaredValue: 500 - 159.8, resetsAt: DAY_END, over: 'maxLabelsPerDay' },
    });
    expect(platform.sent).toHaveLength(1);
    expect((await approvals.get(second))?.state).toBe('pending');
    const confirmed = await service.approve(second, { overLimit: true });
    expect('answer' in confirmed && issuedId(confirmed.answer)).toBe('PP1000002');
    expect(platform.sent).toHaveLength(2);
  });

  it('names the declared value as the limit passed when labels are left', async () => {
    const { service, approvals } = await world();
    const careful = agent({ approval: 'always', maxDeclaredValuePerDay: 159.79 }, 'careful');
    const id = approvalId(await service.generate(label(), careful));
    const approval = await approvals.get(id);
    expect(approval && (await service.approvalLimits(approval))).toEqual({
      declaredValue: 159.79,
      resetsAt: DAY_END,
      over: 'maxDeclaredValuePerDay',
    });
    expect(await service.approve(id)).toEqual({
      overLimit: { declaredValue: 159.79, resetsAt: DAY_END, over: 'maxDeclaredValuePerDay' },
    });
  });
});

describe('LabelService.preview: what generate_label would do, creating nothing', () => {
  it('tells the service, the charged price, the limits left and what would be printed', async () => {
    const { service, platform } = await world();
    const preview = await service.preview(
      label({ orderId: 'PED-3', volume: 2 }),
      agent({ maxLabelsPerDay: 3, maxDeclaredValuePerDay: 300 }),
    );
    expect(preview).toEqual({
      serviceCode: '03298',
      serviceId: 'correios-pac',
      quotedPrice: 23.45,
      approvalRequired: false,
      limitsLeft: { labels: 3, declaredValue: 300, resetsAt: DAY_END },
      wouldSend: true,
      label: {
        recipient: SAMPLE_LABEL.recipient.nome,
        destination: `${SAMPLE_LABEL.recipient.endereco.logradouro}, ${SAMPLE_LABEL.recipient.endereco.numero} — Rio de Janeiro/RJ, CEP 20040-020`,
        service: 'correios-pac (03298)',
        weightGrams: 800,
        dimensions: '20 × 15 × 10 cm',
        declaredValue: 159.8,
        orderId: 'PED-3',
        volume: 2,
      },
    });
    expect(platform.sent).toHaveLength(0);
  });

  it('would not send a label the ledger has, nor one over the limits, nor one waiting for approval', async () => {
    const { service } = await world();
    await service.generate(label({ idempotencyKey: 'had' }), DESK);
    const had = await service.preview(label({ idempotencyKey: 'had' }), DESK);
    expect(had).toMatchObject({
      wouldSend: false,
      existing: { state: 'created', prepostagemId: 'PP1000001' },
    });
    expect(had).not.toHaveProperty('reason');
    const over = await service.preview(label(), agent({ maxDeclaredValuePerDay: 100 }));
    expect(over).toMatchObject({
      wouldSend: false,
      reason: 'agent_limit_reached',
      message: 'This label is over what this agent may still issue today.',
      limitsLeft: { declaredValue: 100, resetsAt: DAY_END },
    });
    const approval = await service.preview(label(), agent({ approval: 'always' }));
    expect(approval).toMatchObject({ wouldSend: false, approvalRequired: true, limitsLeft: {} });
    expect(approval).not.toHaveProperty('reason');
  });

  it('tells a refusal as generate_label would, with the field and the service asked for', async () => {
    const { service } = await world();
    const preview = await service.preview(label({ serviceCode: '99999' }), DESK);
    expect(preview).toMatchObject({
      serviceCode: '99999',
      approvalRequired: false,
      wouldSend: false,
      reason: 'unknown_service',
      field: 'serviceCode',
      label: { service: '99999' },
    });
    expect(preview).not.toHaveProperty('quotedPrice');
  });

  it('leaves the price out when the quote has none for the service', async () => {
    const state = await world();
    state.rates = [{ serviceId: 'correios-pac', price: 0, free: true }] as QuoteAnswer['rates'];
    expect(await state.service.preview(label(), DESK)).not.toHaveProperty('quotedPrice');
    state.quoteFails = true;
    expect(await state.service.preview(label(), DESK)).not.toHaveProperty('quotedPrice');
  });
});

describe('LabelService: an approval decided but not yet issued (a crash between the decision and the send)', () => {
  const limited = () => agent({ approval: 'always', maxLabelsPerDay: 1 }, 'careful');

  it("sends it on the agent's next call, within the agent's limits", async () => {
    const { service, platform, approvals } = await world();
    const id = approvalId(await service.generate(label({ idempotencyKey: 'crash' }), limited()));
    expect((await approvals.decide(id, 'approved')).decided).toBe(true);
    const answer = await service.generate(label({ idempotencyKey: 'crash' }), limited());
    expect(issuedId(answer)).toBe('PP1000001');
    expect((await approvals.get(id))?.attemptId).toBe(
      answer.kind === 'issued' && answer.outcome.kind === 'created' ? answer.outcome.attemptId : '',
    );
    expect(platform.sent).toHaveLength(1);
  });

  it('reopens it for the merchant when another label took the day meanwhile, and tells the limit on approve', async () => {
    const { service, platform, approvals } = await world();
    const first = approvalId(await service.generate(label({ idempotencyKey: 'crash' }), limited()));
    const second = approvalId(
      await service.generate(label({ idempotencyKey: 'other', weightGrams: 900 }), limited()),
    );
    await approvals.decide(first, 'approved');
    expect(issuedId(((await service.approve(second)) as { answer: LabelAnswer }).answer)).toBe('PP1000001');
    // The agent asks for the first: the ledger refuses it over the day's limit, and the merchant decides it again.
    expect(await service.generate(label({ idempotencyKey: 'crash' }), limited())).toMatchObject({
      kind: 'issued',
      outcome: { kind: 'refused', why: 'agent_limit_reached', limit: 'maxLabelsPerDay' },
    });
    expect((await approvals.get(first))?.state).toBe('pending');
    await approvals.decide(first, 'approved');
    expect(await service.approve(first)).toEqual({
      overLimit: { labels: 0, resetsAt: DAY_END, over: 'maxLabelsPerDay' },
    });
    expect((await approvals.get(first))?.state).toBe('pending');
    expect(platform.sent).toHaveLength(1);
    const confirmed = await service.approve(first, { overLimit: true });
    expect('answer' in confirmed && issuedId(confirmed.answer)).toBe('PP1000002');
    expect((await approvals.get(first))?.overLimit).toBe(true);
    expect((await approvals.get(second))?.overLimit).toBe(false);
  });

  it('asks the merchant again when the approved label never reached the platform', async () => {
    const { service, platform } = await world();
    const careful = agent({ approval: 'always' }, 'careful');
    const id = approvalId(await service.generate(label({ idempotencyKey: 'refused-conn' }), careful));
    platform.answers({ kind: 'not_sent' });
    expect(await service.approve(id)).toMatchObject({
      answer: { kind: 'issued', outcome: { kind: 'not_sent' } },
    });
    const again = await service.generate(label({ idempotencyKey: 'refused-conn' }), careful);
    expect(again).toMatchObject({ kind: 'approval', reason: 'approval_pending' });
    expect(approvalId(again)).not.toBe(id);
    expect(platform.sent).toHaveLength(1);
  });

  it('asks again for a request the carrier rejected under the key, and refuses another request under it', async () => {
    const { service, platform, approvals } = await world();
    platform.answers({ kind: 'reject' });
    expect(await service.generate(label({ idempotencyKey: 'rej' }), DESK)).toMatchObject({
      outcome: { kind: 'rejected' },
    });
    const careful = agent({ approval: 'always' }, 'careful');
    expect(await service.generate(label({ idempotencyKey: 'rej' }), careful)).toMatchObject({
      reason: 'approval_pending',
    });
    expect(await service.generate(label({ idempotencyKey: 'rej', weightGrams: 900 }), careful)).toMatchObject(
      {
        kind: 'issued',
        outcome: { kind: 'refused', why: 'key_conflict' },
      },
    );
    expect(await approvals.latest('key:rej', 'careful')).toMatchObject({ state: 'pending' });
    expect(platform.sent).toHaveLength(1);
  });
});
