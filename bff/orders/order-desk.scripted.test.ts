import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerAttempt } from '../labels/ledger.ts';
import { DESK_CALLER, QuoteShareSpent } from '../rates/quote-share.ts';
import { lifecycleRefusal, ORDER_LIST_STATES } from './order-desk.ts';
import { created, deskOrder, ledgerLabel, type ScriptedDesk, SENDER, scriptedDesk } from './testing/desk.ts';

/**
 * The order desk (docs/orders.md) in process: the real order store and fulfillment outbox on node:sqlite, the label
 * service, the ledger's list, the quote core and the stores' connections scripted. order-desk.test.ts states the same
 * through a started BFF and the sandbox.
 */
let s: ScriptedDesk;
beforeEach(async () => {
  s = await scriptedDesk();
});
afterEach(async () => {
  await s.close();
});

const SHOPIFY = { orderId: '#1001', source: 'shopify' as const, externalId: '9001' };
const receive = async (change: Parameters<typeof deskOrder>[0] = {}, at?: number) => {
  if (at !== undefined) s.clock.now = at;
  await s.orders.receive(deskOrder(change));
};

describe('the desk’s list', () => {
  it('lists every order newest first, and keeps only the orders of a state when asked', async () => {
    await receive({ orderId: 'A' }, 1_000);
    await receive({ orderId: 'B', cancelled: { at: '2026-12-07', reason: 'customer' } }, 2_000);
    await receive({ orderId: 'C' }, 3_000);
    await receive({ orderId: 'D', pickup: true }, 4_000);
    await ledgerLabel(s.sql, deskOrder({ orderId: 'C' }), { volume: 1 });
    expect((await s.desk.list()).map((o) => [o.orderId, o.state])).toEqual([
      ['D', 'not_shipped'],
      ['C', 'labelled'],
      ['B', 'cancelled'],
      ['A', 'new'],
    ]);
    expect((await s.desk.list({ state: 'labelled' })).map((o) => o.orderId)).toEqual(['C']);
    expect((await s.desk.list({ state: 'cancelled' })).map((o) => o.orderId)).toEqual(['B']);
    expect((await s.desk.list({ state: undefined })).map((o) => o.orderId)).toEqual(['D', 'C', 'B', 'A']);
  });

  it('lists to ship the new and the partly labelled orders only', async () => {
    const two = deskOrder({
      orderId: 'P',
      items: [{ name: 'Halteres', quantity: 3, weightGrams: 4_000, valor: 90 }],
    });
    await s.orders.receive(two);
    await s.orders.plan('P', 2);
    await ledgerLabel(s.sql, two, { volume: 1 });
    await receive({ orderId: 'N' });
    await receive({ orderId: 'L' });
    await ledgerLabel(s.sql, deskOrder({ orderId: 'L' }), { volume: 1 });
    const toShip = await s.desk.list({ state: 'to_ship' });
    expect(toShip.map((o) => [o.orderId, o.state]).sort()).toEqual([
      ['N', 'new'],
      ['P', 'partly_labelled'],
    ]);
    expect(ORDER_LIST_STATES).toContain('to_ship');
    expect(ORDER_LIST_STATES).toContain('partly_labelled');
  });

  it('prices nothing unless asked, and asks the quote core nothing then', async () => {
    await receive();
    const [view] = await s.desk.list();
    expect(view).not.toHaveProperty('price');
    expect(s.quotes).toEqual([]);
  });

  it('prices each order as the store pays: its volumes quoted for the desk, no cart value, its service’s price', async () => {
    await receive({ items: [{ name: 'Halteres', quantity: 3, weightGrams: 4_000, valor: 90 }] });
    const [view] = await s.desk.list({ price: true });
    expect(view && 'price' in view ? view.price : undefined).toBe(25.5);
    expect(s.quotes).toHaveLength(1);
    expect(s.quotes[0]?.caller).toBe(DESK_CALLER);
    const volumes = view?.plan && 'volumes' in view.plan ? view.plan.volumes : [];
    expect(volumes.length).toBeGreaterThan(1);
    expect(s.quotes[0]?.input).toEqual({
      destinationCep: '20040020',
      items: volumes.map((volume, i) => ({
        name: `volume ${i + 1}`,
        quantity: 1,
        unitPriceBRL: 0,
        weightKg: volume.weightGrams / 1000,
      })),
    });
  });

  it('has no price without a service, without an 8-digit CEP, without a plan, or when the quote has no such service', async () => {
    await receive({ orderId: 'no-service', serviceId: undefined });
    const malformed = deskOrder({ orderId: 'bad-cep' });
    malformed.recipient.endereco.cep = '2004002';
    await s.orders.receive(malformed);
    await receive({ orderId: 'unweighed', items: [{ name: 'Caneca', quantity: 1, valor: 30 }] });
    await receive({ orderId: 'sedex', serviceId: 'sedex' });
    for (const [orderId, cep] of [
      ['digit-after', '200400201'],
      ['digit-before', '120040020'],
    ] as const) {
      const order = deskOrder({ orderId });
      order.recipient.endereco.cep = cep;
      await s.orders.receive(order);
    }
    const views = await s.desk.list({ price: true });
    for (const view of views) expect(view, view.orderId).not.toHaveProperty('price');
    expect(s.quotes.map((q) => q.input.destinationCep)).toEqual(['20040020']);
    expect(s.logs.filter((l) => l.level === 40)).toEqual([]);
  });

  it('has no price while the desk’s quote share is spent, and logs only another failure', async () => {
    await receive();
    s.quote = async () => {
      throw new QuoteShareSpent(30, DESK_CALLER);
    };
    expect((await s.desk.list({ price: true }))[0]).not.toHaveProperty('price');
    expect(s.logs.filter((l) => l.level === 40)).toEqual([]);
    s.quote = async () => {
      throw new Error('the carrier is down');
    };
    expect((await s.desk.list({ price: true }))[0]).not.toHaveProperty('price');
    expect(s.logs.filter((l) => l.level === 40).map((l) => [l.order, l.msg])).toEqual([
      ['PED-1', 'orders: no price for the order now'],
    ]);
  });

  it('says a platform’s order is not connected when its store is not, and shows the tracking sent back when queued', async () => {
    await receive(SHOPIFY);
    await receive({ orderId: '#2', source: 'nuvemshop', externalId: '77' });
    await receive({ orderId: 'csv-1' });
    s.connected = new Set(['nuvemshop']);
    const views = new Map((await s.desk.list()).map((v) => [v.orderId, v]));
    expect(views.get('#1001')?.trackingBack).toEqual({ state: 'not_connected' });
    expect(views.get('#2')).not.toHaveProperty('trackingBack');
    expect(views.get('csv-1')).not.toHaveProperty('trackingBack');
    s.connected = new Set(['shopify']);
    const shopifyOnly = new Map((await s.desk.list()).map((v) => [v.orderId, v]));
    expect(shopifyOnly.get('#2')?.trackingBack).toEqual({ state: 'not_connected' });
    expect(shopifyOnly.get('#1001')).not.toHaveProperty('trackingBack');
    const order = await s.orders.get('#1001');
    await s.fulfillments.enqueue(order as never, [{ code: 'AA1', url: 'u' }], s.clock.now);
    s.connected = new Set();
    const queued = new Map((await s.desk.list()).map((v) => [v.orderId, v])).get('#1001');
    expect(queued?.trackingBack).toMatchObject({ state: 'pending', codes: ['AA1'] });
  });

  it('shows an order whole: its service, address as sent, reviews, items, state, plan, labels and tracking sent back', async () => {
    const order = deskOrder({
      ...SHOPIFY,
      rawAddress: 'Rua do Ouvidor 50',
      needsReview: [{ field: 'order', reason: 'changed_after_label', detail: 'number 5 → 50' }],
    });
    await s.orders.receive(order);
    await ledgerLabel(s.sql, order, { volume: 1, status: 'posted' });
    const stored = await s.orders.get('#1001');
    if (!stored) throw new Error('not stored');
    await s.fulfillments.enqueue(stored, [{ code: 'TRK1', url: 'u' }], 0);
    await s.fulfillments.sent('#1001', Date.parse('2026-12-07T16:00:00Z'));
    const [view] = await s.desk.list();
    expect(view).toEqual({
      orderId: '#1001',
      source: 'shopify',
      serviceId: 'pac',
      recipient: order.recipient,
      needsReview: order.needsReview,
      rawAddress: 'Rua do Ouvidor 50',
      items: [
        {
          name: 'Caneca',
          quantity: 1,
          weightGrams: 400,
          valor: 30,
          dimensions: { comprimento: 20, largura: 15, altura: 10 },
          sizeSource: 'box',
          weightSource: 'platform',
        },
      ],
      state: 'posted',
      plan: {
        volumes: [
          {
            box: 'P',
            items: [{ id: 'Caneca', quantity: 1 }],
            weightGrams: 500,
            dimensions: { comprimento: 20, largura: 15, altura: 10 },
          },
        ],
      },
      labels: [
        {
          attemptId: 'att-#1001-1-created',
          volume: 1,
          state: 'created',
          trackingCode: 'TRK1',
          status: 'posted',
        },
      ],
      trackingBack: { state: 'sent', tries: 0, sentAt: '2026-12-07T16:00:00.000Z', codes: ['TRK1'] },
      receivedAt: new Date(s.clock.now).toISOString(),
    });
  });

  it('shows a cancelled order’s cancellation, why its tracking failed, and no service, address or plan it lacks', async () => {
    const order = deskOrder({
      ...SHOPIFY,
      serviceId: undefined,
      cancelled: { at: '2026-12-07T10:00:00Z', reason: 'customer' },
      items: [{ name: 'Caneca', quantity: 1, valor: 30 }],
    });
    delete order.serviceId;
    await s.orders.receive(order);
    const stored = await s.orders.get('#1001');
    if (!stored) throw new Error('not stored');
    await s.fulfillments.enqueue(stored, [{ code: 'TRK1', url: 'u' }], 0);
    await s.fulfillments.withdraw('#1001', 'the store cancelled the order', 0);
    const [view] = await s.desk.list();
    expect(view).not.toHaveProperty('serviceId');
    expect(view).not.toHaveProperty('rawAddress');
    expect(view).toMatchObject({
      cancelled: { at: '2026-12-07T10:00:00Z', reason: 'customer' },
      state: 'cancelled',
      labels: [],
      plan: { reason: 'no_weight', message: 'Caneca has no weight: weigh it, or save a preset' },
      trackingBack: { state: 'failed', tries: 0, error: 'the store cancelled the order', codes: ['TRK1'] },
    });
    expect(view?.trackingBack).not.toHaveProperty('sentAt');
  });

  it('views one order, priced, and nothing for an unknown one', async () => {
    await receive();
    expect(await s.desk.view('PED-1')).toMatchObject({ price: 25.5 });
    expect(await s.desk.view('PED-404')).toBeUndefined();
  });

  it('answers the saved presets', async () => {
    await s.orders.savePreset({ key: 'CAN-01', weightGrams: 350 });
    expect(await s.desk.presets()).toEqual([{ key: 'can-01', weightGrams: 350 }]);
  });
});

describe('the labels of a São Paulo day', () => {
  const at = (iso: string, id: string) => ({ id, createdAt: Date.parse(iso) }) as LedgerAttempt;

  it('answers the day’s labels oldest first, none of the day before or after (midnight in São Paulo)', async () => {
    s.attempts = [
      at('2026-12-07T02:59:59.999Z', 'before'),
      at('2026-12-07T03:00:00.000Z', 'first'),
      at('2026-12-07T15:00:00.000Z', 'noon'),
      at('2026-12-08T02:59:59.999Z', 'last'),
      at('2026-12-08T03:00:00.000Z', 'after'),
    ];
    const day = await s.desk.labelsOfDay('2026-12-07');
    expect(day.day).toBe('2026-12-07');
    expect(day.labels.map((l) => l.id)).toEqual(['first', 'noon', 'last']);
    expect(s.pages[0]).toEqual({
      before: { createdAt: Date.parse('2026-12-08T03:00:00.000Z'), id: '' },
      limit: 200,
    });
  });

  it('takes today in São Paulo when no day is given', async () => {
    s.clock.now = Date.parse('2026-12-08T01:00:00Z');
    s.attempts = [at('2026-12-07T20:00:00Z', 'yesterday-utc-today-sp')];
    const day = await s.desk.labelsOfDay(undefined);
    expect(day).toMatchObject({ day: '2026-12-07' });
    expect(day.labels.map((l) => l.id)).toEqual(['yesterday-utc-today-sp']);
  });

  it('pages through the ledger 200 at a time until the day’s start, and stops at the limit', async () => {
    const start = Date.parse('2026-12-07T03:00:00Z');
    s.attempts = Array.from({ length: 450 }, (_, i) =>
      at(new Date(start + 1 + i * 1000).toISOString(), `a${String(i).padStart(3, '0')}`),
    );
    s.attempts.push(at('2026-12-06T12:00:00Z', 'old'));
    const all = await s.desk.labelsOfDay('2026-12-07');
    expect(all.labels).toHaveLength(450);
    expect(all.labels[0]?.id).toBe('a000');
    expect(all.labels.at(-1)?.id).toBe('a449');
    expect(s.pages.map((p) => p.before.id)).toEqual(['', 'a250', 'a050']);
    s.pages.length = 0;
    const some = await s.desk.labelsOfDay('2026-12-07', 150);
    expect(some.labels.map((l) => l.id)).toEqual(
      Array.from({ length: 150 }, (_, i) => `a${String(449 - 149 + i).padStart(3, '0')}`),
    );
    expect(s.pages).toHaveLength(1);
  });

  it('asks no page after a short one, nor after the page that reaches the limit', async () => {
    const start = Date.parse('2026-12-07T03:00:00Z');
    s.attempts = Array.from({ length: 10 }, (_, i) => at(new Date(start + 1000 + i).toISOString(), `d${i}`));
    expect((await s.desk.labelsOfDay('2026-12-07')).labels).toHaveLength(10);
    expect(s.pages).toHaveLength(1);
    s.pages.length = 0;
    s.attempts = Array.from({ length: 450 }, (_, i) => at(new Date(start + 1000 + i).toISOString(), `a${i}`));
    expect((await s.desk.labelsOfDay('2026-12-07', 200)).labels).toHaveLength(200);
    expect(s.pages).toHaveLength(1);
  });

  it('reads on past a page whose last label is the day’s first instant', async () => {
    const start = Date.parse('2026-12-07T03:00:00Z');
    s.attempts = [
      ...Array.from({ length: 199 }, (_, i) => at(new Date(start + 1000 + i).toISOString(), `d${i}`)),
      at('2026-12-07T03:00:00.000Z', 'a'),
      at('2026-12-07T03:00:00.000Z', 'b'),
    ];
    const day = await s.desk.labelsOfDay('2026-12-07');
    expect(day.labels.slice(0, 2).map((l) => l.id)).toEqual(['a', 'b']);
    expect(day.labels).toHaveLength(201);
  });

  it('stops at a page that ends before the day, and at a short page', async () => {
    const start = Date.parse('2026-12-07T03:00:00Z');
    s.attempts = [
      ...Array.from({ length: 10 }, (_, i) => at(new Date(start + 1000 + i).toISOString(), `d${i}`)),
      ...Array.from({ length: 400 }, (_, i) => at(new Date(start - 1000 - i).toISOString(), `o${i}`)),
    ];
    const day = await s.desk.labelsOfDay('2026-12-07');
    expect(day.labels).toHaveLength(10);
    expect(s.pages).toHaveLength(1);
  });
});

describe('a batch of labels', () => {
  it('issues each volume of each order once from the sender, and plans the order’s volumes', async () => {
    await receive({ items: [{ name: 'Halteres', quantity: 3, weightGrams: 4_000, valor: 90 }] });
    const [result] = await s.desk.issue(['PED-1'], SENDER);
    const volumes = s.generated.length;
    expect(volumes).toBeGreaterThan(1);
    expect(result?.orderId).toBe('PED-1');
    expect(result?.refused).toBeUndefined();
    expect(result?.volumes.map((v) => [v.volume, v.status, v.answer.trackingCode])).toEqual(
      s.generated.map((_, i) => [i + 1, 201, `TRK${i + 1}-PED-1`]),
    );
    expect((await s.orders.get('PED-1'))?.plannedVolumes).toBe(volumes);
    const [first] = s.generated;
    expect(first).toMatchObject({ orderId: 'PED-1', volume: 1, serviceId: 'pac' });
    expect(first?.sender).toEqual({ ...SENDER, endereco: { ...SENDER.endereco, cep: '01310100' } });
    expect(first?.recipient).toEqual(deskOrder().recipient);
    expect(first?.recipient.endereco).not.toHaveProperty('complemento');
  });

  it('keeps the recipient’s complement when it has one', async () => {
    const order = deskOrder();
    order.recipient.endereco.complemento = 'ap 3';
    order.recipient.telefone = '';
    await s.orders.receive(order);
    await s.desk.issue(['PED-1'], SENDER);
    expect(s.generated[0]?.recipient.endereco.complemento).toBe('ap 3');
    expect(s.generated[0]?.recipient).not.toHaveProperty('telefone');
  });

  it('answers each order in the order asked, four at a time, and drains the tracking once', async () => {
    const ids = Array.from({ length: 9 }, (_, i) => `O${i}`);
    for (const orderId of ids) await receive({ orderId });
    let running = 0;
    let most = 0;
    let finished = 0;
    const waiting: (() => void)[] = [];
    s.answer = async (request) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((go) => waiting.push(go));
      running -= 1;
      finished += 1;
      return created(request, `T-${request.orderId}`);
    };
    const issued = s.desk.issue(ids, SENDER);
    let settled = false;
    void issued.then(() => {
      settled = true;
    });
    // one answer at a time, each once every order that can be in flight is: the most at once is then seen
    while (!settled) {
      await new Promise((done) => setImmediate(done));
      if (waiting.length > 0 && waiting.length >= Math.min(4, ids.length - finished)) waiting.shift()?.();
    }
    const results = await issued;
    expect(most).toBe(4);
    expect(results.map((r) => r.orderId)).toEqual(ids);
    expect(results.map((r) => r.volumes[0]?.answer.trackingCode)).toEqual(ids.map((id) => `T-${id}`));
    expect(s.drains).toBe(1);
    expect(await s.desk.issue([], SENDER)).toEqual([]);
  });

  it('refuses an unknown, a cancelled, a picked-up and an order to review, sending nothing', async () => {
    await receive({ orderId: 'X', cancelled: { at: '2026-12-07', reason: 'fraud' } });
    await receive({ orderId: 'Y', pickup: true });
    await receive({
      orderId: 'Z',
      needsReview: [
        { field: 'recipient.endereco.numero', reason: 'number_not_found' },
        { field: 'serviceId', reason: 'unknown_service' },
      ],
    });
    await receive({ orderId: 'W', needsReview: [{ field: 'order', reason: 'changed_after_label' }] });
    const results = await s.desk.issue(['nope', 'X', 'Y', 'Z', 'W'], SENDER);
    expect(results.slice(0, 4)).toEqual([
      { orderId: 'nope', volumes: [], refused: { reason: 'not_found', message: 'no such order' } },
      {
        orderId: 'X',
        volumes: [],
        refused: {
          reason: 'order_cancelled',
          message: 'the store cancelled this order (fraud): it is not shipped',
        },
      },
      {
        orderId: 'Y',
        volumes: [],
        refused: {
          reason: 'order_not_shipped',
          message: 'this order has no shipping address (picked up at the store): it is not shipped',
        },
      },
      {
        orderId: 'Z',
        volumes: [],
        refused: {
          reason: 'needs_review',
          message: 'the order has fields to review before its labels',
          fields: ['recipient.endereco.numero', 'serviceId'],
        },
      },
    ]);
    expect(results[3]?.refused).toBeDefined();
    expect(results[4]?.refused).toBeUndefined();
    expect(s.generated.map((r) => r.orderId)).toEqual(['W']);
  });

  it('refuses an order the packer cannot plan, with its reason', async () => {
    await receive({ items: [{ name: 'Caneca', quantity: 1, valor: 30 }] });
    const [result] = await s.desk.issue(['PED-1'], SENDER);
    expect(result).toEqual({
      orderId: 'PED-1',
      volumes: [],
      refused: { reason: 'no_weight', message: 'Caneca has no weight: weigh it, or save a preset' },
    });
    expect((await s.orders.get('PED-1'))?.plannedVolumes).toBeNull();
  });

  it('names a nested field the label’s rules refuse by its path', async () => {
    const order = deskOrder();
    order.recipient.nome = '';
    await s.orders.receive(order);
    const [result] = await s.desk.issue(['PED-1'], SENDER);
    expect(result?.volumes[0]?.status).toBe(422);
    expect(result?.volumes[0]?.answer.status).toMatch(/^recipient\.nome: /);
  });

  it('answers invalid_body for a volume the label’s rules refuse, naming the field, and sends nothing for it', async () => {
    await receive({ serviceId: undefined });
    const [result] = await s.desk.issue(['PED-1'], SENDER);
    expect(result?.volumes).toEqual([
      {
        volume: 1,
        status: 422,
        answer: {
          reason: 'invalid_body',
          status:
            'serviceCode: give serviceCode (the contract code, e.g. "03298") or serviceId (e.g. "correios-pac")',
        },
      },
    ]);
    expect(s.generated).toEqual([]);
  });
});

describe('the tracking back to the store after a batch', () => {
  const queued = async (orderId = '#1001') => (await s.fulfillments.get(orderId))?.tracking;

  it('queues every volume’s code with the tracking page’s address once all of them have one', async () => {
    await receive({ ...SHOPIFY, items: [{ name: 'Halteres', quantity: 3, weightGrams: 4_000, valor: 90 }] });
    s.answer = (request) => created(request, `AA${request.volume} BR`);
    await s.desk.issue(['#1001'], SENDER);
    const codes = s.generated.map((r) => `AA${r.volume} BR`);
    const url = `https://fretes.example/track?codes=${codes.map(encodeURIComponent).join(',')}`;
    expect(await queued()).toEqual(codes.map((code) => ({ code, url })));
    expect((await s.fulfillments.get('#1001'))?.nextAt).toBe(s.clock.now);
  });

  it('queues the codes told again (200) as well as new ones', async () => {
    await receive({ orderId: '#2', source: 'nuvemshop', externalId: '77' });
    s.answer = (request) => {
      const answer = created(request, 'AA1BR');
      if (answer.kind === 'issued' && answer.outcome.kind === 'created') answer.outcome.replayed = true;
      return answer;
    };
    await s.desk.issue(['#2'], SENDER);
    expect(await queued('#2')).toEqual([{ code: 'AA1BR', url: 'https://fretes.example/track?codes=AA1BR' }]);
  });

  it('queues nothing for a CSV order, a store not connected, or an order cancelled during the batch', async () => {
    await receive({ orderId: 'csv-1', externalId: '5' });
    await receive(SHOPIFY);
    s.connected = new Set(['nuvemshop']);
    await s.desk.issue(['csv-1', '#1001'], SENDER);
    expect(await queued('csv-1')).toBeUndefined();
    expect(await queued()).toBeUndefined();
    s.connected = new Set(['shopify']);
    s.answer = (request) => {
      void s.orders.receive(deskOrder({ ...SHOPIFY, cancelled: { at: '2026-12-07', reason: 'customer' } }), {
        version: '2026-12-07T10:00:00Z',
      });
      return created(request, 'AA1BR');
    };
    await s.desk.issue(['#1001'], SENDER);
    expect((await s.orders.get('#1001'))?.cancelled).toBeDefined();
    expect(await queued()).toBeUndefined();
  });

  it('queues nothing when a volume is refused, rejected, unsettled or has no code', async () => {
    const answers = [
      (): ReturnType<ScriptedDesk['answer']> => ({
        kind: 'refused',
        refusal: { reason: 'order_volume_conflict', message: 'held by another request' },
      }),
      (): ReturnType<ScriptedDesk['answer']> => ({
        kind: 'issued',
        outcome: {
          kind: 'rejected',
          attemptId: 'a',
          replayed: false,
          record: { trackingCode: 'AA9BR', reason: 'invalid_cep' } as never,
        },
      }),
      (): ReturnType<ScriptedDesk['answer']> => ({
        kind: 'issued',
        outcome: { kind: 'unknown', attemptId: 'a', since: 0, why: 'timeout' as never },
      }),
      (): ReturnType<ScriptedDesk['answer']> => ({
        kind: 'issued',
        outcome: { kind: 'created', attemptId: 'a', replayed: false, record: { prepostagemId: 'PP' } },
      }),
      (): ReturnType<ScriptedDesk['answer']> => ({
        kind: 'approval',
        reason: 'approval_pending',
        approvalId: 'ap-1',
        message: 'waiting',
      }),
    ];
    for (const [i, answer] of answers.entries()) {
      const orderId = `#${i}`;
      await receive({ orderId, source: 'shopify', externalId: `${i}` });
      s.answer = answer;
      await s.desk.issue([orderId], SENDER);
      expect(await queued(orderId), orderId).toBeUndefined();
    }
  });

  it('queues nothing when only some volumes have their code', async () => {
    await receive({ ...SHOPIFY, items: [{ name: 'Halteres', quantity: 3, weightGrams: 4_000, valor: 90 }] });
    s.answer = (request) =>
      request.volume === 1
        ? created(request, 'AA1BR')
        : { kind: 'refused', refusal: { reason: 'order_volume_conflict', message: 'held' } };
    await s.desk.issue(['#1001'], SENDER);
    expect(await queued()).toBeUndefined();
  });
});

describe('an order’s life', () => {
  it('lets an order be labelled unless the store cancelled it or it is picked up', () => {
    expect(lifecycleRefusal({})).toBeUndefined();
    expect(lifecycleRefusal({ cancelled: { at: 'x', reason: 'declined' }, pickup: true })?.reason).toBe(
      'order_cancelled',
    );
    expect(lifecycleRefusal({ pickup: true })?.reason).toBe('order_not_shipped');
  });
});
