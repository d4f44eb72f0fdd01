import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiagnoseLabelIssueOutputSchema } from '../../shared/labels/diagnosis.ts';
import { LabelRecordSchema } from '../../shared/labels/label.ts';
import { GetShippingRatesOutputSchema } from '../../shared/quote.ts';
import { TrackingResponseSchema } from '../../shared/tracking.ts';
import { samplePartyAt as party, type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../testing.ts';
import { expectEach401, McpClients, postToolsList } from './testing.ts';

let sandbox: RunningSandbox;
const clients = new McpClients();
/** The sandbox's clock: real time, moved ahead by a test that waits for a PDF (no wait on the machine's speed). */
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 20, labelPdfWaitMs: 1000, now: () => Date.now() + ahead });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));
afterEach(async () => {
  await clients.closeAll();
});

const connect = (key: string) => clients.connect(`${sandbox.url}/mcp`, key);
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  clients.call(client, name, args);
/** A diagnose_label_issue reply, parsed with the shared schema. */
const diagnosis = (result: { structuredContent?: unknown }) =>
  DiagnoseLabelIssueOutputSchema.parse(result.structuredContent);

const LABEL = SAMPLE_LABEL;

const LABEL_TOOLS = ['diagnose_label_issue', 'generate_label', 'get_label_pdf'];
const ALL_TOOLS = [
  'diagnose_label_issue',
  'generate_label',
  'get_label_pdf',
  'get_shipping_rates',
  'track_shipment',
];

describe('MCP catalog (spec 1 rule 4)', () => {
  it('offers the five tools to mk_test_demo with their schemas and annotations', async () => {
    const { tools } = await (await connect('mk_test_demo')).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.generate_label?.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: false,
      readOnlyHint: false,
    });
    for (const name of ['get_shipping_rates', 'track_shipment', 'get_label_pdf', 'diagnose_label_issue']) {
      expect(byName[name]?.annotations?.readOnlyHint).toBe(true);
    }
    expect(byName.get_shipping_rates?.inputSchema.additionalProperties).toBe(false);
    expect(byName.get_shipping_rates?.outputSchema).toBeDefined();
    expect(byName.diagnose_label_issue?.outputSchema).toBeUndefined();
  });

  it.each([
    ['mk_test_demo_readonly', 'no merchant permission'],
    ['mk_test_sem_etiquetas', 'label integration off'],
  ])('hides the label tools from %s (%s)', async (key) => {
    const { tools } = await (await connect(key)).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.sort()).toEqual(['get_shipping_rates', 'track_shipment']);
    for (const name of LABEL_TOOLS) expect(names).not.toContain(name);
  });

  it('answers 401 with WWW-Authenticate without a key, with an unknown key and with a public key', async () => {
    const bodies = await expectEach401(`${sandbox.url}/mcp`, [
      undefined,
      'Bearer mk_test_nope',
      'Bearer pk_test_demo',
    ]);
    for (const body of bodies) expect(JSON.stringify(body)).not.toContain('mk_test_nope');
  });

  // The platform key gets the partner scope here (spec 4.4.6): see partners/partners.test.ts.
  it('answers 404 merchant_not_found to a removed store', async () => {
    for (const [key, status, code] of [['mk_test_removida', 404, 'merchant_not_found']] as const) {
      const res = await postToolsList(`${sandbox.url}/mcp`, `Bearer ${key}`);
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    }
  });

  it('answers 405 to GET /mcp (stateless server, no SSE stream)', async () => {
    const res = await fetch(`${sandbox.url}/mcp`, { headers: { authorization: 'Bearer mk_test_demo' } });
    expect(res.status).toBe(405);
  });
});

describe('get_shipping_rates and track_shipment', () => {
  it('quotes with readable text and structured rates', async () => {
    const result = await call(await connect('mk_test_demo'), 'get_shipping_rates', {
      destinationCep: '20040-020',
      items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 300 }],
      instanceId: 'ignored',
    });
    const output = GetShippingRatesOutputSchema.parse(result.structuredContent);
    expect(output.rates[0]).toMatchObject({ code: 'PAC', free: true, price: 0 });
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('free') });
  });

  it('gives reasons (and actionUrl) for no_coverage, no_services_enabled and subscription_required', async () => {
    const items = [{ name: 'x', quantity: 1, unitPriceBRL: 1 }];
    const noCoverage = await call(await connect('mk_test_demo'), 'get_shipping_rates', {
      destinationCep: '00000-100',
      items,
    });
    expect(noCoverage.structuredContent).toEqual({ rates: [], reason: 'no_coverage' });
    expect(JSON.stringify(noCoverage.content)).toContain('not free shipping');
    const noServices = await call(await connect('mk_test_sem_servicos'), 'get_shipping_rates', {
      destinationCep: '20040020',
      items,
    });
    expect(noServices.structuredContent).toMatchObject({
      rates: [],
      reason: 'no_services_enabled',
      actionUrl: expect.any(String),
    });
    const noPlan = await call(await connect('mk_test_sem_plano'), 'get_shipping_rates', {
      destinationCep: '20040020',
      items,
    });
    expect(noPlan.structuredContent).toMatchObject({
      rates: [],
      reason: 'subscription_required',
      actionUrl: expect.any(String),
    });
  });

  it('reports the magic failure CEP as a tool error, not a crash', async () => {
    const result = await call(await connect('mk_test_demo'), 'get_shipping_rates', {
      destinationCep: '00000-502',
      items: [{ name: 'x', quantity: 1, unitPriceBRL: 1 }],
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('quote_failed');
  });

  it('rejects an input with a property beyond those listed', async () => {
    const client = await connect('mk_test_demo');
    const outcome = await call(client, 'get_shipping_rates', {
      destinationCep: '20040020',
      items: [{ name: 'x', quantity: 1, unitPriceBRL: 1 }],
      storeId: 'other',
    }).catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
    expect(outcome.isError).toBe(true);
  });

  it('tracks like REST: codes in, results out', async () => {
    const result = await call(await connect('mk_test_demo_readonly'), 'track_shipment', {
      codes: ['DG049186226BR', 'QB123456785BR'],
    });
    const { results } = TrackingResponseSchema.parse(result.structuredContent);
    expect(results.map((r) => [r.found, r.delivered])).toEqual([
      [true, true],
      [true, false],
    ]);
    expect(JSON.stringify(result.content)).toContain('no events yet');
  });
});

describe('generate_label and get_label_pdf (spec 3, 4.4.3, 4.4.4, 7.2)', () => {
  it('creates a pre-posting with a tracking code that tracks at once with no events, and a real PDF', async () => {
    const client = await connect('mk_test_demo');
    const result = await call(client, 'generate_label', LABEL);
    const record = LabelRecordSchema.parse(result.structuredContent);
    expect(record.prepostagemId).toMatch(/^PP\d{10}$/);
    expect(record.trackingCode).toMatch(/^QB\d{9}BR$/);
    expect(record.reason).toBeUndefined();
    const pdf = Buffer.from(record.labelPdfBase64 ?? '', 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const tracked = await call(client, 'track_shipment', { codes: [record.trackingCode] });
    expect(TrackingResponseSchema.parse(tracked.structuredContent).results[0]).toMatchObject({
      found: true,
      delivered: false,
      events: [],
    });
    const again = await call(client, 'get_label_pdf', { prepostagemId: record.prepostagemId });
    expect(again.structuredContent).toMatchObject({
      prepostagemId: record.prepostagemId,
      labelPdfBase64: record.labelPdfBase64,
    });
    const resource = again.content.find((part) => part.type === 'resource');
    expect(resource).toMatchObject({
      resource: { mimeType: 'application/pdf', blob: record.labelPdfBase64 },
    });
    const list = (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: unknown[];
    };
    expect(list.prepostings).toHaveLength(1);
    // sandbox/README.md, "Control API": each pre-posting carries the generate_label input as received, so tests can tell whose it is.
    expect(list.prepostings[0]).toMatchObject({
      prepostagemId: record.prepostagemId,
      trackingCode: expect.any(String),
      createdAt: expect.any(String),
      request: { serviceCode: LABEL.serviceCode, recipient: { nome: LABEL.recipient.nome } },
    });
  });

  it.each([
    ['a presentation name', { serviceCode: 'SEDEX' }, 'nome de apresentação'],
    ['another presentation name', { serviceCode: 'correios-sedex' }, 'nome de apresentação'],
    ['an unknown product code', { serviceCode: '99999' }, 'inexistente'],
    ['a weight over 30,000 g', { weightGrams: 30_001 }, 'Peso'],
    ['a weight in kilograms (0.8 for 800 g)', { weightGrams: 0.8 }, 'abaixo do mínimo de 10 g'],
    [
      'a declared value of R$ 1,000,000,000,000 (measured: it was issued)',
      { declaredItems: [{ conteudo: 'Camiseta', quantidade: 1, valor: 1_000_000_000_000 }] },
      'Valor declarado de R$\u00a01.000.000.000.000,00 acima do máximo de R$\u00a03.000,00 do serviço 03298 (PAC)',
    ],
    [
      'a recipient name longer than the carrier prints',
      { recipient: { ...LABEL.recipient, nome: 'Maria '.repeat(10) } },
      'Nome do destinatário com 60 caracteres: o máximo impresso é 50.',
    ],
    [
      'a right-to-left override in the recipient street',
      {
        recipient: {
          ...LABEL.recipient,
          endereco: { ...LABEL.recipient.endereco, logradouro: 'Rua A \u202Eotnemagap' },
        },
      },
      'Logradouro do destinatário contém caractere de controle ou de formatação invisível (U+202E).',
    ],
    ['a side over 100 cm', { dimensions: { comprimento: 101, largura: 20, altura: 10 } }, 'Caixa'],
    ['sides adding to over 200 cm', { dimensions: { comprimento: 90, largura: 90, altura: 30 } }, 'soma'],
    ['a box under the minimum', { dimensions: { comprimento: 10, largura: 5, altura: 1 } }, 'mínimo'],
    [
      'a roll too long',
      { objectFormat: '3', dimensions: { comprimento: 120, largura: 10, altura: 10 } },
      'Rolo',
    ],
    [
      'an envelope too wide',
      { objectFormat: '1', dimensions: { comprimento: 30, largura: 70, altura: 1 } },
      'Envelope',
    ],
    ['a CEP without coverage', { recipient: party('00000-100', 'SP', 'Nenhures') }, 'sem cobertura'],
    [
      'a state that does not match the CEP',
      { recipient: party('20040-020', 'SP', 'Rio de Janeiro') },
      'não corresponde',
    ],
  ])('refuses %s with prepostagem_rejected and a status, creating nothing', async (_, change, status) => {
    const client = await connect('mk_test_demo');
    const result = await call(client, 'generate_label', { ...LABEL, ...change });
    const record = LabelRecordSchema.parse(result.structuredContent);
    expect(record).toMatchObject({ reason: 'prepostagem_rejected', status: expect.stringContaining(status) });
    expect(record.prepostagemId).toBeUndefined();
    const list = (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: unknown[];
    };
    expect(list.prepostings).toHaveLength(0);
  });

  it('answers own_contract_required with actionUrl for sem-contrato', async () => {
    const result = await call(await connect('mk_test_sem_contrato'), 'generate_label', LABEL);
    expect(result.structuredContent).toMatchObject({
      reason: 'own_contract_required',
      actionUrl: expect.stringMatching(/^https:/),
    });
  });

  it('answers subscription_required with actionUrl for sem-plano', async () => {
    const client = await connect('mk_test_sem_plano');
    const result = await call(client, 'generate_label', LABEL);
    expect(result.structuredContent).toMatchObject({
      reason: 'subscription_required',
      actionUrl: expect.stringMatching(/^https:/),
    });
    const pdf = await call(client, 'get_label_pdf', { prepostagemId: 'PP1' });
    expect(pdf.structuredContent).toMatchObject({
      reason: 'subscription_required',
      actionUrl: expect.any(String),
    });
  });

  it('answers label_pdf_timeout with the prepostagemId when the PDF is slower than the wait, then serves it', async () => {
    // A PDF a minute away: the early look below finds it not ready however slow the machine is.
    await sandbox.control('labels', { pdfDelayMs: 60_000, pdfWaitMs: 50 });
    const client = await connect('mk_test_demo');
    const record = LabelRecordSchema.parse((await call(client, 'generate_label', LABEL)).structuredContent);
    expect(record).toMatchObject({
      reason: 'label_pdf_timeout',
      prepostagemId: expect.any(String),
      trackingCode: expect.any(String),
    });
    expect(record.labelPdfBase64).toBeUndefined();
    const early = await call(client, 'get_label_pdf', { prepostagemId: record.prepostagemId });
    expect(early.structuredContent).toMatchObject({
      reason: 'label_not_printable',
      status: expect.any(String),
    });
    ahead += 60_000;
    const ready = await call(client, 'get_label_pdf', { prepostagemId: record.prepostagemId });
    expect(
      Buffer.from(String(ready.structuredContent?.labelPdfBase64), 'base64').subarray(0, 4).toString(),
    ).toBe('%PDF');
  });

  it('answers label_not_printable for a pre-posting of another store or none', async () => {
    const mine = LabelRecordSchema.parse(
      (await call(await connect('mk_test_demo'), 'generate_label', LABEL)).structuredContent,
    );
    const other = await call(await connect('mk_test_sem_plano'), 'get_label_pdf', {
      prepostagemId: 'PP0000000000',
    });
    expect(other.structuredContent).toMatchObject({ reason: 'subscription_required' });
    const unknown = await call(await connect('mk_test_sem_contrato'), 'get_label_pdf', {
      prepostagemId: mine.prepostagemId,
    });
    expect(unknown.structuredContent).toMatchObject({
      reason: 'label_not_printable',
      status: expect.stringContaining('não encontrada'),
    });
  });
});

describe('diagnose_label_issue (spec 4.4.5)', () => {
  it('finds an attempt by support code with evidence and action, for failures and successes alike', async () => {
    const client = await connect('mk_test_demo');
    const rejected = await call(client, 'generate_label', { ...LABEL, serviceCode: 'PAC' });
    const supportCode = String(rejected.structuredContent?.supportCode);
    const found = await call(client, 'diagnose_label_issue', { supportCode });
    const { attempts } = diagnosis(found);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      supportCode,
      source: 'mcp',
      outcome: 'rejected',
      reason: 'prepostagem_rejected',
    });
    // The evidence is the whole request as sent: two orders differing only in the recipient can be told apart.
    expect(attempts[0]?.evidence).toMatchObject({
      request: {
        serviceCode: 'PAC',
        recipient: { nome: LABEL.recipient.nome, endereco: { numero: LABEL.recipient.endereco.numero } },
      },
    });
    expect(attempts[0]?.action.length).toBeGreaterThan(0);
    expect(JSON.stringify(attempts)).not.toContain('mk_');
  });

  it('lists at most 10 recent attempts, most recent first, within 90 days and only from linked apps', async () => {
    const client = await connect('mk_test_demo');
    for (let i = 0; i < 11; i++) await call(client, 'generate_label', { ...LABEL, weightGrams: 40_000 + i });
    const listed = diagnosis(await call(client, 'diagnose_label_issue', {}));
    expect(listed.attempts).toHaveLength(10);
    const times = listed.attempts.map((a) => a.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const apps = diagnosis(await call(client, 'diagnose_label_issue', { source: 'nuvemshop' }));
    expect(apps.attempts).toMatchObject([{ orderId: '1001' }]);
    const unlinked = diagnosis(await call(client, 'diagnose_label_issue', { source: 'tray' }));
    expect(unlinked.attempts).toHaveLength(0);
    const byOrder = diagnosis(await call(client, 'diagnose_label_issue', { orderId: '1001' }));
    expect(byOrder.attempts).toHaveLength(1);
  });

  it('leaves out attempts older than 90 days and says absence proves nothing', async () => {
    const result = await call(await connect('mk_test_sem_contrato'), 'diagnose_label_issue', {
      source: 'mcp',
    });
    expect(diagnosis(result).attempts).toHaveLength(0);
    expect(JSON.stringify(result.content)).toContain('does not prove');
  });

  it('refuses a support code that is not a UUID', async () => {
    const outcome = await call(await connect('mk_test_demo'), 'diagnose_label_issue', {
      supportCode: 'abc',
    }).catch(() => ({ isError: true }));
    expect(outcome.isError).toBe(true);
  });
});

describe('MCP faults', () => {
  it('drop_after_commit creates the pre-posting and never answers', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit' });
    const client = await connect('mk_test_demo');
    await expect(call(client, 'generate_label', LABEL)).rejects.toThrow();
    const list = (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: unknown[];
    };
    expect(list.prepostings).toHaveLength(1);
  });

  it('reset drops the connection before anything is created', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset' });
    const client = await connect('mk_test_demo');
    await expect(call(client, 'generate_label', LABEL)).rejects.toThrow();
    const list = (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
      prepostings: unknown[];
    };
    expect(list.prepostings).toHaveLength(0);
  });

  it('error502 answers a gateway error once; counts every tool call in stats', async () => {
    await sandbox.control('faults', { target: 'mcp:track_shipment', mode: 'error502' });
    const client = await connect('mk_test_demo');
    await expect(call(client, 'track_shipment', { codes: ['DG049186226BR'] })).rejects.toThrow();
    const ok = await call(client, 'track_shipment', { codes: ['DG049186226BR'] });
    expect(ok.isError).toBeFalsy();
    const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    expect(stats.stores['loja-demo']?.['mcp:track_shipment']).toBe(2);
  });
});
