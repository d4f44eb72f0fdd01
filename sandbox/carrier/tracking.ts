import { PICKUP_HOLD_DAYS } from '../../shared/pickup.ts';
import { isS10, makeS10 } from '../../shared/s10.ts';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';
import type { Uf } from '../../shared/uf.ts';
import { formatCarrierTime, HOUR_MS } from './clock.ts';
import { capitalOf } from './geography.ts';

/** One event the carrier will report once its time has come. */
export interface PlannedEvent extends TrackingEvent {
  afterHours: number;
}

interface TrackedObject {
  createdAt: number;
  plan: readonly PlannedEvent[];
}

export interface RouteEnds {
  originUf: Uf;
  originCity: string;
  destinationUf: Uf;
  destinationCity: string;
}

const NOT_FOUND = 'Objeto não encontrado na base de dados dos Correios.';
const NOT_S10 = 'Código de rastreamento inválido: use o formato de 13 caracteres (ex.: AA123456785BR).';

/** FNV-1a: a stable small number per code, so every object moves the same way on every run. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const agency = (city: string, uf: Uf) => `Agência dos Correios - ${city}/${uf}`;
const sorting = (uf: Uf) => `Unidade de Tratamento - ${capitalOf(uf)}/${uf}`;
const delivery = (city: string, uf: Uf) => `Unidade de Distribuição - ${city}/${uf}`;

/** The events the simulated carrier reports, as the Correios write them (code, type, description). */
const EVENTS = {
  posted: { code: 'PO', type: '01', description: 'Objeto postado' },
  transfer: { code: 'RO', type: '01', description: 'Objeto em transferência - por favor aguarde' },
  outForDelivery: { code: 'OEC', type: '01', description: 'Objeto saiu para entrega ao destinatário' },
  delivered: { code: 'BDE', type: '01', description: 'Objeto entregue ao destinatário' },
  notAttended: { code: 'BDE', type: '02', description: 'Carteiro não atendido - entrega não realizada' },
  awaitingPickup: { code: 'LDI', type: '01', description: 'Objeto aguardando retirada no endereço indicado' },
  returned: { code: 'BDE', type: '23', description: 'Objeto devolvido ao remetente' },
} as const;

/** One event of a plan: what happens, how many hours after the label was created, where from and where to. */
function planned(
  event: keyof typeof EVENTS,
  afterHours: number,
  origin: string | undefined,
  destination?: string,
): PlannedEvent {
  return {
    afterHours,
    ...EVENTS[event],
    ...(origin ? { origin } : {}),
    ...(destination ? { destination } : {}),
  };
}

/**
 * The events of a package from posting to delivery: posted within 24 h of creation, delivered within 10 days,
 * the deadline stretched from business to calendar days. The fixtures' plan (and the timing `returnPlan` starts from);
 * issued labels follow the lane's transit times (transit-times.ts).
 */
export function deliveryPlan(code: string, route: RouteEnds, businessDays: number): PlannedEvent[] {
  const seed = hash(code);
  const postedAt = 2 + (seed % 20);
  const deliveredAt = Math.min(postedAt + Math.ceil(businessDays * 1.4) * 24 + (seed % 7), 238);
  return plannedBetween(route, postedAt, deliveredAt);
}

/**
 * The events between a posting and a delivery (hours after the label's creation): posted at the origin's agency,
 * through the origin's sorting centre (and the destination's, between states) to the delivery unit, out for delivery
 * 5 h before the delivery.
 */
export function plannedBetween(route: RouteEnds, postedAt: number, deliveredAt: number): PlannedEvent[] {
  const span = deliveredAt - postedAt;
  const { originUf, originCity, destinationUf, destinationCity } = route;
  const unit = delivery(destinationCity, destinationUf);
  const plan = [
    planned('posted', postedAt, agency(originCity, originUf)),
    planned('transfer', postedAt + Math.round(span * 0.2), agency(originCity, originUf), sorting(originUf)),
  ];
  if (originUf !== destinationUf) {
    plan.push(
      planned('transfer', postedAt + Math.round(span * 0.45), sorting(originUf), sorting(destinationUf)),
    );
  }
  plan.push(
    planned('transfer', postedAt + Math.round(span * 0.75), sorting(destinationUf), unit),
    planned('outForDelivery', deliveredAt - 5, unit),
    planned('delivered', deliveredAt, unit),
  );
  return plan;
}

/** A delivery that failed and went back: recipient absent, awaiting pickup, returned to sender. */
export function returnPlan(code: string, route: RouteEnds, businessDays: number): PlannedEvent[] {
  const plan = deliveryPlan(code, route, businessDays).slice(0, -1);
  const last = plan.at(-1)?.afterHours ?? 0;
  const unit = delivery(route.destinationCity, route.destinationUf);
  plan.push(
    planned('notAttended', last + 4, unit),
    planned('awaitingPickup', last + 28, unit),
    planned('returned', last + 200, unit, agency(route.originCity, route.originUf)),
  );
  return plan;
}

/** What an object's history does next, set through the control API (`POST /_sandbox/tracking/<code>`). */
export const TRACKING_SCENARIOS = ['stall', 'awaiting_pickup', 'returned'] as const;
export type TrackingScenario = (typeof TRACKING_SCENARIOS)[number];

/** Why a scenario could not be set: the carrier does not know the object, or its history has ended. */
export type ScenarioRefusal = 'unknown_object' | 'already_delivered';

/**
 * The object's plan from now on, per scenario: what has happened stays, what was still to come is replaced.
 * `stall`: nothing more; `awaiting_pickup`: an hour later the parcel waits at its delivery unit, and goes back to the
 * sender when nobody picked it up within the hold (`PICKUP_HOLD_DAYS`, shared/pickup.ts); `returned`: an hour later
 * it goes back to the sender.
 */
function replan(plan: readonly PlannedEvent[], nowHours: number, scenario: TrackingScenario): PlannedEvent[] {
  const past = plan.filter((event) => event.afterHours <= nowHours);
  const unit =
    plan.find((event) => event.origin?.startsWith('Unidade de Distribuição'))?.origin ?? plan.at(-1)?.origin;
  const sender = plan[0]?.origin;
  const next = nowHours + 1;
  if (scenario === 'awaiting_pickup') {
    const back = next + PICKUP_HOLD_DAYS * 24 + 1;
    return [...past, planned('awaitingPickup', next, unit), planned('returned', back, unit, sender)];
  }
  if (scenario === 'returned') return [...past, planned('returned', next, unit, sender)];
  return past;
}

function isDelivered(event: TrackingEvent | undefined): boolean {
  return event !== undefined && ['BDE', 'BDI', 'BDR'].includes(event.code) && event.type === '01';
}

/** Every object the simulated carrier knows, and what it reports at a given time. */
export class TrackingBook {
  private readonly objects = new Map<string, TrackedObject>();

  register(code: string, createdAt: number, plan: readonly PlannedEvent[]): void {
    this.objects.set(code, { createdAt, plan });
  }

  clear(): void {
    this.objects.clear();
  }

  /** Sets what the object's history does next (at carrier time `at`), or says why it cannot. */
  setScenario(code: string, scenario: TrackingScenario, at: number): ScenarioRefusal | undefined {
    const object = this.objects.get(code);
    if (!object) return 'unknown_object';
    if (this.lookup(code, at).delivered) return 'already_delivered';
    const nowHours = (at - object.createdAt) / HOUR_MS;
    this.objects.set(code, { ...object, plan: replan(object.plan, nowHours, scenario) });
    return undefined;
  }

  /** Spec 2.3: most recent event first; a found object without events is not delivered. */
  lookup(code: string, at: number): TrackingResult {
    const object = this.objects.get(code);
    if (!object) {
      return { code, found: false, delivered: false, events: [], message: isS10(code) ? NOT_FOUND : NOT_S10 };
    }
    const events: TrackingEvent[] = object.plan
      .filter((event) => object.createdAt + event.afterHours * HOUR_MS <= at)
      .map(({ afterHours, ...event }) => ({
        ...event,
        timestamp: formatCarrierTime(object.createdAt + afterHours * HOUR_MS),
      }))
      .reverse();
    const lastStatus = events[0];
    return {
      code,
      found: true,
      delivered: isDelivered(lastStatus),
      ...(lastStatus ? { lastStatus } : {}),
      events,
      ...(lastStatus ? {} : { message: 'Objeto criado; ainda sem eventos do transportador.' }),
    };
  }
}

const SP_TO = (destinationUf: Uf, destinationCity: string): RouteEnds => ({
  originUf: 'SP',
  originCity: 'São Paulo',
  destinationUf,
  destinationCity,
});

/** The fixture codes of sandbox/README.md, relative to the carrier time of a reset. */
export const FIXTURE_CODES = {
  delivered: 'DG049186226BR',
  inTransit: 'SW371675211BR',
  noEvents: makeS10('QB', 12345678),
  returned: makeS10('JT', 20260001),
} as const;

export function registerFixtures(book: TrackingBook, now: number): void {
  const day = 24 * HOUR_MS;
  const fixture = (
    code: string,
    daysAgo: number,
    plan: typeof deliveryPlan,
    route: RouteEnds,
    days: number,
  ) => book.register(code, now - daysAgo * day, plan(code, route, days));
  fixture(FIXTURE_CODES.delivered, 12, deliveryPlan, SP_TO('RJ', 'Rio de Janeiro'), 6);
  fixture(FIXTURE_CODES.inTransit, 3, deliveryPlan, SP_TO('BA', 'Salvador'), 8);
  fixture(FIXTURE_CODES.noEvents, 0, deliveryPlan, SP_TO('MG', 'Belo Horizonte'), 6);
  fixture(FIXTURE_CODES.returned, 20, returnPlan, SP_TO('PR', 'Curitiba'), 6);
}
