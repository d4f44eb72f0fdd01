import * as z from 'zod/mini';
import { normalizeCep } from '../../shared/cep.ts';
import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import { laneOf } from '../../shared/lanes.ts';
import { parcelState } from '../../shared/parcel-status.ts';
import type { SqlRunner } from '../../shared/sql/sql.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import type { Logger } from '../logger.ts';
import { messageOf } from '../logger.ts';
import type { NewTransit, TransitChange, TransitHistory, TransitRow } from './history-store.ts';
import { learnFrom, promiseAtRisk } from './learn.ts';
import type { HistoryPromises } from './promises.ts';
import { dayOf } from './transit.ts';

/** The parts of a label's request (the ledger keeps it as sent) that say where it goes from and to. */
const EndsSchema = z.object({
  sender: z.object({ endereco: z.object({ cep: z.string() }) }),
  recipient: z.object({ endereco: z.object({ cep: z.string() }) }),
});

/** A label issued longer ago than this when its history starts was sold before this BFF recorded promises. */
const FRESH_MS = 2 * 86_400_000;
/** A label whose platform count could not be had is tried again at the next rounds for this long, then started without. */
const RETRY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface TransitRecorderOptions {
  history: TransitHistory;
  promises: Pick<HistoryPromises, 'explain' | 'quotedDaysOf' | 'invalidate'>;
  serviceCodes: Pick<ServiceCodes, 'idOf'>;
  /** The platform's `deliveryDays` for a CEP and service, when no quote asked a promise for it (a rates call). */
  platformDays?: (destinationCep: string, serviceId: string) => Promise<number | undefined>;
  /** The BFF's clock (the ledger's `created_at`). */
  now?: () => number;
  /** The work clock (the sandbox's under `BFF_TEST_CLOCK`): the instant a new label's promise is made at. */
  workNow?: () => number;
  /** How far back labels are looked for (the watcher's `WATCH_DAYS`). */
  watchDays: number;
  logger: Logger;
}

/** What one look means for the promise: the history to write and whether the promise is about to be broken. */
export interface PromiseLook {
  change: TransitChange;
  atRisk: boolean;
}

/**
 * The watcher's side of the delivery promise: it starts a history row for each label the BFF issued, with the promise
 * that label was sold with (made at its creation, as the quote would have made it: history, or the platform's
 * `deliveryDays` last quoted for that CEP and service), and turns each look at a parcel into what the history learns
 * (learn.ts), written in the look's own transaction. Labels issued before this release get a row without a promise:
 * their transit is learnt, nothing is scored.
 */
export class TransitRecorder {
  private readonly options: TransitRecorderOptions & { now: () => number; workNow: () => number };

  constructor(options: TransitRecorderOptions) {
    const now = options.now ?? Date.now;
    this.options = { ...options, now, workNow: options.workNow ?? now };
  }

  /** Starts the rows of labels issued since the last call; answers how many. Old rows (a year) are let go here. */
  async begin(): Promise<number> {
    const { history, now, workNow, watchDays, logger } = this.options;
    await history.prune(workNow());
    const labels = await history.unrecorded(now() - watchDays * DAY_MS);
    const parcels: NewTransit[] = [];
    for (const label of labels) {
      const parcel = await this.parcelOf(label).catch((error: unknown) => {
        logger.warn(
          { attempt: label.attemptId, error: messageOf(error) },
          'promise: a label’s lane is unknown',
        );
        return undefined;
      });
      if (parcel) parcels.push(parcel);
    }
    return parcels.length > 0 ? history.start(parcels, workNow()) : 0;
  }

  private async parcelOf(
    label: Awaited<ReturnType<TransitHistory['unrecorded']>>[number],
  ): Promise<NewTransit | undefined> {
    const { serviceCodes, now, workNow } = this.options;
    const ends = EndsSchema.parse(JSON.parse(label.request));
    const origin = normalizeCep(ends.sender.endereco.cep)?.slice(0, 5) ?? '';
    const destination = normalizeCep(ends.recipient.endereco.cep) ?? '';
    const lane = laneOf(destination);
    if (!lane || !origin) throw new Error('no lane for the label’s CEPs');
    const code = label.serviceCode ?? '';
    const serviceId = serviceCodes.idOf(code) ?? code;
    // The label is issued at its creation on the BFF's clock; under the test clock, the carrier's world has its own.
    const at = this.options.workNow === this.options.now ? label.createdAt : workNow();
    const fresh = label.createdAt >= now() - FRESH_MS;
    const sold = fresh ? await this.soldPromise(destination, serviceId, at) : undefined;
    // The platform did not answer its count: the label's history starts at a later round, with its promise.
    if (fresh && !sold && label.createdAt >= now() - RETRY_MS) return undefined;
    return {
      attemptId: label.attemptId,
      trackingCode: label.trackingCode,
      origin,
      serviceId,
      lane,
      createdAt: at,
      createdDay: dayOf(at),
      promise: sold?.promise,
      level: sold?.level,
      platformDays: sold?.platformDays,
    };
  }

  /**
   * The promise a quote at `at` would have given, and the platform's count it rests on: the one last quoted for the
   * CEP and service, else one rates call. Undefined when the platform's count cannot be had.
   */
  private async soldPromise(cep: string, serviceId: string, at: number) {
    const { promises, platformDays } = this.options;
    const days =
      promises.quotedDaysOf(cep, serviceId) ?? (await platformDays?.(cep, serviceId).catch(() => undefined));
    if (days === undefined) return undefined;
    const { promise, estimate } = await promises.explain({
      destinationCep: cep,
      serviceId,
      deliveryDays: days,
      at,
    });
    return { promise, level: estimate?.level, platformDays: days };
  }

  /** The history rows of these labels. */
  rows(attemptIds: readonly string[]): Promise<Map<string, TransitRow>> {
    return this.options.history.of(attemptIds);
  }

  /** What a look at `result` at `at` means for the label's row. */
  look(row: TransitRow, result: TrackingResult, at: number): PromiseLook {
    const change = learnFrom(row, result, at);
    const { status } = parcelState(result);
    const atRisk = change.outcome === undefined && promiseAtRisk(row, status, at);
    if (atRisk) change.atRiskAt = at;
    return { change, atRisk };
  }

  /** Writes a look's change in its transaction; a delivery learnt makes the next promise read the history again. */
  async write(runner: SqlRunner, row: TransitRow, change: TransitChange, at: number): Promise<void> {
    await this.options.history.change(runner, row.attemptId, change, at);
    if (change.transitDays !== undefined) this.options.promises.invalidate(row.serviceId);
  }
}

/** The promise a row was sold with, as the webhooks and e-mails carry it. */
export function soldPromiseOf(row: TransitRow | undefined): DeliveryPromise | undefined {
  if (!row?.promisedFrom || !row.promisedTo || !row.promisedBasis) return undefined;
  return {
    from: row.promisedFrom,
    to: row.promisedTo,
    basis: row.promisedBasis,
    parcels: row.promisedParcels ?? 0,
  };
}
