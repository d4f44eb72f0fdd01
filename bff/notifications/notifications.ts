import type { BffConfig } from '../config.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { TrackingLinks } from '../orders/links.ts';
import type { TransitRecorder } from '../promise/recorder.ts';
import type { TrackingStore } from '../tracking/cache.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import { Dispatcher } from './dispatcher.ts';
import { type MailPort, SmtpMailer } from './mailer.ts';
import type { Outbox } from './outbox.ts';
import type { WatchStore } from './watch-store.ts';
import { type RoundReport, Watcher } from './watcher.ts';
import { WebhookSender } from './webhook.ts';

export { WATCH_DAYS } from './migrations.ts';
export { notificationRoutes } from './routes.ts';

/**
 * The share of the tracking allowance the watcher keeps (`BFF_WATCH_SHARE`): none when no channel is configured —
 * a watcher with nobody to tell would spend the store's calls for nothing, so the visitors keep the whole route.
 */
export function watcherShare(config: Pick<BffConfig, 'notifications'>): number {
  const { watchShare, webhookUrl, smtpUrl } = config.notifications;
  return webhookUrl || smtpUrl ? watchShare : 0;
}

export interface NotificationsDeps {
  config: BffConfig;
  watches: WatchStore;
  outbox: Outbox;
  ledger: Pick<LedgerStore, 'get'>;
  client: Pick<RestClient, 'tracking'>;
  cache: TrackingStore;
  links: TrackingLinks;
  logger: Logger;
  /** The BFF's clock: the outbox's tries and the webhooks' timestamps (a receiver checks them against its own). */
  now?: () => number;
  /**
   * The clock of the watcher's work — its cadence, the stall clock, pickup countdowns, the promise's scores: the
   * sandbox's under `BFF_TEST_CLOCK=sandbox`; `now` otherwise.
   */
  workNow?: () => number;
  /** Real ms between two rounds of the watcher (default `BFF_WATCH_INTERVAL_S`; 1 s under the test clock). */
  cadenceMs?: number;
  /** The delivery promise's history, which every look teaches (bff/promise/). */
  promise?: TransitRecorder;
  random?: () => number;
  /** Tests: another mail port than SMTP, the webhook's fetch, the outbox lease, the dispatcher's poll. */
  mailer?: MailPort;
  fetch?: typeof fetch;
  leaseMs?: number;
  pollMs?: number;
}

/** The watcher and the dispatcher, with their timers. */
export interface Notifications {
  /** Undefined when nothing is configured to tell (no webhook, no SMTP) or `BFF_WATCH_SHARE=0`. */
  watcher: Watcher | undefined;
  dispatcher: Dispatcher;
  outbox: Outbox;
  watches: WatchStore;
  /** One round of the watcher, then everything due sent: what a cadence does (tests call it directly). */
  tick(): Promise<RoundReport | undefined>;
  /** Starts the cadence (`BFF_WATCH_INTERVAL_S`) and the outbox poll. */
  start(): void;
  close(): void;
}

/** The dispatcher looks at the outbox this often for retries and other instances' events (default 2 s). */
const POLL_MS = 2_000;

export function createNotifications(deps: NotificationsDeps): Notifications {
  const { config, logger } = deps;
  const now = deps.now ?? Date.now;
  const { notifications: settings } = config;
  const webhook =
    settings.webhookUrl && settings.webhookSecret
      ? new WebhookSender({
          url: settings.webhookUrl,
          secret: settings.webhookSecret,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : undefined;
  const mailer =
    deps.mailer ??
    (settings.smtpUrl && settings.mailFrom
      ? new SmtpMailer({ url: settings.smtpUrl, from: settings.mailFrom })
      : undefined);
  const dispatcher = new Dispatcher({
    outbox: deps.outbox,
    ledger: deps.ledger,
    webhook,
    mailer,
    store: config.store,
    logger,
    now,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.leaseMs === undefined ? {} : { leaseMs: deps.leaseMs }),
  });
  const watcher =
    watcherShare(config) > 0
      ? new Watcher({
          watches: deps.watches,
          ledger: deps.ledger,
          client: deps.client,
          cache: deps.cache,
          links: deps.links,
          channels: { webhookUrl: webhook?.url, mailEvents: mailer ? settings.mailEvents : undefined },
          stallDays: settings.stallDays,
          intervalMs: settings.watchIntervalMs,
          logger,
          now: deps.workNow ?? now,
          sendNow: now,
          promise: deps.promise,
        })
      : undefined;

  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;
  /** Runs `run` after `first` ms, then again `every` ms after each run ends (runs never overlap). */
  const later = (first: number, run: () => Promise<unknown>, every = first) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void run().finally(() => later(every, run, every));
    }, first);
    timer.unref();
    timers.add(timer);
  };
  const failed = (what: string) => (error: unknown) => {
    logger.error({ error: messageOf(error) }, `notifications: ${what} failed`);
  };
  const tick = async (): Promise<RoundReport | undefined> => {
    const report = await watcher?.round();
    await dispatcher.drain();
    return report;
  };

  return {
    watcher,
    dispatcher,
    outbox: deps.outbox,
    watches: deps.watches,
    tick,
    start() {
      // node:sqlite has one writer: a lease left in the file belongs to a process that is gone.
      void deps.outbox
        .releaseLeases()
        .then(() => dispatcher.drain())
        .catch(failed('the outbox'));
      later(deps.pollMs ?? POLL_MS, () => dispatcher.drain().catch(failed('sending')));
      // The cadence: a round at start, then each one `BFF_WATCH_INTERVAL_S` after the previous one ended.
      if (watcher)
        later(0, () => tick().catch(failed('the watcher')), deps.cadenceMs ?? settings.watchIntervalMs);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      mailer?.close();
    },
  };
}
