import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectMcp } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { GenerateLabelOutputSchema } from '../../shared/labels/label.ts';
import { connectAgent } from '../labels/testing/soak.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { deskSession } from './testing.ts';

const PASSWORD = 'senha-do-lojista-desk';
const TOKENS = [
  { token: 'agent-careful-000001', scopes: ['labels'], name: 'careful', approval: 'always' },
  { token: 'agent-all-scopes-0001', scopes: ['rates', 'tracking', 'labels'], name: 'shipper' },
];
let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_AGENT_TOKENS: JSON.stringify(TOKENS),
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    BFF_BOXES: JSON.stringify([
      { id: 'M', comprimento: 30, largura: 20, altura: 15, tareGrams: 180, maxWeightGrams: 10000 },
    ]),
  });
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('faults', undefined, 'DELETE');
});

const login = () => deskSession(bff.url, PASSWORD);

let merchant: { cookie: string; csrf: string };
beforeAll(async () => {
  merchant = await login();
});

const get = (path: string, headers: Record<string, string> = { cookie: merchant.cookie }) =>
  fetch(`${bff.url}${path}`, { headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${bff.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: merchant.cookie,
      'x-csrf-token': merchant.csrf,
      ...headers,
    },
    body: JSON.stringify(body),
  });
const order = (numero: string) => ({
  ...SAMPLE_LABEL,
  recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, numero } },
});
const sent = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo']?.['mcp:generate_label'] ?? 0;

describe('the desk API behind the merchant’s session', () => {
  it('answers 401 without a session, 403 without the CSRF token or from another origin, and sends nothing', async () => {
    expect((await get('/admin/api/labels', {})).status).toBe(401);
    expect((await get('/admin/api/session', { cookie: 'admin_session=forged' })).status).toBe(401);
    const before = await sent();
    const noToken = await post('/admin/api/labels', order('1'), { 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toMatchObject({ error: { code: 'invalid_csrf_token' } });
    const foreign = await post('/admin/api/labels', order('1'), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
    expect(await sent()).toBe(before);
  });

  it('plans, quotes and issues a two-box order, lists and finds it, and prints both labels as one 2-page PDF', async () => {
    const plan = await post('/admin/api/plan', {
      items: [{ id: 'bota', comprimento: 30, largura: 20, altura: 15, weightGrams: 1200, quantity: 2 }],
    });
    const { volumes } = (await plan.json()) as {
      volumes: {
        weightGrams: number;
        dimensions: { comprimento: number; largura: number; altura: number };
      }[];
    };
    expect(volumes).toHaveLength(2);
    const quote = (await (
      await post('/admin/api/quote', {
        destinationCep: SAMPLE_LABEL.recipient.endereco.cep,
        volumes: volumes.map((v) => ({ weightGrams: v.weightGrams })),
        declaredValue: 159.8,
      })
    ).json()) as { rates: { serviceId: string; serviceCode?: string }[] };
    const pac = quote.rates.find((rate) => rate.serviceId === 'correios-pac');
    expect(pac?.serviceCode).toBe('03298');
    const { serviceCode: _code, ...label } = order('200');
    const ids: string[] = [];
    for (const [i, volume] of volumes.entries()) {
      const issued = await post('/admin/api/labels', {
        ...label,
        serviceId: pac?.serviceId,
        orderId: 'PED-DESK-1',
        volume: i + 1,
        weightGrams: volume.weightGrams,
        dimensions: volume.dimensions,
      });
      expect(issued.status).toBe(201);
      ids.push(((await issued.json()) as { attemptId: string }).attemptId);
    }
    const found = (await (await get('/admin/api/labels?q=ped-desk')).json()) as {
      labels: { attemptId: string; issuedBy: string; volume: number; state: string }[];
    };
    expect(found.labels.map((l) => [l.volume, l.issuedBy, l.state])).toEqual([
      [2, 'desk', 'created'],
      [1, 'desk', 'created'],
    ]);
    const print = await get(`/admin/api/labels/print?ids=${ids.join(',')}`);
    expect(print.status).toBe(200);
    expect(print.headers.get('content-type')).toBe('application/pdf');
    const merged = await PDFDocument.load(new Uint8Array(await print.arrayBuffer()));
    expect(merged.getPageCount()).toBe(2);
    // A reprint of one is the same label again, not a new one.
    expect((await get(`/admin/api/labels/print?ids=${ids[0]}`)).status).toBe(200);
    // The ledger page's print form sends one `ids` per ticked box: the same PDF, in that order.
    const form = await get(`/admin/api/labels/print?ids=${ids[1]}&ids=${ids[0]}`);
    expect(form.status).toBe(200);
    expect((await PDFDocument.load(new Uint8Array(await form.arrayBuffer()))).getPageCount()).toBe(2);
    expect(await sent()).toBe(2);
  });

  it('refuses what the desk must not send, as an agent would be refused', async () => {
    const before = await sent();
    const implausible = await post('/admin/api/labels', { ...order('3'), weightGrams: 0.8 });
    expect(implausible.status).toBe(422);
    expect(await implausible.json()).toMatchObject({ reason: 'implausible_weight', field: 'weightGrams' });
    const bad = await post('/admin/api/labels', { nope: true });
    expect(bad.status).toBe(400);
    expect((await get('/admin/api/labels/print?ids=no-such-id')).status).toBe(409);
    expect(await sent()).toBe(before);
  });

  it('shows an unknown attempt beside the platform’s history and resolves it with the matching pre-posting', async () => {
    // Another client sent the identical request first; then the desk's answer was lost: two matches, no guess.
    const other = await connectAgent(sandbox.url, 'mk_test_demo');
    await other.callTool({ name: 'generate_label', arguments: order('300') });
    await other.close();
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit', times: 1 });
    const lost = (await (await post('/admin/api/labels', order('300'))).json()) as {
      reason: string;
      attemptId: string;
    };
    expect(lost.reason).toBe('outcome_unknown');
    const detail = (await (await get(`/admin/api/labels/${lost.attemptId}`)).json()) as {
      label: { state: string; unknownWhy: string };
      history: { attempt: { prepostagemId: string }; sameRequest: boolean; boundElsewhere: boolean }[];
    };
    expect(detail.label).toMatchObject({ state: 'unknown', unknownWhy: 'ambiguous' });
    const matching = detail.history.filter((entry) => entry.sameRequest && !entry.boundElsewhere);
    expect(matching).toHaveLength(2);
    const refused = await post(`/admin/api/labels/${lost.attemptId}/resolve`, {
      prepostagemId: 'PP<script>',
    });
    expect(refused.status).toBe(400);
    // "Nothing was created" would let the request go again while the history shows its pre-postings unbound.
    const notCreated = await post(`/admin/api/labels/${lost.attemptId}/resolve`, { notCreated: true });
    expect(notCreated.status).toBe(409);
    expect(await notCreated.json()).toMatchObject({ error: { code: 'created_in_history' } });
    const chosen = matching[1]?.attempt.prepostagemId;
    const resolved = await post(`/admin/api/labels/${lost.attemptId}/resolve`, { prepostagemId: chosen });
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ label: { state: 'created', prepostagemId: chosen } });
    // The same intended label is now that label: asking again replays it, nothing new is sent.
    const before = await sent();
    const again = await post('/admin/api/labels', order('300'));
    expect(await again.json()).toMatchObject({ prepostagemId: chosen });
    expect(await sent()).toBe(before);
  });

  it('sends a not-sent attempt again as the same intended label (order, volume), once, and refuses any other state', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const lost = (await (
      await post('/admin/api/labels', { ...order('410'), orderId: 'PED-REENVIO', volume: 2 })
    ).json()) as {
      attemptId: string;
    };
    // Unknown: not sent again blindly.
    const early = await post(`/admin/api/labels/${lost.attemptId}/resend`, {});
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: 'not_resendable' } });
    await post(`/admin/api/labels/${lost.attemptId}/resolve`, { notCreated: true });
    const before = await sent();
    const [a, b] = await Promise.all([
      post(`/admin/api/labels/${lost.attemptId}/resend`, {}),
      post(`/admin/api/labels/${lost.attemptId}/resend`, {}),
    ]);
    const bodies = [await a.json(), await b.json()] as {
      prepostagemId?: string;
      orderId?: string;
      volume?: number;
    }[];
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(bodies[0]).toMatchObject({
      orderId: 'PED-REENVIO',
      volume: 2,
      prepostagemId: expect.stringMatching(/^PP/),
    });
    expect(bodies[1]?.prepostagemId).toBe(bodies[0]?.prepostagemId);
    expect(await sent()).toBe(before + 1);
    // The old attempt stays not sent; a created one is never sent again.
    const created = (await (await get('/admin/api/labels?q=ped-reenvio&state=created')).json()) as {
      labels: { attemptId: string; issuedBy: string }[];
    };
    expect(created.labels).toHaveLength(1);
    expect((await post(`/admin/api/labels/${created.labels[0]?.attemptId}/resend`, {})).status).toBe(409);
    expect((await post('/admin/api/labels/00000000-0000-0000-0000-000000000000/resend', {})).status).toBe(
      404,
    );
    expect(await sent()).toBe(before + 1);
  });

  it('resolves an unknown attempt as not created, after which the same request may be sent again', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const lost = (await (await post('/admin/api/labels', order('400'))).json()) as { attemptId: string };
    const resolved = await post(`/admin/api/labels/${lost.attemptId}/resolve`, { notCreated: true });
    expect(await resolved.json()).toMatchObject({ label: { state: 'not_sent' } });
    const issued = await post('/admin/api/labels', order('400'));
    expect(issued.status).toBe(201);
  });

  it('asks for a written reason to decide "not created" once the history no longer reaches back to the attempt', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const lost = (await (await post('/admin/api/labels', order('7099'))).json()) as { attemptId: string };
    // Ten more labels: the platform lists its ten most recent attempts, all younger than this one.
    for (let n = 0; n < 10; n++) {
      const made = await post('/admin/api/labels', order(String(7100 + n)));
      expect([made.status, await made.text()]).toEqual([201, expect.any(String)]);
    }
    const refused = await post(`/admin/api/labels/${lost.attemptId}/resolve`, { notCreated: true });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'history_too_short' } });
    const forced = await post(`/admin/api/labels/${lost.attemptId}/resolve`, {
      notCreated: true,
      force: 'carrier panel: no pre-posting for this parcel',
    });
    expect(await forced.json()).toMatchObject({ label: { state: 'not_sent' } });
  });

  it('never binds, even forced, a pre-posting the history lists for another request, and takes only S10 tracking codes', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const lost = (await (await post('/admin/api/labels', order('7300'))).json()) as { attemptId: string };
    // Another customer's pre-posting, made on the platform outside this BFF (a storefront app): no attempt holds it.
    const platform = await connectMcp(`${sandbox.url}/mcp`, { authorization: 'Bearer mk_test_demo' });
    const other = GenerateLabelOutputSchema.parse(
      (await callTool(platform, 'generate_label', order('7301'))).structuredContent,
    );
    await platform.close();
    const force = 'the carrier panel shows it for this parcel';
    const bound = await post(`/admin/api/labels/${lost.attemptId}/resolve`, {
      prepostagemId: other.prepostagemId,
      force,
    });
    expect(bound.status).toBe(409);
    expect(await bound.json()).toMatchObject({ error: { code: 'other_request' } });
    for (const trackingCode of ['AB123', 'DG049186227BR', '<b>x</b>']) {
      const malformed = await post(`/admin/api/labels/${lost.attemptId}/resolve`, {
        prepostagemId: 'PP7777777777',
        trackingCode,
        force,
      });
      expect(malformed.status, trackingCode).toBe(400);
      expect(await malformed.json()).toMatchObject({ error: { code: 'malformed_tracking_code' } });
    }
    // Force is for a history that no longer lists the pre-posting: that one is taken, with its S10 code.
    const forced = await post(`/admin/api/labels/${lost.attemptId}/resolve`, {
      prepostagemId: 'PP7777777777',
      trackingCode: 'dg 049186226 br',
      force,
    });
    expect(forced.status).toBe(200);
    expect(await forced.json()).toMatchObject({
      label: { state: 'created', prepostagemId: 'PP7777777777', trackingCode: 'DG049186226BR' },
    });
  });

  it('lists an agent’s pending approval in full, approves it once (issuing the label) and rejects another', async () => {
    const agent = await connectAgent(bff.url, TOKENS[0]?.token ?? '');
    const ask = (numero: string) =>
      agent.callTool({
        name: 'generate_label',
        arguments: { ...order(numero), idempotencyKey: `ok-${numero}` },
      });
    await ask('500');
    await ask('501');
    const { approvals } = (await (await get('/admin/api/approvals?state=pending')).json()) as {
      approvals: {
        approvalId: string;
        issuedBy: string;
        request: { recipient: { endereco: { numero: string } } };
        quotedPrice?: number;
      }[];
    };
    const first = approvals.find((a) => a.request.recipient.endereco.numero === '500');
    const second = approvals.find((a) => a.request.recipient.endereco.numero === '501');
    expect(first).toMatchObject({ issuedBy: 'careful', quotedPrice: expect.any(Number) });
    const before = await sent();
    const [a, b] = await Promise.all([
      post(`/admin/api/approvals/${first?.approvalId}/approve`, {}),
      post(`/admin/api/approvals/${first?.approvalId}/approve`, {}),
    ]);
    const bodies = [await a.json(), await b.json()] as { prepostagemId?: string }[];
    expect(bodies[0]?.prepostagemId).toMatch(/^PP/);
    expect(bodies[1]?.prepostagemId).toBe(bodies[0]?.prepostagemId);
    expect(await sent()).toBe(before + 1);
    expect((await post(`/admin/api/approvals/${second?.approvalId}/reject`, {})).status).toBe(200);
    const late = await post(`/admin/api/approvals/${second?.approvalId}/approve`, {});
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      error: { code: 'approval_not_pending', message: 'the approval is rejected' },
    });
    const again = await post(`/admin/api/approvals/${second?.approvalId}/reject`, {});
    expect(await again.json()).toMatchObject({ error: { code: 'approval_not_pending' } });
    const unknown = await post('/admin/api/approvals/no-such-approval/reject', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const answer = await ask('501');
    expect(answer.structuredContent).toMatchObject({ reason: 'approval_rejected' });
    expect((await ask('500')).structuredContent).toMatchObject({ prepostagemId: bodies[0]?.prepostagemId });
    await agent.close();
  });

  it('answers 429 with Retry-After, not a 500, once the desk’s share of the quotes is spent', async () => {
    // Last in this file: it spends the desk's share (half of the BFF's lane) for the minute.
    // Each weight another quote (the desk quotes as the carrier charges: the declared value changes nothing).
    const quote = (i: number) =>
      post('/admin/api/quote', {
        destinationCep: '30130-010',
        volumes: [{ weightGrams: 700 + i }],
        declaredValue: 100,
      });
    let refused: Response | undefined;
    for (let i = 1; i <= 40 && !refused; i++) {
      const res = await quote(i);
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused?.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(bff.logs.join('\n')).not.toContain('unexpected error');
    // A quote already made is still answered (cached quotes are free).
    expect((await quote(1)).status).toBe(200);
  });
});
