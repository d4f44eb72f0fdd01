import { inflateSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { PRINTED_FIELD_MAX } from '../../shared/labels/carrier-limits.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { isS10 } from '../../shared/s10.ts';
import { CarrierClock } from '../carrier/clock.ts';
import { TrackingBook } from '../carrier/tracking.ts';
import fixtures from '../stores/stores.json' with { type: 'json' };
import type { Store } from '../stores/stores.ts';
import { StoreRegistry } from '../stores/stores.ts';
import { SAMPLE_LABEL } from '../testing.ts';
import { LabelDesk } from './desk.ts';

const DAY = 86_400_000;
// Far from 0, so no rule can pass by comparing against an epoch that never moved.
let clock = 1_763_800_000_000;
const now = () => clock;
let registry: StoreRegistry;
let tracking: TrackingBook;
let desk: LabelDesk;

beforeEach(() => {
  clock = 1_763_800_000_000;
  registry = new StoreRegistry();
  tracking = new TrackingBook();
  desk = new LabelDesk({
    registry,
    tracking,
    carrierClock: new CarrierClock(now),
    pdfDelayMs: 0,
    pdfWaitMs: 1_000,
    now,
  });
});

const storeOf = (id: string): Store => {
  const store = registry.byId(id);
  if (!store) throw new Error(`no fixture store ${id}`);
  return store;
};
const label = (change: Record<string, unknown> = {}) =>
  GenerateLabelInputSchema.parse({ ...SAMPLE_LABEL, ...change });

/** Every string a PDF draws (pdf-lib writes WinAnsi hex strings in Flate streams), joined by new lines. */
function pdfText(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const text: string[] = [];
  const raw = bytes.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(bytes.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      text.push(Buffer.from(hex[1] ?? '', 'hex').toString('latin1'));
  }
  return text.join('\n');
}

describe('LabelDesk.generate: a real pre-posting for a store that may issue', () => {
  it('creates a pre-posting with an S10 code of its service, a PDF, and the attempt in the history', async () => {
    const store = storeOf('loja-demo');
    const input = label({ serviceCode: '03220', instanceId: 'loja-demo' });
    const record = await desk.generate(store, input);
    expect(record).toMatchObject({
      prepostagemId: expect.stringMatching(/^PP\d{10}$/),
      trackingCode: expect.stringMatching(/^SS\d{9}BR$/),
      status: 'Pré-postagem criada',
      supportCode: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(record.reason).toBeUndefined();
    expect(isS10(record.trackingCode ?? '')).toBe(true);
    expect(
      Buffer.from(record.labelPdfBase64 ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // Tracks at once, with no events yet.
    expect(tracking.lookup(record.trackingCode ?? '', clock)).toMatchObject({ found: true, events: [] });
    const [listed] = desk.list();
    expect(listed).toMatchObject({
      prepostagemId: record.prepostagemId,
      storeId: 'loja-demo',
      serviceCode: '03220',
      trackingCode: record.trackingCode,
      createdAt: new Date(clock).toISOString(),
    });
    // The request as received, without instanceId: what tells two look-alike orders apart.
    expect(listed?.request).not.toHaveProperty('instanceId');
    expect(listed?.request).toMatchObject({ serviceCode: '03220', recipient: { nome: 'Maria Silva' } });
    expect(listed).not.toHaveProperty('pdf');
    const [attempt] = desk.diagnose(store, { supportCode: record.supportCode });
    expect(attempt).toMatchObject({
      supportCode: record.supportCode,
      source: 'mcp',
      outcome: 'created',
      prepostagemId: record.prepostagemId,
      trackingCode: record.trackingCode,
      createdAt: new Date(clock).toISOString(),
      evidence: {
        request: { serviceCode: '03220' },
        carrierAnswer: { status: 'Pré-postagem criada', prepostagemId: record.prepostagemId },
      },
    });
    expect(attempt?.reason).toBeUndefined();
    expect(attempt?.evidence.request).not.toHaveProperty('instanceId');
    expect(attempt?.action).toContain(`get_label_pdf com prepostagemId ${record.prepostagemId}`);
  });

  it('never deduplicates: the same request twice is two pre-postings (spec 3)', async () => {
    const store = storeOf('loja-demo');
    const a = await desk.generate(store, label());
    const b = await desk.generate(store, label());
    expect(a.prepostagemId).not.toBe(b.prepostagemId);
    expect(a.trackingCode).not.toBe(b.trackingCode);
    expect(desk.list()).toHaveLength(2);
  });

  it('answers label_pdf_timeout with the prepostagemId when the PDF is slower than the wait, then serves it once ready', async () => {
    desk.pdfDelayMs = 2_000;
    desk.pdfWaitMs = 0;
    const store = storeOf('loja-demo');
    const record = await desk.generate(store, label());
    expect(record).toMatchObject({
      reason: 'label_pdf_timeout',
      prepostagemId: expect.stringMatching(/^PP/),
    });
    expect(record.labelPdfBase64).toBeUndefined();
    const [attempt] = desk.diagnose(store, { supportCode: record.supportCode });
    expect(attempt).toMatchObject({ outcome: 'created', reason: 'label_pdf_timeout' });
    expect(attempt?.action).toMatch(/^Não gere de novo/);
    const id = record.prepostagemId ?? '';
    clock += 1_999;
    expect(await desk.pdf(store, id)).toEqual({
      prepostagemId: id,
      status: 'Etiqueta em processamento; tente de novo em instantes',
      reason: 'label_not_printable',
    });
    clock += 1;
    const ready = await desk.pdf(store, id);
    expect(ready).toMatchObject({ prepostagemId: id, status: 'Pré-postagem criada' });
    expect(ready.reason).toBeUndefined();
    expect(
      Buffer.from(ready.labelPdfBase64 ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('serves a PDF only to the store that created it, and says why otherwise', async () => {
    const record = await desk.generate(storeOf('loja-demo'), label());
    const id = record.prepostagemId ?? '';
    expect(await desk.pdf(storeOf('sem-contrato'), id)).toEqual({
      prepostagemId: id,
      status: 'Pré-postagem não encontrada para esta loja',
      reason: 'label_not_printable',
    });
    expect((await desk.pdf(storeOf('loja-demo'), 'PP0000000000')).reason).toBe('label_not_printable');
    expect(await desk.pdf(storeOf('sem-plano'), id)).toEqual({
      prepostagemId: id,
      status: 'Plano inativo',
      reason: 'subscription_required',
      actionUrl: registry.actionUrl(storeOf('sem-plano'), 'billing'),
    });
  });

  it('draws the label a carrier would: service, contract, pre-posting, tracking code, parties, content, weight', async () => {
    const input = label({
      recipient: {
        ...SAMPLE_LABEL.recipient,
        nome: 'José Ñandú 🚚',
        endereco: { ...SAMPLE_LABEL.recipient.endereco, complemento: 'Apto 12' },
      },
      declaredItems: [
        { conteudo: 'Camiseta', quantidade: 2, valor: 79.9 },
        { conteudo: 'Boné', quantidade: 1, valor: 35.5 },
      ],
    });
    const record = await desk.generate(storeOf('loja-demo'), input);
    const text = pdfText(record.labelPdfBase64 ?? '');
    expect(text).toContain('PAC');
    expect(text).toMatch(/Contrato \d{10}/);
    expect(text).toContain(`Pré-postagem ${record.prepostagemId}`);
    expect(text).toContain(record.trackingCode);
    expect(text).toContain('DESTINATÁRIO');
    expect(text).toContain('REMETENTE');
    // WinAnsi keeps Portuguese (and Spanish) letters, and marks what it cannot draw.
    expect(text).toContain('José Ñandú ?');
    expect(text).toContain('Rua A, 10 - Apto 12');
    expect(text).toContain('20040-020  Rio de Janeiro/RJ');
    expect(text).toContain('01310-100  São Paulo/SP');
    expect(text).toContain('Declaração de conteúdo: 2 item(ns), valor R$ 195,30');
    expect(text).toContain('2 × Camiseta');
    expect(text).toContain('1 × Boné');
    expect(text).toContain('Peso 800 g  ·  20 × 15 × 10 cm  ·  formato 2');
    // The contract number is the store's, the same on every label of it.
    const again = pdfText((await desk.generate(storeOf('loja-demo'), input)).labelPdfBase64 ?? '');
    expect(again.match(/Contrato \d{10}/)?.[0]).toBe(text.match(/Contrato \d{10}/)?.[0]);
  });
  it('keeps every line inside the 10 cm label: a long name is cut, at most 3 items are listed', async () => {
    // 50 characters, the most the carrier takes (shared/labels/carrier-limits.ts), and in capitals still wider than the label.
    const long = 'WANDERLÉIA MARQUES DE ALBUQUERQUE WANDERLEY MOURÃO';
    expect(long).toHaveLength(PRINTED_FIELD_MAX.nome);
    const input = label({
      recipient: { ...SAMPLE_LABEL.recipient, nome: long },
      declaredItems: ['Camiseta', 'Boné', 'Meia', 'Luva'].map((conteudo) => ({
        conteudo,
        quantidade: 1,
        valor: 10,
      })),
    });
    const text = pdfText((await desk.generate(storeOf('loja-demo'), input)).labelPdfBase64 ?? '');
    const drawnName = text.split('\n').find((line) => line.startsWith('WANDERLÉIA'));
    expect(drawnName?.length).toBeGreaterThan(20);
    expect(drawnName?.length).toBeLessThan(long.length);
    expect(long.startsWith(drawnName ?? '-')).toBe(true);
    // Without a complement, the street line ends at the number.
    expect(text.split('\n')).toContain('Rua A, 10');
    expect(text).toContain('Declaração de conteúdo: 4 item(ns), valor R$ 40,00');
    expect(text).toContain('1 × Meia');
    expect(text).not.toContain('Luva');
  });
});

describe('LabelDesk.generate: what is refused, and that nothing is created then', () => {
  it.each([
    ['sem-plano', 'subscription_required', 'Plano inativo', 'billing', 'failed'],
    [
      'sem-contrato',
      'own_contract_required',
      'Contrato próprio com os Correios não configurado',
      'carrier-contract',
      'failed',
    ],
    [
      'contrato-invalido',
      'own_contract_required',
      'Credenciais do contrato recusadas pelos Correios',
      'carrier-contract',
      'failed',
    ],
  ])(
    '%s: reason %s with its page, recorded as failed, no pre-posting',
    async (id, reason, status, page, outcome) => {
      const store = storeOf(id);
      // contrato-invalido's origin is in Paraná; the rules are not what refuses here.
      const record = await desk.generate(store, label());
      expect(record).toEqual({
        status,
        reason,
        actionUrl: registry.actionUrl(store, page as 'billing'),
        supportCode: expect.any(String),
      });
      expect(desk.list()).toEqual([]);
      const [attempt] = desk.diagnose(store, { supportCode: record.supportCode });
      expect(attempt).toMatchObject({ outcome, reason, evidence: { request: { serviceCode: '03298' } } });
      expect(attempt?.prepostagemId).toBeUndefined();
      expect(attempt?.action).toContain(registry.actionUrl(store, page as 'billing'));
    },
  );

  it('refuses what the carrier refuses with prepostagem_rejected and the carrier status, recorded as rejected', async () => {
    const store = storeOf('loja-demo');
    const record = await desk.generate(store, label({ weightGrams: 30_001 }));
    expect(record).toEqual({
      status: expect.stringMatching(/^Peso de 30001 g acima do limite/),
      reason: 'prepostagem_rejected',
      supportCode: expect.any(String),
    });
    expect(desk.list()).toEqual([]);
    const [attempt] = desk.diagnose(store, { supportCode: record.supportCode });
    expect(attempt).toMatchObject({
      outcome: 'rejected',
      reason: 'prepostagem_rejected',
      evidence: { request: { weightGrams: 30_001 }, carrierAnswer: { status: record.status } },
    });
    expect(attempt?.action).toMatch(/nenhuma pré-postagem foi criada/);
  });
});

describe("LabelDesk.diagnose: the store's history (spec 4.4.5)", () => {
  it('lists up to 10 attempts of this store, most recent first, mcp and linked apps only, within 90 days', async () => {
    const store = storeOf('loja-demo');
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      clock += 1_000;
      codes.push((await desk.generate(store, label({ weightGrams: 40_000 + i }))).supportCode);
    }
    await desk.generate(storeOf('sem-contrato'), label());
    const listed = desk.diagnose(store, {});
    expect(listed.map((a) => a.supportCode)).toEqual(codes.reverse().slice(0, 10));
    expect(listed.every((a) => !('storeId' in a))).toBe(true);
    // The seeded app attempts: nuvemshop is linked to loja-demo, tray is not; the 120-day-old one is gone.
    expect(desk.diagnose(store, { source: 'nuvemshop' })).toMatchObject([
      { orderId: '1001', source: 'nuvemshop' },
    ]);
    expect(desk.diagnose(store, { source: 'tray' })).toEqual([]);
    expect(desk.diagnose(store, { orderId: '1001' })).toHaveLength(1);
    expect(desk.diagnose(store, { orderId: 'T-55' })).toEqual([]);
    expect(desk.diagnose(store, { source: 'mcp' })).toHaveLength(10);
    expect(desk.diagnose(storeOf('sem-contrato'), { source: 'mcp' })).toHaveLength(1);
  });

  it('finds one attempt by its support code in any case, and only in its own store', async () => {
    const record = await desk.generate(storeOf('loja-demo'), label({ serviceCode: 'PAC' }));
    expect(
      desk.diagnose(storeOf('loja-demo'), { supportCode: record.supportCode.toUpperCase() }),
    ).toHaveLength(1);
    expect(desk.diagnose(storeOf('sem-contrato'), { supportCode: record.supportCode })).toEqual([]);
  });

  it('keeps attempts for 90 days, the 90th included, and forgets them after', async () => {
    const store = storeOf('loja-demo');
    const record = await desk.generate(store, label({ serviceCode: 'PAC' }));
    clock += 90 * DAY;
    expect(desk.diagnose(store, { supportCode: record.supportCode })).toHaveLength(1);
    clock += 1;
    expect(desk.diagnose(store, { supportCode: record.supportCode })).toEqual([]);
  });

  it('forgets every pre-posting and attempt on reset, and seeds the app history again', async () => {
    const store = storeOf('loja-demo');
    await desk.generate(store, label());
    desk.reset();
    expect(desk.list()).toEqual([]);
    expect(desk.diagnose(store, { source: 'mcp' })).toEqual([]);
    expect(desk.diagnose(store, {})).toMatchObject([{ source: 'nuvemshop', outcome: 'rejected' }]);
  });
});

describe('LabelDesk: the edges of its timing, its seeded history and its contract numbers', () => {
  it('serves the PDF in the answer when it is ready exactly as the wait ends', async () => {
    desk.pdfDelayMs = 5;
    desk.pdfWaitMs = 5;
    const record = await desk.generate(storeOf('loja-demo'), label());
    expect(record.reason).toBeUndefined();
    expect(record.labelPdfBase64?.length).toBeGreaterThan(100);
  });

  it("records the carrier's refusal of the contract's credentials as the evidence", async () => {
    const store = storeOf('contrato-invalido');
    const record = await desk.generate(store, label());
    const [attempt] = desk.diagnose(store, { supportCode: record.supportCode });
    expect(attempt?.evidence).toMatchObject({
      carrierAnswer: { status: 'Credenciais do contrato recusadas pelos Correios' },
    });
    expect(attempt?.action).toMatch(/nenhuma pré-postagem foi criada/);
  });

  it('seeds each store with app attempts (shown where linked) and one beyond the 90 days', async () => {
    // loja-demo linked to both apps, and a store whose contract number is short enough to be padded.
    const data = structuredClone(fixtures) as typeof fixtures;
    const demo = data.stores.find((s) => s.id === 'loja-demo');
    if (!demo) throw new Error('no loja-demo fixture');
    demo.linkedApps = ['nuvemshop', 'tray'];
    data.stores.push({
      ...structuredClone(demo),
      id: 'a',
      keys: [{ key: 'mk_test_a', merchantPermission: true }],
    });
    const linked = new StoreRegistry(data);
    const seeded = new LabelDesk({
      registry: linked,
      tracking: new TrackingBook(),
      carrierClock: new CarrierClock(now),
      pdfDelayMs: 0,
      pdfWaitMs: 1_000,
      now,
    });
    const store = linked.byId('loja-demo') as Store;
    const evidence = {
      request: { serviceCode: '03298', weightGrams: 32000 },
      carrierAnswer: { status: 'Peso acima do limite' },
    };
    expect(seeded.diagnose(store, {})).toEqual([
      {
        supportCode: expect.any(String),
        createdAt: new Date(clock - 2 * DAY).toISOString(),
        source: 'nuvemshop',
        orderId: '1001',
        outcome: 'rejected',
        reason: 'prepostagem_rejected',
        evidence,
        action: 'Corrija o peso e gere de novo.',
      },
      {
        supportCode: expect.any(String),
        createdAt: new Date(clock - 3 * DAY).toISOString(),
        source: 'tray',
        orderId: 'T-55',
        outcome: 'rejected',
        reason: 'prepostagem_rejected',
        evidence,
        action: 'Corrija o peso e gere de novo.',
      },
    ]);
    // The one 120 days old is there, out of reach: 30 days back in time it is listed.
    clock -= 30 * DAY;
    expect(seeded.diagnose(store, { source: 'mcp' })).toHaveLength(1);
    clock += 30 * DAY;
    // The contract number is 10 digits, padded with 9s on the left (store "a": 97).
    const record = await seeded.generate(linked.byId('a') as Store, label());
    expect(pdfText(record.labelPdfBase64 ?? '')).toContain('Contrato 9999999997');
  });
});
