import { LRUCache } from 'lru-cache';
import { arrivalDate, MAX_ARRIVAL_BUSINESS_DAYS } from '../../shared/business-days.ts';
import {
  type DeliveryPromise,
  type DeliveryPromises,
  isoDate,
  type PromiseInput,
  platformPromise,
  type StoreDays,
} from '../../shared/delivery-promise.ts';
import { laneOf } from '../../shared/lanes.ts';
import type { Logger } from '../logger.ts';
import { messageOf } from '../logger.ts';
import { type DeliveredParcel, estimateLane, type LaneEstimate, type OpenParcel } from './estimate.ts';
import type { TransitHistory } from './history-store.ts';
import { HISTORY_DAYS } from './migrations.ts';
import { dayOf } from './transit.ts';

/** `BFF_PROMISE_QUANTILE` and `BFF_PROMISE_MIN_PARCELS` (bff/config.ts). */
export interface PromiseSettings {
  quantile: number;
  minParcels: number;
}

/** What one service's history holds, read once and kept for a while (a quote asks for several rates at once). */
interface ServiceHistory {
  readAt: number;
  delivered: DeliveredParcel[];
  open: OpenParcel[];
}

export interface HistoryPromisesOptions {
  history: Pick<TransitHistory, 'delivered' | 'open'>;
  settings: PromiseSettings;
  /** The store's handling days and cut-off, in front of the carrier's days (as the platform's promise has them). */
  storeDays?: StoreDays;
  /** The clock of the promise's "today" (the work clock: the sandbox's under `BFF_TEST_CLOCK`). */
  now?: () => number;
  /** How long a service's history is reused before it is read again (ms of `now`; default 60 s). */
  cacheMs?: number;
  logger?: Logger;
}

/** How long a service's history is reused: a promise moves by days, not by seconds. */
const CACHE_MS = 60_000;

/**
 * How many services' histories are kept read at once (least recently used first out). A store has a handful of
 * services; `/api/promises` names them as its anonymous caller likes, so what it reads is bounded, not kept per name
 * (issue 48, finding 4: ~400 B per new `serviceId`, never freed).
 */
export const MAX_SERVICE_HISTORIES = 64;

/** How many CEP and service pairs' quoted counts are kept (the labels' fallback), least recently used first out. */
export const MAX_QUOTED_DAYS = 10_000;

/**
 * The store's own promise (`DeliveryPromises`, shared/delivery-promise.ts): per lane and service, the business days
 * from posting to delivery that `quantile` of the store's delivered parcels took (estimate.ts: recent parcels weigh
 * more, the lane backs off from its CEP prefix to its state's capital or interior, its state, its region), with the
 * store's handling days and cut-off in front and Brazil's holidays in between (shared/business-days.ts). With fewer
 * than `minParcels` parcels at every level — or a history that cannot be read — the platform's `deliveryDays`, and
 * `basis: "platform"` says so. One function for every surface: the quote core, the widget's `/api/promises`, the
 * promise recorded with each label, the tracking page and the e-mails all ask `promiseFor`.
 */
export class HistoryPromises implements DeliveryPromises {
  private readonly options: HistoryPromisesOptions & { now: () => number; cacheMs: number };
  private readonly services = new LRUCache<string, Promise<ServiceHistory>>({ max: MAX_SERVICE_HISTORIES });
  /**
   * The platform's `deliveryDays` last quoted per CEP and service by the quote core (never by `/api/promises`'s
   * caller): the fallback of a label's promise.
   */
  private readonly quotedDays = new LRUCache<string, number>({ max: MAX_QUOTED_DAYS });

  constructor(options: HistoryPromisesOptions) {
    this.options = { now: Date.now, cacheMs: CACHE_MS, ...options };
  }

  /**
   * The quote core's promise of a rate the platform answered: its count is remembered as what a label to this CEP and
   * service was sold with (`quotedDaysOf`).
   */
  async promiseFor(input: PromiseInput): Promise<DeliveryPromise> {
    const days = clampedDays(input.deliveryDays);
    if (days !== undefined) this.quotedDays.set(`${input.destinationCep}|${input.serviceId}`, days);
    return (await this.explain(input)).promise;
  }

  /**
   * The promise of a count its caller reports (`POST /api/promises`, anyone's): the same function, shown to that
   * caller, and nothing remembered — what labels record and lanes learn comes from the quote core alone (issue 48, 5).
   */
  async shownFor(input: PromiseInput): Promise<DeliveryPromise> {
    return (await this.explain(input)).promise;
  }

  /** What this holds in memory (bounded: docs/security.md, "State that grows with strangers"). */
  stateSize(): { services: number; quotedDays: number } {
    return { services: this.services.size, quotedDays: this.quotedDays.size };
  }

  /**
   * The promise and what it rests on (the lane level of its history, if any): what a label records beside the promise
   * it was sold with. The promised day is the platform's count moved by the lane's offset, after the store's handling
   * days; the range's first day assumes the store posts at once (its handling days are a most, not a least).
   */
  async explain(input: PromiseInput): Promise<{ promise: DeliveryPromise; estimate?: LaneEstimate }> {
    const { storeDays = {} } = this.options;
    const deliveryDays = clampedDays(input.deliveryDays);
    if (deliveryDays === undefined) return { promise: platformPromise(input, storeDays) };
    const estimate = await this.estimate(input.destinationCep, input.serviceId);
    if (!estimate) return { promise: platformPromise(input, storeDays) };
    const date = (offset: number, handlingDays: number | undefined) =>
      isoDate(
        arrivalDate({
          now: input.at,
          deliveryDays: Math.min(Math.max(1, deliveryDays + offset), MAX_ARRIVAL_BUSINESS_DAYS),
          ...(handlingDays !== undefined ? { handlingDays } : {}),
          ...(storeDays.cutoffMinutes !== undefined ? { cutoffMinutes: storeDays.cutoffMinutes } : {}),
        }),
      );
    const to = date(estimate.toOffset, storeDays.handlingDays);
    const earliest = date(estimate.fromOffset, 0);
    const from = estimate.fromOffset === estimate.toOffset || earliest > to ? to : earliest;
    return { promise: { from, to, basis: 'history', parcels: estimate.parcels }, estimate };
  }

  /** The platform's `deliveryDays` last asked a promise for, for this CEP and service (a label's fallback). */
  quotedDaysOf(destinationCep: string, serviceId: string): number | undefined {
    return this.quotedDays.get(`${destinationCep}|${serviceId}`);
  }

  /**
   * The lane's estimate (business days against the platform's count), or undefined when its history is too thin (or
   * cannot be read: then the platform's).
   */
  async estimate(destinationCep: string, serviceId: string): Promise<LaneEstimate | undefined> {
    const lane = laneOf(destinationCep);
    if (!lane) return undefined;
    let history: ServiceHistory;
    try {
      history = await this.historyOf(serviceId);
    } catch (error) {
      this.options.logger?.warn(
        { error: messageOf(error) },
        'promise: the transit history could not be read; the platform’s count is promised',
      );
      return undefined;
    }
    const { quantile, minParcels } = this.options.settings;
    return estimateLane(lane, history.delivered, history.open, {
      quantile,
      minParcels,
      today: dayOf(this.options.now()),
      storeDays: this.options.storeDays ?? {},
    });
  }

  /** Forgets what was read, so the next promise reads the history again (a delivery was just recorded). */
  invalidate(serviceId?: string): void {
    if (serviceId === undefined) this.services.clear();
    else this.services.delete(serviceId);
  }

  private historyOf(serviceId: string): Promise<ServiceHistory> {
    const { now, cacheMs } = this.options;
    const cached = this.services.get(serviceId);
    if (cached) {
      return cached.then((history) => {
        if (now() - history.readAt < cacheMs && now() >= history.readAt) return history;
        this.services.delete(serviceId);
        return this.historyOf(serviceId);
      });
    }
    const read = this.read(serviceId);
    this.services.set(serviceId, read);
    read.catch(() => this.services.delete(serviceId));
    return read;
  }

  private async read(serviceId: string): Promise<ServiceHistory> {
    const { history, now } = this.options;
    const readAt = now();
    const today = dayOf(readAt);
    const [delivered, open] = await Promise.all([
      history.delivered(serviceId, today - HISTORY_DAYS),
      history.open(serviceId),
    ]);
    // The store's lanes start at its origin: where most of its recent parcels were posted from (a second warehouse's
    // parcels never make the first one's promise).
    const origin = mostCommon(delivered.filter((p) => p.endedDay >= today - 90).map((p) => p.origin));
    const here = <T extends { origin: string }>(parcels: T[]) =>
      origin === undefined ? parcels : parcels.filter((p) => p.origin === origin);
    return { readAt, delivered: here(delivered), open: here(open) };
  }
}

/** A platform count as a promise takes it (0 to the most business days an arrival is counted), or undefined. */
function clampedDays(deliveryDays: number): number | undefined {
  return Number.isFinite(deliveryDays)
    ? Math.min(Math.max(0, deliveryDays), MAX_ARRIVAL_BUSINESS_DAYS)
    : undefined;
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | undefined;
  for (const [value, count] of counts)
    if (best === undefined || count > (counts.get(best) ?? 0)) best = value;
  return best;
}

/**
 * The store's promises, learnt from its own parcels: what `createBff` takes as its `DeliveryPromises`.
 * @example createHistoryPromises({ history: backends.transits, settings: config.promise, storeDays, now: workNow })
 */
export function createHistoryPromises(options: HistoryPromisesOptions): HistoryPromises {
  return new HistoryPromises(options);
}
