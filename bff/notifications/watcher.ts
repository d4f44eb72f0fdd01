import * as z from 'zod/mini';
import { MAX_CODES } from '../../shared/limits.ts';
import { localeOf } from '../../shared/locale.ts';
import {
  type ShipmentEvent,
  ShipmentEventSchema,
  type ShipmentEventType,
} from '../../shared/shipment-events.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { TrackingLinks } from '../orders/links.ts';
import type { TrackingStore } from '../tracking/cache.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import { type Look, lookAt } from './changes.ts';
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
    this.options = { now: Date.now, ...options };
  }

  async round(): Promise<RoundReport> {
    const { watches, now, intervalMs } = this.options;
    const report: RoundReport = { looked: 0, events: 0, stopped: false };
    await watches.discover(now());
    for (;;) {
      const claimed = await watches.claimDue(MAX_CODES, now(), now() + intervalMs);
      if (claimed.length === 0) return report;
      const results = await this.track(claimed);
      if (!results) {
        report.stopped = true;
        return report;
      }
      for (const watch of claimed) {
        const result = results.get(watch.trackingCode);
        if (!result) continue;
        report.looked += 1;
        if (await this.record(watch, result)) report.events += 1;
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

  /** Records the look; answers whether it made an event. */
  private async record(watch: Watch, result: TrackingResult): Promise<boolean> {
    const { watches, stallDays, now, logger } = this.options;
    const at = now();
    const look = lookAt(watch, result, at, stallDays);
    const event = look.event ? await this.eventOf(watch, look, at) : undefined;
    const recorded = await watches.record(watch, look, event, at);
    if (recorded && event) {
      logger.info({ event: event.id, type: event.type, attempt: watch.attemptId }, 'watcher: shipment event');
      return true;
    }
    return false;
  }

  private async eventOf(watch: Watch, look: Look, at: number): Promise<NewEvent | undefined> {
    const { ledger, links, channels } = this.options;
    const change = look.event;
    if (!change) return undefined;
    const attempt = await ledger.get(watch.attemptId);
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
