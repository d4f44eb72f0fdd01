import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import {
  AgentLabelInputSchema,
  AgentLabelOutputSchema,
  PreviewLabelOutputSchema,
} from '../../shared/labels/agent-label.ts';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { DESK } from '../policies/policies.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { MAX_PENDING_APPROVALS } from './approvals.ts';

/**
 * Label requests as agents make them, through the SDK's client, a real BFF and the sandbox: every refusal of issues
 * 25 and 26 leaves the platform untouched (its call counts unchanged), and what is sent is sent once.
 */
const TOKENS = [
  { token: 'agent-all-scopes-0001', scopes: ['rates', 'tracking', 'labels'], name: 'shipper' },
  { token: 'agent-limited-000002', scopes: ['rates', 'labels'], name: 'robo', maxLabelsPerDay: 2 },
  { token: 'agent-approval-00003', scopes: ['labels'], name: 'careful', approval: 'always' },
  { token: 'agent-above-1000-004', scopes: ['labels'], name: 'big-spender', approval: 1000 },
  { token: 'agent-pac-only-00005', scopes: ['labels'], name: 'pac-only', services: ['correios-pac'] },
  { token: 'agent-declared-00006', scopes: ['labels'], name: 'valuer', maxDeclaredValuePerDay: 300 },
  // R$ 64,07: 6407 / 100 × 100 is 6406.999…, so a limit compared in floating point is off by a hair at the boundary.
  { token: 'agent-to-centavo-007', scopes: ['labels'], name: 'exact', maxDeclaredValuePerDay: 64.07 },
  { token: 'agent-ask-above-0008', scopes: ['labels'], name: 'threshold', approval: 64.07 },
];
const ENV = {
  BFF_AGENT_TOKENS: JSON.stringify(TOKENS),
  BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
};

let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
  bff = await startBff(sandbox.url, ENV, { labels: { pdfDelaysMs: [20, 40] } });
});
afterEach(async () => {
  await clients.closeAll();
  await bff.stop();
});

const connect = (token: string) => clients.connect(`${bff.url}/mcp`, token);
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  clients.call(client, name, args, 30_000);
const labelOf = (result: CallToolResult) => AgentLabelOutputSchema.parse(result.structuredContent);
/** generate_label calls the platform received for the demo store. */
const sent = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['mcp:generate_label'] ?? 0;
const { serviceCode: _code, ...withoutService } = SAMPLE_LABEL;
/** The sample label with its recipient's street number changed: another parcel. */
const parcel = (numero: string, extra: Record<string, unknown> = {}) => ({
  ...SAMPLE_LABEL,
  recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, numero } },
  ...extra,
});

describe('plausibility before money (issue 26)', () => {
  it('refuses a weight in kilograms given as grams, naming both, and sends nothing', async () => {
    const result = await call(
      await connect(TOKENS[0]?.token ?? ''),
      'generate_label',
      parcel('1', { weightGrams: 0.8 }),
    );
    expect(result.isError).toBe(true);
    expect(labelOf(result)).toMatchObject({ reason: 'implausible_weight', field: 'weightGrams' });
    expect(labelOf(result).status).toMatch(/0\.8 looks like kilograms — 800 g\?/);
    expect(await sent()).toBe(0);
  });

  it('refuses a declared value of R$ 1,000,000,000,000 and an over-long name, sending nothing', async () => {
    const client = await connect(TOKENS[0]?.token ?? '');
    const declared = await call(client, 'generate_label', {
      ...parcel('2'),
      declaredItems: [{ conteudo: 'Ouro', quantidade: 1, valor: 1_000_000_000_000 }],
    });
    expect(labelOf(declared)).toMatchObject({ reason: 'declared_value_over_limit', field: 'declaredItems' });
    const name = await call(client, 'generate_label', {
      ...parcel('3'),
      recipient: { ...SAMPLE_LABEL.recipient, nome: 'A'.repeat(80) },
    });
    expect(labelOf(name)).toMatchObject({ reason: 'invalid_party_field', field: 'recipient.nome' });
    expect(await sent()).toBe(0);
  });
});

describe('one declared value, in whole centavos (issue 26, attacker review)', () => {
  /** R$ 64,07 in two-decimal unit values a float cannot hold exactly: 3 × 19.99 + 0.07 + 0.1 + 3.93. */
  const AT_LIMIT = [
    { conteudo: 'Camiseta', quantidade: 3, valor: 19.99 },
    { conteudo: 'Adesivo', quantidade: 1, valor: 0.07 },
    { conteudo: 'Botão', quantidade: 1, valor: 0.1 },
    { conteudo: 'Meia', quantidade: 1, valor: 3.93 },
  ];
  const preview = async (client: Client, args: Record<string, unknown>) =>
    PreviewLabelOutputSchema.parse((await call(client, 'preview_label', args)).structuredContent);
  /** What the platform received for each label it created, as the sandbox recorded it. */
  const received = async () =>
    (
      (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
        prepostings: { request: unknown }[];
      }
    ).prepostings;

  it('refuses a unit value with a third decimal before anything is sent, whoever asks and however it would round', async () => {
    // Before: 9,999 × R$ 0,304 on PAC was R$ 2.999,70 to the rules (rounded per unit: within PAC's R$ 3.000) and
    // R$ 3.039,70 to the issuer's count (rounded on the total), and was sent; 50 lines of 9,999 × R$ 0,005 on SEDEX
    // were R$ 4.999,50 and R$ 2.499,75; R$ 99,99 + 9,999 × R$ 0,005 was R$ 199,98 and R$ 149,99, and was sent.
    const cases = [
      {
        token: TOKENS[0],
        serviceCode: '03298',
        items: [{ conteudo: 'Parafuso', quantidade: 9_999, valor: 0.304 }],
        field: 0,
      },
      {
        token: TOKENS[3],
        serviceCode: '03220',
        items: Array.from({ length: 50 }, () => ({ conteudo: 'Arruela', quantidade: 9_999, valor: 0.005 })),
        field: 0,
      },
      {
        token: TOKENS[5],
        serviceCode: '03220',
        items: [
          { conteudo: 'Livro', quantidade: 1, valor: 99.99 },
          { conteudo: 'Marcador', quantidade: 9_999, valor: 0.005 },
        ],
        field: 1,
      },
    ];
    for (const [n, { token, serviceCode, items, field }] of cases.entries()) {
      const client = await connect(token?.token ?? '');
      const input = { ...parcel(`80${n}`), serviceCode, declaredItems: items };
      const refused = await call(client, 'generate_label', input);
      expect(refused.isError).toBe(true);
      expect(labelOf(refused)).toMatchObject({
        reason: 'invalid_declared_item',
        field: `declaredItems[${field}].valor`,
      });
      expect(labelOf(refused).status).toMatch(/at most 2 decimal places/);
      expect(await preview(client, input)).toMatchObject({
        wouldSend: false,
        reason: 'invalid_declared_item',
        field: `declaredItems[${field}].valor`,
      });
    }
    expect(await sent()).toBe(0);
    expect(await bff.ledger.list()).toEqual([]);
    expect(await bff.backends.approvals.list()).toEqual([]);
  });

  it('holds a daily declared value of R$ 64,07 to the centavo: at the limit sent, one centavo more refused, and the platform got that very total', async () => {
    const client = await connect(TOKENS[6]?.token ?? '');
    const atLimit = { ...parcel('81'), declaredItems: AT_LIMIT };
    expect(await preview(client, atLimit)).toMatchObject({
      wouldSend: true,
      limitsLeft: { declaredValue: 64.07 },
      label: { declaredValue: 64.07 },
    });
    expect(labelOf(await call(client, 'generate_label', atLimit)).prepostagemId).toMatch(/^PP/);
    const [attempt] = await bff.ledger.list();
    expect(attempt?.declaredValueCents).toBe(6407);
    // The number counted is the number the platform received: the request it recorded, read with the shared schema.
    const [prepostagem, ...others] = await received();
    expect(others).toEqual([]);
    const { declaredItems } = GenerateLabelInputSchema.parse(prepostagem?.request);
    expect(declaredItems).toEqual(AT_LIMIT);
    expect(declaredValueCents(declaredItems)).toBe(6407);

    const oneCentavo = { ...parcel('82'), declaredItems: [{ conteudo: 'Bala', quantidade: 1, valor: 0.01 }] };
    expect(await preview(client, oneCentavo)).toMatchObject({
      wouldSend: false,
      reason: 'agent_limit_reached',
      limitsLeft: { declaredValue: 0 },
    });
    expect(labelOf(await call(client, 'generate_label', oneCentavo))).toMatchObject({
      reason: 'agent_limit_reached',
      limit: 'maxDeclaredValuePerDay',
    });
    expect(await sent()).toBe(1);
  });

  it('asks the merchant above an approval threshold of R$ 64,07 and not at it, storing the same total', async () => {
    const client = await connect(TOKENS[7]?.token ?? '');
    const atThreshold = { ...parcel('83'), declaredItems: AT_LIMIT };
    expect(await preview(client, atThreshold)).toMatchObject({ approvalRequired: false, wouldSend: true });
    expect(labelOf(await call(client, 'generate_label', atThreshold)).prepostagemId).toMatch(/^PP/);
    const above = {
      ...parcel('84'),
      declaredItems: [...AT_LIMIT, { conteudo: 'Bala', quantidade: 1, valor: 0.01 }],
    };
    expect(await preview(client, above)).toMatchObject({ approvalRequired: true, wouldSend: false });
    expect(labelOf(await call(client, 'generate_label', above))).toMatchObject({
      reason: 'approval_pending',
    });
    expect((await bff.backends.approvals.list()).map((a) => a.declaredValueCents)).toEqual([6408]);
    expect((await bff.ledger.list()).map((a) => a.declaredValueCents)).toEqual([6407]);
    expect(await sent()).toBe(1);
  });
});

describe('identifiers with control characters', () => {
  it('refuses an orderId or idempotencyKey holding a NUL or a line break, sending nothing', async () => {
    const client = await connect(TOKENS[0]?.token ?? '');
    for (const extra of [
      { orderId: 'PED\u00001' },
      { orderId: 'PED-1\n' },
      { idempotencyKey: 'key\u0000' },
    ]) {
      const refused = await call(client, 'generate_label', { ...parcel('80'), ...extra });
      expect(refused.isError).toBe(true);
    }
    expect(await sent()).toBe(0);
    expect(await bff.ledger.list()).toEqual([]);
  });
});

describe('from quote to label (issue 25)', () => {
  it('carries the contract code on each quoted option, and labels with the option’s serviceId', async () => {
    const client = await connect(TOKENS[0]?.token ?? '');
    const quote = await call(client, 'get_shipping_rates', {
      destinationCep: '20040-020',
      items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }],
    });
    const rates = (quote.structuredContent as { rates: { serviceId: string; serviceCode?: string }[] }).rates;
    expect(rates.find((rate) => rate.serviceId === 'correios-pac')?.serviceCode).toBe('03298');
    const label = await call(client, 'generate_label', { ...withoutService, serviceId: 'correios-pac' });
    expect(labelOf(label)).toMatchObject({ prepostagemId: expect.stringMatching(/^PP/) });
    const [prepostagem] = (
      (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
        prepostings: { serviceCode: string }[];
      }
    ).prepostings;
    expect(prepostagem?.serviceCode).toBe('03298');
  });

  it('refuses a presentation code, an unmapped serviceId and a contradicting pair, listing the mapped services', async () => {
    const client = await connect(TOKENS[0]?.token ?? '');
    for (const service of [
      { serviceCode: 'PAC' },
      { serviceId: 'jadlog-package' },
      { serviceId: 'correios-pac', serviceCode: '03220' },
    ]) {
      const result = await call(client, 'generate_label', { ...withoutService, ...service });
      expect(result.isError).toBe(true);
      expect(labelOf(result)).toMatchObject({ reason: 'unknown_service' });
      expect(labelOf(result).status).toContain('correios-pac → 03298, correios-sedex → 03220');
    }
    expect(await sent()).toBe(0);
  });
});

describe('orders and volumes (issue 25)', () => {
  it('issues two labels for two identical boxes, replays a volume, and refuses another request for it', async () => {
    const client = await connect(TOKENS[0]?.token ?? '');
    const box = { ...parcel('10'), orderId: 'PED-100' };
    const one = labelOf(await call(client, 'generate_label', { ...box, volume: 1 }));
    const two = labelOf(await call(client, 'generate_label', { ...box, volume: 2 }));
    expect(one.prepostagemId).not.toBe(two.prepostagemId);
    expect([one.orderId, one.volume, two.volume]).toEqual(['PED-100', 1, 2]);
    expect(await sent()).toBe(2);
    const again = await call(client, 'generate_label', { ...box, volume: 1 });
    expect(labelOf(again)).toMatchObject({ prepostagemId: one.prepostagemId });
    const conflict = await call(client, 'generate_label', { ...parcel('11'), orderId: 'PED-100', volume: 1 });
    expect(conflict.isError).toBe(true);
    expect(labelOf(conflict)).toMatchObject({ reason: 'order_volume_conflict' });
    expect(await sent()).toBe(2);
    expect((await bff.ledger.byOrder('PED-100')).map((a) => [a.volume, a.issuedBy])).toEqual([
      [1, 'shipper'],
      [2, 'shipper'],
    ]);
  });
});

describe('agent policies (issue 26)', () => {
  it('refuses the third label of a day with which limit it is and when it resets, sending nothing', async () => {
    const client = await connect(TOKENS[1]?.token ?? '');
    for (const n of ['20', '21']) {
      expect(labelOf(await call(client, 'generate_label', parcel(n))).prepostagemId).toMatch(/^PP/);
    }
    const third = await call(client, 'generate_label', parcel('22'));
    expect(third.isError).toBe(true);
    expect(labelOf(third)).toMatchObject({
      reason: 'agent_limit_reached',
      limit: 'maxLabelsPerDay',
      resetsAt: expect.stringMatching(/T03:00:00\.000Z$/),
    });
    expect(await sent()).toBe(2);
    // Another agent has its own day.
    expect(
      labelOf(await call(await connect(TOKENS[0]?.token ?? ''), 'generate_label', parcel('22')))
        .prepostagemId,
    ).toMatch(/^PP/);
  });

  it('counts declared value per day, and keeps an agent to its services', async () => {
    const valuer = await connect(TOKENS[5]?.token ?? '');
    const item = (valor: number) => ({ declaredItems: [{ conteudo: 'Livro', quantidade: 1, valor }] });
    expect(labelOf(await call(valuer, 'generate_label', parcel('30', item(200)))).prepostagemId).toMatch(
      /^PP/,
    );
    expect(labelOf(await call(valuer, 'generate_label', parcel('31', item(150))))).toMatchObject({
      reason: 'agent_limit_reached',
      limit: 'maxDeclaredValuePerDay',
    });
    const pacOnly = await connect(TOKENS[4]?.token ?? '');
    expect(
      labelOf(await call(pacOnly, 'generate_label', { ...parcel('32'), serviceCode: '03220' })),
    ).toMatchObject({
      reason: 'agent_limit_reached',
      limit: 'services',
    });
    expect(await sent()).toBe(1);
  });

  it('previews price, policy and what would be printed, and creates nothing', async () => {
    const client = await connect(TOKENS[1]?.token ?? '');
    const preview = PreviewLabelOutputSchema.parse(
      (await call(client, 'preview_label', { ...parcel('40'), orderId: 'PED-400' })).structuredContent,
    );
    expect(preview).toMatchObject({
      serviceCode: '03298',
      serviceId: 'correios-pac',
      approvalRequired: false,
      wouldSend: true,
      limitsLeft: { labels: 2 },
      label: { recipient: SAMPLE_LABEL.recipient.nome, orderId: 'PED-400', volume: 1, weightGrams: 800 },
    });
    expect(preview.quotedPrice).toBeGreaterThan(0);
    const implausible = PreviewLabelOutputSchema.parse(
      (await call(client, 'preview_label', parcel('41', { weightGrams: 0.8 }))).structuredContent,
    );
    expect(implausible).toMatchObject({
      wouldSend: false,
      reason: 'implausible_weight',
      field: 'weightGrams',
    });
    expect(await sent()).toBe(0);
    expect(await bff.ledger.list()).toEqual([]);
  });
});

describe('approval by the merchant (issue 26)', () => {
  it('waits for the merchant, sends nothing, and answers the label on the next call once approved', async () => {
    const client = await connect(TOKENS[2]?.token ?? '');
    const input = { ...parcel('50'), idempotencyKey: 'needs-ok-1' };
    const pending = await call(client, 'generate_label', input);
    expect(pending.isError).not.toBe(true);
    const { approvalId } = labelOf(pending);
    expect(labelOf(pending)).toMatchObject({ reason: 'approval_pending', approvalId: expect.any(String) });
    expect(labelOf(await call(client, 'generate_label', input))).toMatchObject({ approvalId });
    expect(await sent()).toBe(0);
    const approvals = await bff.backends.approvals.list();
    expect(approvals).toMatchObject([{ id: approvalId, state: 'pending', issuedBy: 'careful' }]);
    expect(approvals[0]?.quotedPriceCents).toBeGreaterThan(0);
    // Approved twice at once: issued once.
    const [first, second] = await Promise.all([
      bff.labels.approve(approvalId ?? ''),
      bff.labels.approve(approvalId ?? ''),
    ]);
    expect([first, second].every((r) => 'answer' in r && r.answer.kind === 'issued')).toBe(true);
    expect(await sent()).toBe(1);
    const label = labelOf(await call(client, 'generate_label', input));
    expect(label.prepostagemId).toMatch(/^PP/);
    expect(await sent()).toBe(1);
    expect((await bff.ledger.list())[0]?.issuedBy).toBe('careful');
  });

  it('answers approval_rejected after the merchant rejects, and sends nothing', async () => {
    const client = await connect(TOKENS[2]?.token ?? '');
    const input = { ...parcel('51'), orderId: 'PED-510' };
    const { approvalId } = labelOf(await call(client, 'generate_label', input));
    expect(await bff.labels.reject(approvalId ?? '')).toEqual({ rejected: true });
    expect(await bff.labels.approve(approvalId ?? '')).toEqual({ notPending: 'rejected' });
    const rejected = await call(client, 'generate_label', input);
    expect(rejected.isError).toBe(true);
    expect(labelOf(rejected)).toMatchObject({ reason: 'approval_rejected', approvalId });
    expect(await sent()).toBe(0);
  });

  it('asks only above the agent’s declared-value threshold', async () => {
    const client = await connect(TOKENS[3]?.token ?? '');
    const cheap = await call(client, 'generate_label', parcel('52'));
    expect(labelOf(cheap).prepostagemId).toMatch(/^PP/);
    const dear = await call(client, 'generate_label', {
      ...parcel('53'),
      declaredItems: [{ conteudo: 'Notebook', quantidade: 1, valor: 2500 }],
      serviceCode: '03220',
    });
    expect(labelOf(dear)).toMatchObject({ reason: 'approval_pending' });
    expect(await sent()).toBe(1);
  });
});

describe('an approval is for one request, of one caller, spent once (attacker review of issue 26)', () => {
  const careful = { issuedBy: 'careful', policy: { approval: 'always' as const } };

  it('does not issue another request under the order of an approval whose label was not made', async () => {
    const client = await connect(TOKENS[2]?.token ?? '');
    const asked = { ...parcel('70'), orderId: 'PED-700' };
    const { approvalId } = labelOf(await call(client, 'generate_label', asked));
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'error502', times: 1 });
    const approved = await bff.labels.approve(approvalId ?? '');
    expect(approved).toMatchObject({ answer: { kind: 'issued', outcome: { kind: 'not_sent' } } });
    // The platform counts the call it refused (502) before its tool ran: nothing was created.
    const refused = await sent();
    // The same order and volume, another parcel worth 30 times more: the merchant approved the first, not this.
    const swapped = {
      ...parcel('71'),
      orderId: 'PED-700',
      declaredItems: [{ conteudo: 'Notebook', quantidade: 1, valor: 2500 }],
      serviceCode: '03220',
    };
    const answer = labelOf(await call(client, 'generate_label', swapped));
    expect(answer).toMatchObject({ reason: 'approval_pending' });
    expect(answer.approvalId).not.toBe(approvalId);
    // Asked again after its label was not made, the approved request itself goes back to the merchant too.
    const again = labelOf(await call(client, 'generate_label', asked));
    expect(again).toMatchObject({ reason: 'approval_pending' });
    expect(await sent()).toBe(refused);
    expect((await bff.ledger.list()).filter((attempt) => attempt.state === 'created')).toEqual([]);
  });

  it('answers the platform’s rejection of an approved label, and does not ask the merchant again for it', async () => {
    const client = await connect(TOKENS[2]?.token ?? '');
    // A CEP no state begins at: only the carrier knows its coverage, and refuses it (the BFF checks a UF's CEP first).
    const wrongState = { ...SAMPLE_LABEL.recipient.endereco, numero: '74', cep: '00100-000' };
    const input = { ...SAMPLE_LABEL, recipient: { ...SAMPLE_LABEL.recipient, endereco: wrongState } };
    const asked = { ...input, idempotencyKey: 'rejected-once' };
    const { approvalId } = labelOf(await call(client, 'generate_label', asked));
    const approved = await bff.labels.approve(approvalId ?? '');
    expect(approved).toMatchObject({ answer: { outcome: { kind: 'rejected' } } });
    const again = await call(client, 'generate_label', asked);
    expect(labelOf(again)).toMatchObject({ reason: 'prepostagem_rejected' });
    expect(await bff.backends.approvals.list()).toHaveLength(1);
    expect(await sent()).toBe(1);
  });

  it('answers an approved label after the dedupe window without sending it again, however often it is approved', async () => {
    let now = Date.now();
    const clocked = await startBff(sandbox.url, ENV, { now: () => now, labels: { pdfDelaysMs: [20] } });
    try {
      const client = await clients.connect(`${clocked.url}/mcp`, TOKENS[2]?.token ?? '');
      // Neither key nor order: the request itself is the intended label, deduplicated for 24 hours.
      const input = parcel('72');
      const { approvalId } = labelOf(await call(client, 'generate_label', input));
      const approved = await clocked.labels.approve(approvalId ?? '');
      expect(approved).toMatchObject({ answer: { outcome: { kind: 'created' } } });
      expect(await sent()).toBe(1);
      now += 25 * 3_600_000;
      const later = labelOf(await call(client, 'generate_label', input));
      const reapproved = await clocked.labels.approve(approvalId ?? '');
      expect(reapproved).toMatchObject({ answer: { outcome: { kind: 'created' } } });
      const first =
        'answer' in approved && approved.answer.kind === 'issued' ? approved.answer.outcome : undefined;
      const again =
        'answer' in reapproved && reapproved.answer.kind === 'issued' ? reapproved.answer.outcome : undefined;
      const prepostagemId = first?.kind === 'created' ? first.record.prepostagemId : undefined;
      expect(later.prepostagemId).toBe(prepostagemId);
      expect(again?.kind === 'created' ? again.record.prepostagemId : undefined).toBe(prepostagemId);
      expect(await sent()).toBe(1);
    } finally {
      await clocked.stop();
    }
  });

  it('is the asking agent’s own: the desk and another agent are not held by it', async () => {
    const client = await connect(TOKENS[2]?.token ?? '');
    const input = { ...parcel('73'), orderId: 'PED-730' };
    const { approvalId } = labelOf(await call(client, 'generate_label', input));
    expect(await bff.labels.reject(approvalId ?? '')).toEqual({ rejected: true });
    // Another agent whose policy asks above R$ 1,000 issues its cheap label for that order: not refused as rejected.
    const other = labelOf(await call(await connect(TOKENS[3]?.token ?? ''), 'generate_label', input));
    expect(other.prepostagemId).toMatch(/^PP/);
    // The desk is the merchant: an agent's pending approval of an order's next volume never holds it.
    const pending = labelOf(await call(client, 'generate_label', { ...input, volume: 2 }));
    expect(pending).toMatchObject({ reason: 'approval_pending' });
    const desk = await bff.labels.generate(AgentLabelInputSchema.parse({ ...input, volume: 2 }), DESK);
    expect(desk).toMatchObject({ kind: 'issued', outcome: { kind: 'created' } });
    expect(await sent()).toBe(2);
    expect((await bff.ledger.list()).map((attempt) => attempt.issuedBy).sort()).toEqual([
      'big-spender',
      'desk',
    ]);
  });

  it(`keeps at most ${MAX_PENDING_APPROVALS} approvals of one agent waiting, refusing the next with nothing sent`, async () => {
    const ask = (n: number) =>
      bff.labels.generate(
        AgentLabelInputSchema.parse({ ...parcel(String(1000 + n)), orderId: `PED-F${n}` }),
        careful,
      );
    for (let n = 0; n < MAX_PENDING_APPROVALS - 5; n++) {
      expect(await ask(n)).toMatchObject({ kind: 'approval', reason: 'approval_pending' });
    }
    // Twenty more at once, five places left: five wait, fifteen are refused.
    const rush = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(MAX_PENDING_APPROVALS - 5 + i)));
    expect(rush.filter((answer) => answer.kind === 'approval')).toHaveLength(5);
    expect(rush.filter((answer) => answer.kind === 'refused')).toHaveLength(15);
    expect(await bff.backends.approvals.list({ state: 'pending' })).toHaveLength(MAX_PENDING_APPROVALS);
    const over = await bff.labels.generate(
      AgentLabelInputSchema.parse({ ...parcel('2000'), orderId: 'PED-F-over' }),
      careful,
    );
    expect(over).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'agent_limit_reached', limit: 'pending_approvals' },
    });
    // Asking again for one already waiting answers it; another agent is not held by this one's queue.
    const waiting = await bff.labels.generate(
      AgentLabelInputSchema.parse({ ...parcel('1000'), orderId: 'PED-F0' }),
      careful,
    );
    expect(waiting).toMatchObject({ kind: 'approval', reason: 'approval_pending' });
    const someoneElse = await bff.labels.generate(AgentLabelInputSchema.parse({ ...parcel('2001') }), {
      ...careful,
      issuedBy: 'other',
    });
    expect(someoneElse).toMatchObject({ kind: 'approval', reason: 'approval_pending' });
    expect(await sent()).toBe(0);
  });
});

describe('an approval nobody answers', () => {
  it('expires after 24 hours: the agent is told once, and its next call asks the merchant again', async () => {
    let now = Date.now();
    const clocked = await startBff(sandbox.url, ENV, { now: () => now, labels: { pdfDelaysMs: [20] } });
    try {
      const client = await clients.connect(`${clocked.url}/mcp`, TOKENS[2]?.token ?? '');
      const input = { ...parcel('60'), idempotencyKey: 'nobody-answers' };
      const first = labelOf(await call(client, 'generate_label', input));
      now += 24 * 3_600_000 - 1;
      expect(labelOf(await call(client, 'generate_label', input))).toMatchObject({
        reason: 'approval_pending',
        approvalId: first.approvalId,
      });
      now += 1;
      const expired = await call(client, 'generate_label', input);
      expect(expired.isError).toBe(true);
      expect(labelOf(expired)).toMatchObject({ reason: 'approval_expired', approvalId: first.approvalId });
      expect(await clocked.labels.approve(first.approvalId ?? '')).toEqual({ notPending: 'expired' });
      const asked = labelOf(await call(client, 'generate_label', input));
      expect(asked).toMatchObject({ reason: 'approval_pending' });
      expect(asked.approvalId).not.toBe(first.approvalId);
      expect(await sent()).toBe(0);
    } finally {
      await clocked.stop();
    }
  });
});

describe('plan_shipment: an order in the merchant’s boxes, then one label per volume (issue 25)', () => {
  it('plans two volumes for two boxes’ worth of items and issues a label for each', async () => {
    const boxes = [
      { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 100, maxWeightGrams: 5000 },
      { id: 'M', comprimento: 30, largura: 20, altura: 15, tareGrams: 180, maxWeightGrams: 10000 },
    ];
    const planner = await startBff(sandbox.url, { ...ENV, BFF_BOXES: JSON.stringify(boxes) });
    try {
      const client = await clients.connect(`${planner.url}/mcp`, TOKENS[0]?.token ?? '');
      const plan = await call(client, 'plan_shipment', {
        items: [{ id: 'bota', comprimento: 30, largura: 20, altura: 15, weightGrams: 1200, quantity: 2 }],
      });
      const { volumes } = plan.structuredContent as {
        volumes: {
          box: string;
          weightGrams: number;
          dimensions: { comprimento: number; largura: number; altura: number };
        }[];
      };
      expect(volumes.map((v) => [v.box, v.weightGrams])).toEqual([
        ['M', 1380],
        ['M', 1380],
      ]);
      for (const [i, volume] of volumes.entries()) {
        const label = await call(client, 'generate_label', {
          ...parcel('70'),
          orderId: 'PED-700',
          volume: i + 1,
          weightGrams: volume.weightGrams,
          dimensions: volume.dimensions,
        });
        expect(labelOf(label).prepostagemId).toMatch(/^PP/);
      }
      expect(await sent()).toBe(2);
      const none = await call(client, 'plan_shipment', {
        items: [{ id: 'sofa', comprimento: 180, largura: 90, altura: 80, weightGrams: 40000, quantity: 1 }],
      });
      expect(none.isError).toBe(true);
      expect(none.structuredContent).toMatchObject({ reason: 'item_does_not_fit', itemId: 'sofa' });
    } finally {
      await planner.stop();
    }
  });
});
