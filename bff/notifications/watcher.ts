import * as z from 'zod/mini';
import { civilDate } from '../../shared/business-days.ts';
import { isoDate } from '../../shared/delivery-promise.ts';
import { localeOf } from '../../shared/locale.ts';
import { ON_ITS_WAY, parcelState } from '../../shared/parcel-status.ts';
import { MAX_CODES } from '../../shared/platform-limits.ts';
import {
  type ShipmentEvent,
  ShipmentEventSchema,
  type ShipmentEventType,
} from '../../shared/shipment-events.ts';
import type { SqlRunner } from '../../shared/sql/sql.ts';
import type { TrackingEvent, TrackingResult } from '../../shared/tracking.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { TrackingLinks } from '../orders/links.ts';
import type { TransitRow } from '../promise/history-store.ts';
import { type PromiseLook, soldPromiseOf, type TransitRecorder } from '../promise/recorder.ts';
import type { TrackingStore } from '../tracking/cache.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import { lookAt, pickupLastDayOf } from './changes.ts';
import type { Look } from './look.ts';
import { type Channel, type NewEvent, newEventId } from './outbox.ts';
import type { Watch, WatchStore } from './watch-store.ts';

const EmailOfSchema = z.object({ recipient: z.object({ email: z.optional(z.string()) }) });

/** Where events go: the merchant's webhook for every event, the shopper's e-mail for the chosen ones. */
export interface Channels {
  webhookUrl: string | undefined;
  /** The events that e-mail the shopper; undefined: e-mail is off. */
  mailEvents: readonly ShipmentEventType[] | undefined;
}

export interface WatcherOptions {
  watches: WatchStore;
  ledger: Pick<LedgerStore, 'get'>;
  /** The platform's tracking, in the watcher's lane of the budget (`BFF_WATCH_SHARE`). */
  client: Pick<RestClient, 'tracking'>;
  /** The tracking cache: what the watcher learns, visitors are served without another call. */
  cache: TrackingStore;
  links: TrackingLinks;
  channels: Channels;
  stallDays: number;
  intervalMs: number;
  logger: Logger;
  now?: () => number;
  /** The delivery promise's history: each look teaches it, and a promise about to be broken is an event. */
  promise?: TransitRecorder | undefined;
  /** The dispatcher's clock, for the deliveries of an event (`now` unless a test clock drives the watcher). */
  sendNow?: () => number;
}

/** What one round did. */
export interface RoundReport {
  looked: number;
  events: number;
  /** The watcher's share ran out (or the platform failed) before every due label was looked at. */
  stopped: boolean;
}

/**
 * Follows the labels the BFF issued until they are delivered or returned: every round, the labels due are claimed 50
 * at a time (one tracking call each, in the watcher's own share of the store's budget, so visitors are never starved),
 * each result is compared with what was last seen (changes.ts), and a change becomes one event with its deliveries,
 * recorded in the same transaction as the look (watch-store.ts). What the share cannot cover this round is first in
 * line the next.
 */
export class Watcher {
  private readonly options: Required<WatcherOptions>;

  constructor(options: WatcherOptions) {
    const now = options.now ?? Date.now;
    this.options = { now, promise: undefined, sendNow: now, ...options };
  }

  async round(): Promise<RoundReport> {
    const { watches, now, intervalMs } = this.options;
    const report: RoundReport = { looked: 0, events: 0, stopped: false };
    await watches.discover(now(), this.options.sendNow());
    await this.beginHistories();
    for (;;) {
      const claimed = await watches.claimDue(MAX_CODES, now(), now() + intervalMs);
      if (claimed.length === 0) return report;
      const results = await this.track(claimed);
      if (!results) {
        report.stopped = true;
        return report;
      }
      const rows = await this.historyOf(claimed);
      for (const watch of claimed) {
        const result = results.get(watch.trackingCode);
        if (!result) continue;
        report.looked += 1;
        if (await this.record(watch, result, rows.get(watch.attemptId))) report.events += 1;
      }
      if (claimed.length < MAX_CODES) return report;
    }
  }

  /** One upstream call for the batch; its results also fill the visitors' cache. Undefined when it could not be made. */
  private async track(claimed: Watch[]): Promise<Map<string, TrackingResult> | undefined> {
    const { client, cache, watches, logger, now } = this.options;
    const codes = [...new Set(claimed.map((watch) => watch.trackingCode))];
    try {
      const { results } = await client.tracking(codes, 'watcher');
      await Promise.all(results.map((result) => cache.set(result.code, result)));
      return new Map(results.map((result) => [result.code, result]));
    } catch (error) {
      if (isUpstreamError(error) && error.failure === 'limited') {
        // The share is spent for now: these go first next round.
        await watches.putBack(claimed, now());
        logger.info(
          { labels: claimed.length },
          'watcher: its share of the tracking allowance is spent; next round',
        );
      } else {
        logger.warn(
          { labels: claimed.length, error: messageOf(error) },
          'watcher: tracking lookup failed; next round',
        );
      }
      return undefined;
    }
  }

  /** The promise's history rows start for new labels; a failure there never stops the watcher's own work. */
  private async beginHistories(): Promise<void> {
    const { promise, logger } = this.options;
    await promise?.begin().catch((error: unknown) => {
      logger.warn(
        { error: messageOf(error) },
        'watcher: the delivery promise’s history could not be started',
      );
    });
  }

  private async historyOf(claimed: readonly Watch[]): Promise<Map<string, TransitRow>> {
    const { promise, logger } = this.options;
    if (!promise) return new Map();
    return promise.rows(claimed.map((watch) => watch.attemptId)).catch((error: unknown) => {
      logger.warn({ error: messageOf(error) }, 'watcher: the delivery promise’s history could not be read');
      return new Map();
    });
  }

  /**
   * Records the look (and what it teaches the promise's history, in the same transaction); answers whether it made
   * an event. A promise about to be broken is an event of its own when the look made no other (the next look tells
   * it otherwise).
   */
  private async record(watch: Watch, result: TrackingResult, row: TransitRow | undefined): Promise<boolean> {
    const { watches, stallDays, now, logger, promise } = this.options;
    const at = now();
    const look = lookAt(watch, result, at, stallDays);
    let learnt: PromiseLook | undefined = row && promise ? promise.look(row, result, at) : undefined;
    if (learnt?.atRisk && look.event) {
      const { atRiskAt: _later, ...change } = learnt.change;
      learnt = { change, atRisk: false };
    }
    const change: Look['event'] | undefined =
      look.event ??
      (learnt?.atRisk
        ? {
            type: 'shipment.promise_at_risk',
            status: look.next.status ?? 'in-transit',
            ...lastEventOf(look, result),
          }
        : undefined);
    const event = change ? await this.eventOf(watch, change, at, row) : undefined;
    const write =
      row && promise && learnt ? (tx: SqlRunner) => promise.write(tx, row, learnt.change, at) : undefined;
    const recorded = await watches.record(watch, look, event, at, write, this.options.sendNow());
    if (recorded && event) {
      logger.info({ event: event.id, type: event.type, attempt: watch.attemptId }, 'watcher: shipment event');
      return true;
    }
    return false;
  }

  private async eventOf(
    watch: Watch,
    change: NonNullable<Look['event']>,
    at: number,
    row: TransitRow | undefined,
  ): Promise<NewEvent | undefined> {
    const { ledger, links, channels } = this.options;
    const attempt = await ledger.get(watch.attemptId);
    // The promise while the parcel is on its way: not once it arrived, went back, or waits to be picked up.
    const promise = ON_ITS_WAY.includes(change.status) ? soldPromiseOf(row) : undefined;
    const pickupBy =
      change.status === 'awaiting-pickup'
        ? isoDate(civilDate(pickupLastDayOf(change.lastEvent, at)))
        : undefined;
    const locale = localeOf(attempt?.locale) ?? 'pt-BR';
    const body: ShipmentEvent = ShipmentEventSchema.parse({
      type: change.type,
      timestamp: new Date(at).toISOString(),
      data: {
        ...(attempt?.orderId ? { orderId: attempt.orderId, volume: attempt.volume ?? 1 } : {}),
        trackingCode: watch.trackingCode,
        prepostagemId: attempt?.prepostagemId ?? '',
        status: change.status,
        ...(change.lastEvent ? { lastEvent: change.lastEvent } : {}),
        trackingUrl: links.url(watch.attemptId, locale),
        ...(promise ? { promise } : {}),
        ...(pickupBy ? { pickupBy } : {}),
      },
    });
    const deliveries: { channel: Channel; target: string }[] = [];
    if (channels.webhookUrl) deliveries.push({ channel: 'webhook', target: channels.webhookUrl });
    const email = attempt
      ? EmailOfSchema.safeParse(JSON.parse(attempt.request)).data?.recipient.email
      : undefined;
    if (email && channels.mailEvents?.includes(change.type))
      deliveries.push({ channel: 'email', target: email });
    return { id: newEventId(), type: change.type, body: JSON.stringify(body), deliveries };
  }
}

/** The carrier's latest standing event of a result, for an event that is not a change of status. */
function lastEventOf(look: Look, result: TrackingResult): { lastEvent?: TrackingEvent } {
  const event = result.found ? parcelState(result).event : undefined;
  return look.next.status !== null && event ? { lastEvent: event } : {};
}
