import { describe, expect, it } from 'vitest';
import { formatCarrierTime, HOUR_MS } from './clock.ts';
import {
  deliveryPlan,
  FIXTURE_CODES,
  type PlannedEvent,
  registerFixtures,
  returnPlan,
  TrackingBook,
} from './tracking.ts';

// What the simulated carrier reports (data/correios-facts.md: an event is its code and status number together).
const T0 = 1_795_000_000_000;
const toManaus = {
  originUf: 'SP',
  originCity: 'Campinas',
  destinationUf: 'AM',
  destinationCity: 'Parintins',
} as const;
const withinSp = {
  originUf: 'SP',
  originCity: 'Campinas',
  destinationUf: 'SP',
  destinationCity: 'Santos',
} as const;
const steps = (plan: readonly PlannedEvent[]) => plan.map((e) => `${e.code}/${e.type}`);

describe('deliveryPlan', () => {
  it('posts at the origin agency, sorts at both capitals, goes out for delivery, then delivers (BDE 01)', () => {
    const plan = deliveryPlan('QB000000005BR', toManaus, 11);
    expect(steps(plan)).toEqual(['PO/01', 'RO/01', 'RO/01', 'RO/01', 'OEC/01', 'BDE/01']);
    expect(plan.map((e) => [e.description, e.origin, e.destination])).toEqual([
      ['Objeto postado', 'Agência dos Correios - Campinas/SP', undefined],
      [
        'Objeto em transferência - por favor aguarde',
        'Agência dos Correios - Campinas/SP',
        'Unidade de Tratamento - São Paulo/SP',
      ],
      [
        'Objeto em transferência - por favor aguarde',
        'Unidade de Tratamento - São Paulo/SP',
        'Unidade de Tratamento - Manaus/AM',
      ],
      [
        'Objeto em transferência - por favor aguarde',
        'Unidade de Tratamento - Manaus/AM',
        'Unidade de Distribuição - Parintins/AM',
      ],
      ['Objeto saiu para entrega ao destinatário', 'Unidade de Distribuição - Parintins/AM', undefined],
      ['Objeto entregue ao destinatário', 'Unidade de Distribuição - Parintins/AM', undefined],
    ]);
  });

  it('skips the transfer between capitals within one state', () => {
    const plan = deliveryPlan('QB000000005BR', withinSp, 2);
    expect(steps(plan)).toEqual(['PO/01', 'RO/01', 'RO/01', 'OEC/01', 'BDE/01']);
    expect(
      plan.some((e) => e.destination === 'Unidade de Tratamento - São Paulo/SP' && e.code === 'RO'),
    ).toBe(true);
  });

  it('stretches business days to calendar days (× 1.4), goes out 5 h before delivery, caps at 238 h', () => {
    for (let serial = 0; serial < 300; serial++) {
      const code = `QB${String(serial).padStart(8, '0')}5BR`;
      for (const businessDays of [1, 3, 6]) {
        const plan = deliveryPlan(code, toManaus, businessDays);
        const posted = plan[0]?.afterHours ?? Number.NaN;
        const delivered = plan.at(-1)?.afterHours ?? Number.NaN;
        const minimum = posted + Math.ceil(businessDays * 1.4) * 24;
        expect(posted).toBeGreaterThanOrEqual(2);
        expect(posted).toBeLessThan(22);
        expect(delivered).toBeGreaterThanOrEqual(minimum);
        expect(delivered).toBeLessThan(minimum + 7);
        expect(plan.at(-2)?.afterHours).toBe(delivered - 5);
        const hours = plan.map((e) => e.afterHours);
        expect(new Set(hours).size, code).toBe(hours.length);
      }
      expect(deliveryPlan(code, toManaus, 30).at(-1)?.afterHours).toBe(238);
    }
  });

  it('moves one code the same way on every run, and two look-alike codes differently', () => {
    const hours = (code: string) => deliveryPlan(code, toManaus, 6).map((e) => e.afterHours);
    expect(hours('DG049186226BR')).toEqual(hours('DG049186226BR'));
    // FNV-1a of the code (sandbox/README.md: events placed the same way on every run): pinned for the fixtures.
    expect(hours(FIXTURE_CODES.delivered)).toEqual([12, 56, 111, 178, 228, 233]);
    const distinct = new Set(
      Array.from({ length: 50 }, (_, i) => hours(`QB${String(i).padStart(8, '0')}5BR`)[0]),
    );
    expect(distinct.size).toBeGreaterThan(10);
  });
});

describe('returnPlan', () => {
  it('replaces the delivery with an absent recipient, a pickup notice and the return to the sender', () => {
    const delivery = deliveryPlan('JT202600011BR', toManaus, 6);
    const plan = returnPlan('JT202600011BR', toManaus, 6);
    const outForDelivery = delivery.at(-2)?.afterHours ?? Number.NaN;
    expect(steps(plan)).toEqual(['PO/01', 'RO/01', 'RO/01', 'RO/01', 'OEC/01', 'BDE/02', 'LDI/01', 'BDE/23']);
    expect(plan.slice(-3)).toEqual([
      {
        afterHours: outForDelivery + 4,
        code: 'BDE',
        type: '02',
        description: 'Carteiro não atendido - entrega não realizada',
        origin: 'Unidade de Distribuição - Parintins/AM',
      },
      {
        afterHours: outForDelivery + 28,
        code: 'LDI',
        type: '01',
        description: 'Objeto aguardando retirada no endereço indicado',
        origin: 'Unidade de Distribuição - Parintins/AM',
      },
      {
        afterHours: outForDelivery + 200,
        code: 'BDE',
        type: '23',
        description: 'Objeto devolvido ao remetente',
        origin: 'Unidade de Distribuição - Parintins/AM',
        destination: 'Agência dos Correios - Campinas/SP',
      },
    ]);
  });
});

describe('TrackingBook.lookup', () => {
  const plan: PlannedEvent[] = [
    { afterHours: 2, code: 'PO', type: '01', description: 'Objeto postado', origin: 'A' },
    { afterHours: 10, code: 'BDE', type: '02', description: 'Carteiro não atendido', origin: 'B' },
    { afterHours: 20, code: 'BDI', type: '01', description: 'Objeto entregue', origin: 'B' },
  ];

  it('says why a code is unknown: not in the base, or not an S10 code at all', () => {
    const book = new TrackingBook();
    expect(book.lookup('QB000000005BR', T0)).toEqual({
      code: 'QB000000005BR',
      found: false,
      delivered: false,
      events: [],
      message: 'Objeto não encontrado na base de dados dos Correios.',
    });
    expect(book.lookup('QB00000005BR', T0).message).toBe(
      'Código de rastreamento inválido: use o formato de 13 caracteres (ex.: AA123456785BR).',
    );
  });

  it('reports a created object with no events yet as found, not delivered, with a message', () => {
    const book = new TrackingBook();
    book.register('QB000000005BR', T0, plan);
    expect(book.lookup('QB000000005BR', T0 + HOUR_MS)).toEqual({
      code: 'QB000000005BR',
      found: true,
      delivered: false,
      events: [],
      message: 'Objeto criado; ainda sem eventos do transportador.',
    });
  });

  it('shows each event from its hour on, most recent first, timestamped in carrier time', () => {
    const book = new TrackingBook();
    book.register('QB000000005BR', T0, plan);
    const at10 = book.lookup('QB000000005BR', T0 + 10 * HOUR_MS);
    expect(at10.events.map((e) => e.code)).toEqual(['BDE', 'PO']);
    expect(at10.events[0]).toEqual({
      code: 'BDE',
      type: '02',
      description: 'Carteiro não atendido',
      origin: 'B',
      timestamp: formatCarrierTime(T0 + 10 * HOUR_MS),
    });
    expect(at10.lastStatus).toEqual(at10.events[0]);
    expect(at10).not.toHaveProperty('message');
    // recipient absent (BDE 02) is not a delivery; BDI 01 is
    expect(at10.delivered).toBe(false);
    expect(book.lookup('QB000000005BR', T0 + 10 * HOUR_MS - 1).events).toHaveLength(1);
    expect(book.lookup('QB000000005BR', T0 + 20 * HOUR_MS).delivered).toBe(true);
  });

  it('counts BDE, BDI and BDR with status 01 as delivered, and nothing else', () => {
    const book = new TrackingBook();
    const cases: [string, string, boolean][] = [
      ['BDE', '01', true],
      ['BDI', '01', true],
      ['BDR', '01', true],
      ['BDR', '04', false],
      ['LDI', '01', false],
      ['OEC', '01', false],
    ];
    for (const [code, type, delivered] of cases) {
      book.register('QB000000005BR', T0, [{ afterHours: 1, code, type, description: 'd', origin: 'o' }]);
      expect(book.lookup('QB000000005BR', T0 + HOUR_MS).delivered, `${code} ${type}`).toBe(delivered);
    }
  });

  it('forgets every object on clear (a sandbox reset)', () => {
    const book = new TrackingBook();
    registerFixtures(book, T0);
    expect(book.lookup(FIXTURE_CODES.delivered, T0).found).toBe(true);
    book.clear();
    expect(book.lookup(FIXTURE_CODES.delivered, T0).found).toBe(false);
  });
});

describe('the fixture codes (sandbox/README.md)', () => {
  it('are delivered SP → Rio, in transit SP → Salvador, created without events, and returned to sender', () => {
    const book = new TrackingBook();
    registerFixtures(book, T0);
    const delivered = book.lookup(FIXTURE_CODES.delivered, T0);
    expect(delivered.delivered).toBe(true);
    expect(delivered.lastStatus?.origin).toBe('Unidade de Distribuição - Rio de Janeiro/RJ');
    expect(delivered.events.at(-1)?.origin).toBe('Agência dos Correios - São Paulo/SP');
    const moving = book.lookup(FIXTURE_CODES.inTransit, T0);
    expect(moving).toMatchObject({ found: true, delivered: false });
    expect(moving.events.length).toBeGreaterThan(0);
    const unitOf = (code: string) => deliveryPlanOf(book, code)[0]?.origin;
    expect(unitOf(FIXTURE_CODES.inTransit)).toBe('Unidade de Distribuição - Salvador/BA');
    expect(unitOf(FIXTURE_CODES.noEvents)).toBe('Unidade de Distribuição - Belo Horizonte/MG');
    expect(unitOf(FIXTURE_CODES.returned)).toBe('Unidade de Distribuição - Curitiba/PR');
    expect(book.lookup(FIXTURE_CODES.noEvents, T0)).toMatchObject({ found: true, events: [] });
    const returned = book.lookup(FIXTURE_CODES.returned, T0);
    expect(returned.lastStatus).toMatchObject({ code: 'BDE', type: '23' });
    expect(returned.delivered).toBe(false);
    expect(returned.lastStatus?.destination).toBe('Agência dos Correios - São Paulo/SP');
  });
});

/** Every event of a registered object, once its whole plan has happened. */
function deliveryPlanOf(book: TrackingBook, code: string) {
  return book.lookup(code, T0 + 400 * HOUR_MS).events;
}

describe('TrackingBook.setScenario', () => {
  const at = (hours: number) => T0 + hours * HOUR_MS;
  const codes = (book: TrackingBook, hours: number) =>
    book.lookup('QB000000005BR', at(hours)).events.map((e) => `${e.code}/${e.type}`);
  const booked = () => {
    const book = new TrackingBook();
    book.register('QB000000005BR', T0, deliveryPlan('QB000000005BR', toManaus, 11));
    return book;
  };

  it('stall: what has happened stays, nothing more comes, ever', () => {
    const book = booked();
    const before = codes(book, 48);
    expect(before.length).toBeGreaterThan(0);
    expect(book.setScenario('QB000000005BR', 'stall', at(48))).toBeUndefined();
    expect(codes(book, 48)).toEqual(before);
    expect(codes(book, 24 * 365)).toEqual(before);
  });

  it('awaiting_pickup: an hour later the parcel waits at its delivery unit, for 7 days, then goes back', () => {
    const book = booked();
    book.setScenario('QB000000005BR', 'awaiting_pickup', at(48));
    expect(codes(book, 48.5)).not.toContain('LDI/01');
    const waiting = book.lookup('QB000000005BR', at(49 + 7 * 24));
    expect(waiting.events[0]).toMatchObject({
      code: 'LDI',
      type: '01',
      origin: 'Unidade de Distribuição - Parintins/AM',
      timestamp: formatCarrierTime(at(49)),
    });
    expect(waiting.delivered).toBe(false);
    const later = book.lookup('QB000000005BR', at(24 * 30));
    expect(later.events[0]).toMatchObject({
      code: 'BDE',
      type: '23',
      timestamp: formatCarrierTime(at(50 + 7 * 24)),
    });
    expect(later.delivered).toBe(false);
  });

  it('returned: an hour later it goes back to the sender, and is never delivered', () => {
    const book = booked();
    book.setScenario('QB000000005BR', 'returned', at(48));
    const later = book.lookup('QB000000005BR', at(24 * 30));
    expect(later.events[0]).toMatchObject({
      code: 'BDE',
      type: '23',
      description: 'Objeto devolvido ao remetente',
    });
    expect(later.events[0]?.destination).toBe('Agência dos Correios - Campinas/SP');
    expect(later.delivered).toBe(false);
  });

  it('refuses an unknown object and one already delivered', () => {
    const book = booked();
    expect(book.setScenario('QB999999995BR', 'stall', at(1))).toBe('unknown_object');
    expect(book.setScenario('QB000000005BR', 'returned', at(24 * 30))).toBe('already_delivered');
  });
});
