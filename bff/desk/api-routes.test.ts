import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { AgentLabelInputSchema, type PreviewLabelOutput } from '../../shared/labels/agent-label.ts';
import { OAuthStore } from '../../shared/oauth/store.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { AdminSessions } from '../admin/session.ts';
import { errorHandler, notFound } from '../http/errors.ts';
import type { LabelAnswer } from '../labels/answer.ts';
import type { ApprovalLimits, OverLimit } from '../labels/approvals.ts';
import { DecisionRefused, type HistoryEntry } from '../labels/decisions.ts';
import type { LabelService } from '../labels/service.ts';
import { ServiceCodes } from '../labels/service-codes.ts';
import { sqliteLedger, type TestLedger } from '../labels/testing/ledgers.ts';
import { createLogger } from '../logger.ts';
import type { ShipmentPlans } from '../packing/packing.ts';
import { ApprovalStore } from '../policies/approval-store.ts';
import type { AgentPolicy, Caller } from '../policies/policies.ts';
import { QuoteShareSpent } from '../rates/quote-share.ts';
import type { QuoteAnswer } from '../rates/service.ts';
import { type DeskApiDeps, deskApiRoutes, MAX_PRINT } from './api.ts';

/**
 * The desk's JSON API in process: the route over a real ledger, approval store and admin sessions (node:sqlite in
 * memory), with the label service, the operator's decisions, the quotes, the plans and the PDFs scripted — what the
 * route sends them and answers is what these tests state. api.test.ts drives the same API through a started BFF and
 * the sandbox.
 */
const SESSION = 'the-merchants-session';
// as long as a real one (CsrfGuard refuses a short token)
const CSRF = 'the-sessions-csrf-token-0123456789abcdefghijk';
const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

let http: Server;
let url: string;
let ledger: TestLedger;
let oauthSql: SqliteSql;
let approvalsSql: SqliteSql;
let approvals: ApprovalStore;
/** Every call the scripted collaborators got: `[method, ...arguments]`. */
let calls: unknown[][];
let script: {
  answer: LabelAnswer;
  approve: Awaited<ReturnType<LabelService['approve']>>;
  reject: Awaited<ReturnType<LabelService['reject']>>;
  limits: ApprovalLimits;
  quote: () => Promise<QuoteAnswer>;
  plan: Awaited<ReturnType<ShipmentPlans['plan']>>;
  pdfs: Record<string, { labelPdfBase64?: string; status?: string }>;
  evidence: () => Promise<{ history: HistoryEntry[] }>;
  resolve: () => Promise<unknown>;
  policy: (idHash: string, policy: AgentPolicy | null) => Promise<boolean>;
};
/** The route's dependencies, read by the route at each request (a test may take OAuth away). */
let deps: DeskApiDeps;

const created = (attemptId: string, replayed = false): LabelAnswer => ({
  kind: 'issued',
  outcome: {
    kind: 'created',
    attemptId,
    replayed,
    record: { prepostagemId: 'PP1', trackingCode: 'QB123456785BR', status: 'created' },
  },
});
const PREVIEW: PreviewLabelOutput = {
  approvalRequired: false,
  limitsLeft: {},
  wouldSend: true,
  label: {
    recipient: 'Maria Silva',
    destination: 'Rio de Janeiro/RJ',
    service: 'PAC',
    weightGrams: 800,
    dimensions: '20 × 15 × 10 cm',
    declaredValue: 159.8,
  },
};

beforeEach(async () => {
  calls = [];
  script = {
    answer: created('attempt-1'),
    approve: { missing: true },
    reject: { missing: true },
    limits: { labels: 3 },
    quote: async () => ({ rates: [] }),
    plan: { volumes: [] },
    pdfs: {},
    evidence: async () => ({ history: [] }),
    resolve: async () => {
      throw new Error('not scripted');
    },
    policy: async () => true,
  };
  clock = 1_763_800_000_000;
  ledger = sqliteLedger({ dataDir: ':memory:', now: () => clock });
  approvalsSql = new SqliteSql({ dataDir: ':memory:', file: 'approvals.sqlite' });
  approvals = new ApprovalStore(approvalsSql);
  oauthSql = new SqliteSql({ dataDir: ':memory:', file: 'oauth.sqlite' });
  const oauth = new OAuthStore(oauthSql);
  await oauth.putSession(sha256Hex(SESSION), 'admin', JSON.stringify({ csrf: CSRF }), Date.now() + 3_600_000);
  http = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => http.once('listening', done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const record =
    <T>(method: string, value: (...args: never[]) => T) =>
    (...args: unknown[]) => {
      calls.push([method, ...args]);
      return value(...(args as never[]));
    };
  deps = {
    sessions: new AdminSessions({ store: oauth, publicUrl: url }),
    ledger,
    labels: {
      generate: record('generate', async () => script.answer),
      preview: record('preview', async () => PREVIEW),
      approvalLimits: record('approvalLimits', async () => script.limits),
      approve: record('approve', async () => script.approve),
      reject: record('reject', async () => script.reject),
    },
    issuer: { labelPdf: record('labelPdf', async (id: string) => script.pdfs[id] ?? {}) },
    decisions: {
      resolve: record('resolve', () => script.resolve()) as DeskApiDeps['decisions']['resolve'],
      evidence: record('evidence', () => script.evidence()) as DeskApiDeps['decisions']['evidence'],
    },
    approvals,
    rates: { quote: record('quote', () => script.quote()) },
    serviceCodes: new ServiceCodes({ 'correios-pac': '03298' }),
    plans: { plan: record('plan', async () => script.plan) },
    setClientPolicy: (idHash, policy) => {
      calls.push(['setClientPolicy', idHash, policy]);
      return script.policy(idHash, policy);
    },
    logger: createLogger({ level: 'silent' }),
  };
  const app = express();
  app.use(deskApiRoutes(deps));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  http.on('request', app);
});
afterEach(async () => {
  http.closeAllConnections();
  await new Promise((done) => http.close(done));
  await Promise.all([ledger.close(), approvalsSql.close(), oauthSql.close()]);
});

const session = { cookie: `admin_session=${SESSION}` };
const get = (path: string, headers: Record<string, string> = session) => fetch(`${url}${path}`, { headers });
const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json', 'x-csrf-token': CSRF, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const errorOf = async (res: Response) => ErrorSchema.parse(await res.json()).error;
const DESK: Caller = { issuedBy: 'desk' };

let n = 0;
/** The ledger's clock: each attempt a second after the one before. */
let clock = 1_763_800_000_000;
/** An attempt in the ledger, settled as `state` (left pending when told so). */
async function attempt(
  state: 'created' | 'rejected' | 'not_sent' | 'unknown' | 'pending',
  more: { orderId?: string; volume?: number; idempotencyKey?: string; prepostagemId?: string } = {},
) {
  clock += 1_000;
  const begun = await ledger.begin({
    fingerprint: `fp-${++n}`,
    request: JSON.stringify({ ...SAMPLE_LABEL, weightGrams: 800 + n }),
    orderId: more.orderId,
    volume: more.volume,
    idempotencyKey: more.idempotencyKey,
    issuedBy: 'agent-a',
    recipient: 'Maria Silva',
    serviceCode: '03298',
  });
  if (state === 'pending') return begun;
  return ledger.settle(begun.id, {
    state,
    settledBy: 'answer',
    ...(state === 'created'
      ? { prepostagemId: more.prepostagemId ?? `PP${n}`, trackingCode: `QB${n}5BR` }
      : {}),
    ...(state === 'unknown' ? { unknownWhy: 'no_match' as const } : {}),
    ...(state === 'rejected' ? { reason: 'invalid_address', status: 'CEP inválido' } : {}),
  });
}

async function pdfOf(pages: number): Promise<string> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([283, 425]);
  return Buffer.from(await doc.save()).toString('base64');
}

describe('the gate: the merchant’s session, its CSRF token and an Origin of ours', () => {
  it('answers 401 without a session or with an unknown one, never cached', async () => {
    for (const headers of [{}, { cookie: 'admin_session=forged' }]) {
      const res = await get('/admin/api/labels', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await errorOf(res)).toEqual({
        code: 'invalid_api_key',
        message: 'Log in at /admin/login first.',
      });
    }
  });

  it('refuses a POST without the token (403 invalid_csrf_token) or from another site (403 forbidden_origin)', async () => {
    const noToken = await post('/admin/api/labels', SAMPLE_LABEL, { 'x-csrf-token': 'wrong' });
    expect(noToken.status).toBe(403);
    expect(await errorOf(noToken)).toEqual({
      code: 'invalid_csrf_token',
      message: 'Send the session’s CSRF token (GET /admin/api/session) in X-CSRF-Token.',
    });
    const foreign = await post('/admin/api/labels', SAMPLE_LABEL, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await errorOf(foreign)).toEqual({
      code: 'forbidden_origin',
      message: 'This request did not come from this desk.',
    });
    expect(calls).toEqual([]);
  });

  it('guards its own paths only', async () => {
    expect((await fetch(`${url}/admin/agents`)).status).toBe(404);
  });

  it('answers the session its CSRF token, never cached', async () => {
    const res = await get('/admin/api/session');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ csrfToken: CSRF });
  });
});

describe('GET /admin/api/labels', () => {
  it('lists the ledger newest first, a page at a time, with the cursor of the next page', async () => {
    const first = await attempt('created', { orderId: 'PED-1', volume: 2 });
    const second = await attempt('rejected');
    const third = await attempt('not_sent');
    const page = await (await get('/admin/api/labels?limit=2')).json();
    expect(page.labels.map((row: { attemptId: string }) => row.attemptId)).toEqual([third.id, second.id]);
    expect(page.next).toBe(`${second.createdAt}.${second.id}`);
    const rest = await (await get(`/admin/api/labels?limit=2&before=${page.next}`)).json();
    expect(rest).toEqual({
      labels: [
        {
          attemptId: first.id,
          orderId: 'PED-1',
          volume: 2,
          state: 'created',
          prepostagemId: first.prepostagemId,
          trackingCode: first.trackingCode,
          serviceCode: '03298',
          recipient: 'Maria Silva',
          issuedBy: 'agent-a',
          createdAt: new Date(first.createdAt).toISOString(),
        },
      ],
    });
    const all = await (await get('/admin/api/labels')).json();
    expect(all.labels).toHaveLength(3);
    expect(all.next).toBeUndefined();
    // a page as long as what is left has no next page
    expect((await (await get('/admin/api/labels?limit=3')).json()).next).toBeUndefined();
    const fourth = await attempt('created');
    const three = await (await get('/admin/api/labels?limit=3')).json();
    expect(three.next).toBe(`${second.createdAt}.${second.id}`);
    expect(three.labels.map((row: { attemptId: string }) => row.attemptId)).toEqual([
      fourth.id,
      third.id,
      second.id,
    ]);
  });

  it('filters by state and by text', async () => {
    await attempt('created', { orderId: 'PED-77' });
    const refused = await attempt('rejected', { orderId: 'PED-78' });
    const byState = await (await get('/admin/api/labels?state=rejected')).json();
    expect(byState.labels.map((row: { attemptId: string }) => row.attemptId)).toEqual([refused.id]);
    const byText = await (await get('/admin/api/labels?q=PED-78')).json();
    expect(byText.labels.map((row: { attemptId: string }) => row.attemptId)).toEqual([refused.id]);
  });

  it('refuses a page size out of 1 to 200, an unknown state and a malformed cursor, naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=1.5', 'limit'],
      ['state=lost', 'state'],
      ['before=123', 'before'],
      [`q=${'x'.repeat(161)}`, 'q'],
    ] as const) {
      const res = await get(`/admin/api/labels?${query}`);
      expect(res.status, query).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_body');
      expect(error.message.startsWith(`${field}: `), error.message).toBe(true);
    }
    expect((await get('/admin/api/labels?limit=200')).status).toBe(200);
  });
});

describe('POST /admin/api/labels, /labels/preview, /plan and /quote', () => {
  it('sends a label as the desk and answers as an agent would be: 201 a new label, 200 one told again', async () => {
    const res = await post('/admin/api/labels', SAMPLE_LABEL);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ attemptId: 'attempt-1', prepostagemId: 'PP1' });
    expect(calls).toEqual([['generate', expect.objectContaining({ serviceCode: '03298' }), DESK]]);
    script.answer = created('attempt-1', true);
    expect((await post('/admin/api/labels', SAMPLE_LABEL)).status).toBe(200);
  });

  it('refuses a body that is no label, naming the first field, and sends nothing', async () => {
    const res = await post('/admin/api/labels', { ...SAMPLE_LABEL, weightGrams: -1 });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({
      code: 'invalid_body',
      message: expect.stringMatching(/^weightGrams: /),
    });
    const bad = { ...SAMPLE_LABEL, recipient: { ...SAMPLE_LABEL.recipient, endereco: { cep: 'x' } } };
    const issue = AgentLabelInputSchema.safeParse(bad).error?.issues[0];
    const nested = await post('/admin/api/labels', bad);
    expect((await errorOf(nested)).message).toBe(`${issue?.path.join('.')}: ${issue?.message}`);
    expect(issue?.path.length).toBeGreaterThan(1);
    const empty = await post('/admin/api/labels', '[]');
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toMatch(/^body: /);
    expect(calls).toEqual([]);
  });

  it('takes a body of up to 64 kB', async () => {
    const large = await post('/admin/api/labels', { ...SAMPLE_LABEL, padding: 'x'.repeat(70_000) });
    expect(large.status).toBe(413);
  });

  it('previews a label as the desk', async () => {
    const res = await post('/admin/api/labels/preview', SAMPLE_LABEL);
    expect(await res.json()).toEqual(PREVIEW);
    expect(calls).toEqual([['preview', expect.objectContaining({ weightGrams: 800 }), DESK]]);
  });

  it('answers a plan 200, a busy planner 503 with Retry-After, and any other refusal 422', async () => {
    const order = {
      items: [{ id: 'caneca', comprimento: 12, largura: 9, altura: 10, weightGrams: 350, quantity: 2 }],
    };
    expect((await post('/admin/api/plan', order)).status).toBe(200);
    script.plan = { reason: 'planner_busy', retryAfterSeconds: 3, message: 'busy' };
    const busy = await post('/admin/api/plan', order);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('3');
    script.plan = { reason: 'item_does_not_fit', itemId: 'caneca', message: 'fits no box' };
    const misfit = await post('/admin/api/plan', order);
    expect(misfit.status).toBe(422);
    expect(misfit.headers.get('retry-after')).toBeNull();
    expect((await post('/admin/api/plan', { items: [] })).status).toBe(400);
  });

  it('quotes what the labels cost the store, as the desk, leaving out a rate marked free and naming contract codes', async () => {
    script.quote = async () => ({
      rates: [
        { code: 'pac', serviceId: 'correios-pac', label: 'PAC', price: 23.5, deliveryDays: 5, promise },
        {
          code: 'sedex',
          serviceId: 'correios-sedex',
          label: 'SEDEX',
          price: 0,
          free: true,
          deliveryDays: 2,
          promise,
        },
      ],
      reason: 'why not',
    });
    const res = await post('/admin/api/quote', {
      destinationCep: '20040-020',
      volumes: [{ weightGrams: 1200 }, { weightGrams: 0.4 }],
      declaredValue: 300,
    });
    expect(await res.json()).toEqual({
      rates: [
        {
          code: 'pac',
          serviceId: 'correios-pac',
          label: 'PAC',
          price: 23.5,
          deliveryDays: 5,
          promise,
          serviceCode: '03298',
        },
      ],
      reason: 'why not',
    });
    expect(calls).toEqual([
      [
        'quote',
        {
          destinationCep: '20040020',
          items: [
            { name: 'volume 1', quantity: 1, unitPriceBRL: 0, weightKg: 1.2 },
            { name: 'volume 2', quantity: 1, unitPriceBRL: 0, weightKg: 0.001 },
          ],
        },
        { kind: 'desk', id: 'desk' },
      ],
    ]);
  });

  it('refuses a malformed quote, and answers 429 with Retry-After when the desk’s share of quotes is spent', async () => {
    for (const body of [
      { destinationCep: '20040-020', volumes: [] },
      { destinationCep: '20040-020', volumes: Array(51).fill({ weightGrams: 1 }) },
      { destinationCep: '20040-020', volumes: [{ weightGrams: 0 }] },
      { destinationCep: '20040-020', volumes: [{ weightGrams: 1 }], declaredValue: -1 },
      { destinationCep: '20040-020', volumes: [{ weightGrams: 1 }], extra: 1 },
      { destinationCep: 'x', volumes: [{ weightGrams: 1 }] },
    ])
      expect((await post('/admin/api/quote', body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    expect(calls).toEqual([]);
    script.quote = async () => {
      throw new QuoteShareSpent(9, { kind: 'desk', id: 'desk' });
    };
    const spent = await post('/admin/api/quote', {
      destinationCep: '20040-020',
      volumes: [{ weightGrams: 1 }],
    });
    expect(spent.status).toBe(429);
    expect(spent.headers.get('retry-after')).toBe('9');
    expect((await errorOf(spent)).message).toContain('Retry in 9 s.');
    script.quote = async () => {
      throw new Error('the platform is away');
    };
    expect(
      (await post('/admin/api/quote', { destinationCep: '20040-020', volumes: [{ weightGrams: 1 }] })).status,
    ).toBe(500);
  });
});

const promise = { from: '2026-12-03', to: '2026-12-05', basis: 'platform' as const, parcels: 0 };

describe('GET /admin/api/labels/print', () => {
  it('joins the PDFs of created labels into one, in the order asked', async () => {
    const a = await attempt('created');
    const b = await attempt('created');
    script.pdfs = {
      [a.prepostagemId ?? '']: { labelPdfBase64: await pdfOf(1) },
      [b.prepostagemId ?? '']: { labelPdfBase64: await pdfOf(2) },
    };
    const res = await get(`/admin/api/labels/print?ids=${a.id}, ${b.id},`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="etiquetas-2.pdf"');
    const merged = await PDFDocument.load(await res.arrayBuffer());
    expect(merged.getPageCount()).toBe(3);
    expect(calls).toEqual([
      ['labelPdf', a.prepostagemId],
      ['labelPdf', b.prepostagemId],
    ]);
  });

  it(`asks for 1 to ${MAX_PRINT} ids; prints what it can, with a last page for the rest, and refuses (409) only a batch with nothing printable`, async () => {
    for (const ids of ['', ',', Array.from({ length: MAX_PRINT + 1 }, (_, i) => `id-${i}`).join(',')]) {
      const res = await get(`/admin/api/labels/print?ids=${ids}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe(`ids: 1 to ${MAX_PRINT} attempt ids, comma-separated`);
    }
    expect((await get('/admin/api/labels/print')).status).toBe(400);
    const hundred = Array.from({ length: MAX_PRINT }, (_, i) => `id-${i}`).join(',');
    expect((await get(`/admin/api/labels/print?ids=${hundred}`)).status).toBe(409);
    const ok = await attempt('created');
    const refused = await attempt('rejected');
    script.pdfs = { [ok.prepostagemId ?? '']: { labelPdfBase64: await pdfOf(2) } };
    calls.length = 0;
    const mixed = await get(`/admin/api/labels/print?ids=${ok.id},${refused.id},nope`);
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('content-disposition')).toBe('inline; filename="etiquetas-3.pdf"');
    // the created label's two pages, then the page that names the two left out
    expect((await PDFDocument.load(await mixed.arrayBuffer())).getPageCount()).toBe(3);
    expect(calls).toEqual([['labelPdf', ok.prepostagemId]]);
    const nothing = await get(`/admin/api/labels/print?ids=${refused.id},nope`);
    expect(nothing.status).toBe(409);
    expect(await errorOf(nothing)).toEqual({
      code: 'label_not_printable',
      message: `no printable label among: ${refused.id}, nope`,
    });
    script.pdfs = { [ok.prepostagemId ?? '']: { status: 'generating' } };
    const notReady = await get(`/admin/api/labels/print?ids=${ok.id}`);
    expect(notReady.status).toBe(409);
    expect(await errorOf(notReady)).toEqual({
      code: 'label_not_printable',
      message: `no printable label among: ${ok.id}`,
    });
    // created, but with no pre-posting to print: the platform is not asked
    clock += 1_000;
    const begun = await ledger.begin({ fingerprint: `fp-${++n}`, request: JSON.stringify(SAMPLE_LABEL) });
    const bare = await ledger.settle(begun.id, { state: 'created', settledBy: 'operator' });
    calls.length = 0;
    expect((await get(`/admin/api/labels/print?ids=${bare.id}`)).status).toBe(409);
    expect(calls).toEqual([]);
  });
});

describe('GET /admin/api/labels/:attemptId', () => {
  it('answers an attempt in full: its request, outcome and settlement', async () => {
    const refused = await attempt('rejected', { orderId: 'PED-9', volume: 1 });
    const res = await get(`/admin/api/labels/${refused.id}`);
    expect(await res.json()).toEqual({
      label: {
        attemptId: refused.id,
        orderId: 'PED-9',
        volume: 1,
        state: 'rejected',
        prepostagemId: null,
        trackingCode: null,
        serviceCode: '03298',
        recipient: 'Maria Silva',
        issuedBy: 'agent-a',
        createdAt: new Date(refused.createdAt).toISOString(),
        request: JSON.parse(refused.request),
        status: 'CEP inválido',
        reason: 'invalid_address',
        supportCode: null,
        settledBy: 'answer',
        settledAt: new Date(refused.settledAt ?? 0).toISOString(),
        note: null,
        unknownWhy: null,
      },
    });
    expect(calls).toEqual([]);
    const open = await attempt('pending');
    expect((await (await get(`/admin/api/labels/${open.id}`)).json()).label.settledAt).toBeNull();
    const missing = await get('/admin/api/labels/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe('no attempt 00000000-0000-4000-8000-000000000000');
  });

  it("shows an unknown attempt beside the platform's history, or why the history cannot be read now", async () => {
    const lost = await attempt('unknown');
    const history = await (await get(`/admin/api/labels/${lost.id}`)).json();
    expect(history).toMatchObject({ label: { state: 'unknown', unknownWhy: 'no_match' }, history: [] });
    expect(calls).toEqual([['evidence', lost.id]]);
    script.evidence = async () => {
      throw new DecisionRefused('history_unavailable', 'the platform did not answer');
    };
    expect(await (await get(`/admin/api/labels/${lost.id}`)).json()).toMatchObject({
      history: null,
      historyError: 'the platform did not answer',
    });
    script.evidence = async () => {
      throw new Error('a bug');
    };
    expect((await get(`/admin/api/labels/${lost.id}`)).status).toBe(500);
  });
});

describe('POST /admin/api/labels/:attemptId/resend and /resolve', () => {
  it('sends a not-sent attempt again as the same intended label: its request, order, volume and key', async () => {
    const notSent = await attempt('not_sent', { orderId: 'PED-5', volume: 3, idempotencyKey: 'key-5' });
    expect((await post(`/admin/api/labels/${notSent.id}/resend`)).status).toBe(201);
    expect(calls).toEqual([
      [
        'generate',
        AgentLabelInputSchema.parse({
          ...JSON.parse(notSent.request),
          orderId: 'PED-5',
          volume: 3,
          idempotencyKey: 'key-5',
        }),
        DESK,
      ],
    ]);
    calls = [];
    const bare = await attempt('not_sent');
    await post(`/admin/api/labels/${bare.id}/resend`);
    expect(calls).toEqual([['generate', AgentLabelInputSchema.parse(JSON.parse(bare.request)), DESK]]);
  });

  it('resends nothing but a not-sent attempt: 409 naming its state, 404 for none', async () => {
    const done = await attempt('created');
    const res = await post(`/admin/api/labels/${done.id}/resend`);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({
      code: 'not_resendable',
      message: 'the attempt is created; only an attempt that was not sent is sent again',
    });
    const none = await post('/admin/api/labels/nope/resend');
    expect(none.status).toBe(404);
    expect((await errorOf(none)).message).toBe('no attempt nope');
    expect(calls).toEqual([]);
  });

  it("resolves an attempt as the merchant decides, and answers the operator's refusals in their own codes", async () => {
    const lost = await attempt('unknown');
    script.resolve = async () => lost;
    const bound = await post(`/admin/api/labels/${lost.id}/resolve`, {
      prepostagemId: 'PP9',
      trackingCode: 'QB9BR',
    });
    expect(bound.status).toBe(200);
    expect((await bound.json()).label.attemptId).toBe(lost.id);
    await post(`/admin/api/labels/${lost.id}/resolve`, { notCreated: true, force: 'the carrier says so' });
    await post(`/admin/api/labels/${lost.id}/resolve`, { prepostagemId: 'PP9' });
    expect(calls).toEqual([
      [
        'resolve',
        lost.id,
        { created: 'PP9', trackingCode: 'QB9BR' },
        { by: 'the merchant (desk)', force: undefined },
      ],
      [
        'resolve',
        lost.id,
        { notCreated: true },
        { by: 'the merchant (desk)', force: { reason: 'the carrier says so' } },
      ],
      [
        'resolve',
        lost.id,
        { created: 'PP9', trackingCode: undefined },
        { by: 'the merchant (desk)', force: undefined },
      ],
    ]);
    script.resolve = async () => {
      throw new DecisionRefused('bound_elsewhere', 'PP9 is bound to another attempt');
    };
    const refused = await post(`/admin/api/labels/${lost.id}/resolve`, { prepostagemId: 'PP9' });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toEqual({
      code: 'bound_elsewhere',
      message: 'PP9 is bound to another attempt',
    });
    script.resolve = async () => {
      throw new Error('a bug');
    };
    expect((await post(`/admin/api/labels/${lost.id}/resolve`, { notCreated: true })).status).toBe(500);
    for (const body of [{}, { notCreated: false }, { prepostagemId: '' }, { prepostagemId: 'PP9', extra: 1 }])
      expect((await post(`/admin/api/labels/${lost.id}/resolve`, body)).status).toBe(400);
  });
});

describe('approvals', () => {
  async function pending(issuedBy = 'agent-a', quotedPriceCents: number | null = 2_350) {
    const approval = await approvals.request({
      intent: `order:PED-${++n}#1`,
      request: JSON.stringify(SAMPLE_LABEL),
      issuedBy,
      quotedPriceCents: quotedPriceCents ?? undefined,
      declaredValueCents: 15_980,
      ttlMs: 3_600_000,
      maxPending: 50,
    });
    if (!approval) throw new Error('not asked');
    return approval;
  }

  it('lists pending approvals with what their agent may still issue today, and decided ones without', async () => {
    const waiting = await pending();
    const decided = await pending('agent-b', null);
    await approvals.decide(decided.id, 'approved', { overLimit: true });
    const body = await (await get('/admin/api/approvals')).json();
    expect(body.approvals).toEqual([
      {
        approvalId: waiting.id,
        state: 'pending',
        request: SAMPLE_LABEL,
        issuedBy: 'agent-a',
        quotedPrice: 23.5,
        declaredValue: 159.8,
        limitsLeft: { labels: 3 },
        attemptId: null,
        createdAt: new Date(waiting.createdAt).toISOString(),
        expiresAt: new Date(waiting.expiresAt).toISOString(),
      },
      {
        approvalId: decided.id,
        state: 'approved',
        request: SAMPLE_LABEL,
        issuedBy: 'agent-b',
        declaredValue: 159.8,
        approvedOverLimit: true,
        attemptId: null,
        createdAt: new Date(decided.createdAt).toISOString(),
        expiresAt: new Date(decided.expiresAt).toISOString(),
      },
    ]);
    expect(calls).toEqual([['approvalLimits', expect.objectContaining({ id: waiting.id })]]);
    const approved = await (await get('/admin/api/approvals?state=approved')).json();
    expect(approved.approvals.map((a: { approvalId: string }) => a.approvalId)).toEqual([decided.id]);
    const unknownState = await (await get('/admin/api/approvals?state=lost')).json();
    expect(unknownState.approvals).toHaveLength(2);
  });

  it('approves once, issuing the label; 404 for no approval, 409 for one decided', async () => {
    script.approve = { answer: created('attempt-7') };
    const res = await post('/admin/api/approvals/ap-1/approve');
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ attemptId: 'attempt-7' });
    await post('/admin/api/approvals/ap-1/approve', { overLimit: true });
    expect(calls).toEqual([
      ['approve', 'ap-1', {}],
      ['approve', 'ap-1', { overLimit: true }],
    ]);
    script.approve = { missing: true };
    const missing = await post('/admin/api/approvals/ap-2/approve');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe('no approval ap-2');
    script.approve = { notPending: 'rejected' };
    const decided = await post('/admin/api/approvals/ap-3/approve');
    expect(decided.status).toBe(409);
    expect(await errorOf(decided)).toEqual({
      code: 'approval_not_pending',
      message: 'the approval is rejected',
    });
    expect((await post('/admin/api/approvals/ap-4/approve', { overLimit: 'yes' })).status).toBe(400);
  });

  it("asks for a second confirmation of a label over the agent's limits, naming the limit", async () => {
    const over = (which: OverLimit['over']): typeof script.approve => ({
      overLimit: { over: which, labels: 0, declaredValue: 40 },
    });
    script.approve = over('maxLabelsPerDay');
    const labels = await post('/admin/api/approvals/ap-1/approve');
    expect(labels.status).toBe(409);
    const body = await labels.json();
    expect(body.error).toEqual({
      code: 'agent_limit_reached',
      message: expect.stringMatching(
        /^This label is over the agent's labels per day \(maxLabelsPerDay\); nothing was sent\./,
      ),
      limit: 'maxLabelsPerDay',
      limitsLeft: { labels: 0, declaredValue: 40 },
    });
    script.approve = over('maxDeclaredValuePerDay');
    const value = await (await post('/admin/api/approvals/ap-1/approve')).json();
    expect(value.error.message).toMatch(/over the agent's declared value per day \(maxDeclaredValuePerDay\)/);
    expect(value.error.message).toContain('Approve it again with {"overLimit": true} to issue it anyway');
  });

  it('rejects, answering the approval as it now stands; 404 for none, 409 for one decided', async () => {
    const waiting = await pending();
    await approvals.decide(waiting.id, 'rejected');
    script.reject = { rejected: true };
    const res = await post(`/admin/api/approvals/${waiting.id}/reject`);
    expect((await res.json()).approval).toMatchObject({ approvalId: waiting.id, state: 'rejected' });
    expect(calls).toEqual([['reject', waiting.id]]);
    script.reject = { missing: true };
    expect((await post('/admin/api/approvals/nope/reject')).status).toBe(404);
    script.reject = { notPending: 'approved' };
    const decided = await post(`/admin/api/approvals/${waiting.id}/reject`);
    expect(decided.status).toBe(409);
    expect((await errorOf(decided)).message).toBe('the approval is approved');
  });
});

describe('POST /admin/api/agents/:clientId/policy', () => {
  it("sets an OAuth client's policy, clears it with an empty body, and refuses one that is no policy", async () => {
    const set = await post('/admin/api/agents/client-1/policy', { maxLabelsPerDay: 5, approval: 'always' });
    expect(await set.json()).toEqual({ policy: { maxLabelsPerDay: 5, approval: 'always' } });
    expect(await (await post('/admin/api/agents/client-1/policy', {})).json()).toEqual({ policy: null });
    expect(calls).toEqual([
      ['setClientPolicy', 'client-1', { maxLabelsPerDay: 5, approval: 'always' }],
      ['setClientPolicy', 'client-1', null],
    ]);
    // no JSON at all is no policy
    const bare = await fetch(`${url}/admin/api/agents/client-1/policy`, {
      method: 'POST',
      headers: { ...session, 'x-csrf-token': CSRF },
    });
    expect(bare.status).toBe(400);
    const bad = await post('/admin/api/agents/client-1/policy', { maxLabelsPerDay: -1 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^maxLabelsPerDay: /);
  });

  it('answers 404 for an unknown client, and when OAuth is off', async () => {
    script.policy = async () => false;
    const unknown = await post('/admin/api/agents/client-9/policy', {});
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe('no OAuth client client-9');
    delete deps.setClientPolicy;
    const off = await post('/admin/api/agents/client-1/policy', {});
    expect(off.status).toBe(404);
    expect((await errorOf(off)).message).toBe('OAuth is off: agents are the static tokens');
  });
});
