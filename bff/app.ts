import express, { type Express } from 'express';
import helmet from 'helmet';
import type { ClientMetadataFetchOptions } from '../shared/oauth/client-metadata.ts';
import { AdminSessions, adminRoutes } from './admin/admin.ts';
import type { Backends } from './backends/backends.ts';
import { checkoutRoutes } from './checkout/checkout.ts';
import { type BffConfig, ConfigError } from './config.ts';
import { demoRoutes } from './demo/demo.ts';
import { deskApiRoutes, deskPageRoutes } from './desk/desk.ts';
import { errorHandler, healthRoutes, notFound, type ReadinessCheck, upstreamCheck } from './http/http.ts';
import {
  LabelIssuer,
  type LabelIssuerOptions,
  LabelService,
  type LedgerStore,
  OperatorDecisions,
  ServiceCodes,
} from './labels/labels.ts';
import { createLogger, type Logger } from './logger.ts';
import { agentMcpRoutes } from './mcp/mcp.ts';
import {
  createNotifications,
  type Notifications,
  type NotificationsDeps,
  notificationRoutes,
  WATCH_DAYS,
} from './notifications/notifications.ts';
import { BffOAuth } from './oauth/oauth.ts';
import { openApiRoutes } from './openapi/openapi.ts';
import {
  CepDirectory,
  type CepLookup,
  OrderDesk,
  OrderLookup,
  orderDeskRoutes,
  orderRoutes,
  TrackingLinks,
} from './orders/orders.ts';
import { ShipmentPlans } from './packing/packing.ts';
import { pageRoutes } from './page/page.ts';
import {
  createHistoryPromises,
  type HistoryPromises,
  promiseRoutes,
  TransitRecorder,
  withPromises,
} from './promise/promise.ts';
import { RatesService, ratesVerifyRoutes } from './rates/rates.ts';
import { widgetCheck, widgetRoutes } from './static/static.ts';
import { storeWebhookRoutes, TrackingBack } from './stores/stores.ts';
import { type Schedule, TrackingService, trackingRoutes } from './tracking/tracking.ts';
import {
  createRestClient,
  PlatformMcp,
  type RestClient,
  type RestClientOptions,
} from './upstream/upstream.ts';

export interface BffDeps {
  config: BffConfig;
  logger?: Logger;
  /** Injectable time, randomness and upstream fetch, for tests. */
  now?: () => number;
  random?: () => number;
  fetch?: typeof fetch;
  schedule?: Schedule;
  /** How long lookups wait to be sent upstream together (default 50 ms). */
  coalesceWindowMs?: number;
  /** Retry timing of the upstream client (defaults suit production). */
  upstream?: Pick<
    RestClientOptions,
    'baseDelayMs' | 'maxDelayMs' | 'retries' | 'timeoutMs' | 'totalTimeoutMs'
  >;
  /** OAuth: the SDK's per-IP endpoint limits (default on); how client metadata documents are fetched (tests). */
  oauth?: { rateLimits?: boolean; clientMetadata?: ClientMetadataFetchOptions };
  /** Label timing (PDF backoff, generate_label timeout), for tests. */
  labels?: Pick<
    LabelIssuerOptions,
    'pdfDelaysMs' | 'timeoutMs' | 'dedupeWindowMs' | 'maxInFlight' | 'retryReconcileMs'
  >;
  /**
   * Notifications, for tests: `timers: false` leaves the cadence and the outbox poll off (the test calls `tick()`);
   * another mail port, the outbox lease, the poll interval.
   */
  notifications?: { timers?: boolean } & Pick<
    NotificationsDeps,
    'mailer' | 'leaseMs' | 'pollMs' | 'cadenceMs'
  >;
  /** How `order_not_found` waits for its time floor (tests observe it instead of sleeping). */
  lookupWait?: (ms: number) => Promise<void>;
  /** Where the built widget files are (default `dist/widget/`), for tests. */
  widgetDir?: string;
  /**
   * The orders' tracking going back to the stores, for tests: `timers: false` leaves its poll off (the test calls
   * `trackingBack.drain()`); another CEP lookup than the configured services.
   */
  orders?: { timers?: boolean; cep?: CepLookup; leaseMs?: number };
  /** Where the MCP apps' built documents are (default `dist/apps/`), for tests. */
  appsDir?: string;
  /** Where state lives (`openBackends`): opened, migrated and closed by the caller. */
  backends: Backends;
  /**
   * The clock of the BFF's time-dependent work — the watcher's cadence and stall clock, pickup countdowns, link
   * expiry, the delivery promise's "today" and its scores: the sandbox's under `BFF_TEST_CLOCK=sandbox` (main.ts
   * connects it, bff/clock/clock.ts); `now` otherwise.
   */
  workNow?: () => number;
  /**
   * The delivery promises every surface shows — the quote core's rates, the calculator's `/api/promises`, tracking,
   * e-mails: learnt from the store's parcels (bff/promise/), the store's handling days and cut-off
   * (`BFF_HANDLING_DAYS`, `BFF_CUTOFF`) in front, unless another implementation is given (tests).
   */
  promises?: HistoryPromises;
}

export interface Bff {
  app: Express;
  labels: LabelService;
  rest: RestClient;
  tracking: TrackingService;
  ledger: LedgerStore;
  issuer: LabelIssuer;
  platform: PlatformMcp;
  /** The OAuth authorization server for `/mcp`; undefined without `BFF_ADMIN_PASSWORD`. */
  oauth: BffOAuth | undefined;
  /** Whether a connection from this address is a proxy `BFF_TRUST_PROXY` trusts (exempt from the connection cap). */
  trustsProxy(address: string): boolean;
  /** The watcher, the outbox and its dispatcher (bff/notifications/). */
  notifications: Notifications;
  /** Signed links to an order's tracking page. */
  links: TrackingLinks;
  /** The delivery promises (bff/promise/). */
  promises: HistoryPromises;
  /** The orders to ship (bff/orders/) and their tracking sent back to the store (bff/stores/). */
  orderDesk: OrderDesk;
  trackingBack: TrackingBack;
  close(): Promise<void>;
}

type TrustFn = (address: string, hop: number) => boolean;

/** The package a label's platform count is asked for: the deadline does not depend on the weight (spec 2.2). */
const NOMINAL_ITEM = { name: 'volume', quantity: 1, unitPriceBRL: 0, weightKg: 0.3 };

/**
 * Real ms between the watcher's rounds under `BFF_TEST_CLOCK=sandbox`: what is due is decided by the sandbox's time,
 * and a round each 2 s spends at most 30 tracking calls a minute (`BFF_WATCH_SHARE=0.5` of 60: `npm start`'s).
 */
const TEST_CLOCK_CADENCE_MS = 2_000;

/** Builds the merchant's server (Express 5). Does not listen. */
export function createBff(deps: BffDeps): Bff {
  const { config, backends } = deps;
  const logger = deps.logger ?? createLogger();
  const now = deps.now ?? Date.now;
  if (config.testClock && !deps.workNow)
    throw new ConfigError(
      'BFF_TEST_CLOCK=sandbox: the sandbox’s clock is not connected (bff/main.ts connects it)',
    );
  const workNow = deps.workNow ?? now;
  const rest = createRestClient({
    apiUrl: config.apiUrl,
    secretKey: config.secretKey,
    logger,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    budget: backends.budget,
    ...deps.upstream,
  });
  const tracking = new TrackingService({
    client: rest,
    cache: backends.trackingCache,
    logger,
    windowMs: deps.coalesceWindowMs ?? 50,
    ...(deps.schedule ? { schedule: deps.schedule } : {}),
    shared: backends.codeLoader,
    share: backends.visitorShare,
  });

  const platform = new PlatformMcp({
    url: config.mcpUrl,
    secretKey: config.secretKey,
    logger,
    now,
    sharedCatalog: backends.catalog,
  });
  const ledger = backends.ledger;
  const issuer = new LabelIssuer({
    ledger,
    platform,
    logger,
    now,
    ...deps.labels,
    // A shared ledger holds other instances' calls in flight: only attempts pending longer than any call are orphans.
    sharedLedger: backends.sharedDatabase,
  });
  // Attempts a previous run left pending become unknown and are reconciled before new labels go out.
  void issuer.start();
  // One promise for every surface: the quote core's rates, /api/promises, tracking, e-mails (docs/promise.md).
  const promises =
    deps.promises ??
    createHistoryPromises({
      history: backends.transits,
      settings: config.promise,
      storeDays: config.storeDays,
      now: workNow,
      logger,
    });
  // The one quote core (docs/checkout/quote-core.md): verify, MCP, the desk, previews and every checkout adapter.
  const rates = new RatesService({
    client: rest,
    now,
    store: backends.quoteStore,
    shares: backends.quoteShares,
    promises,
    // Promised dates count from the work clock's today (the sandbox's under BFF_TEST_CLOCK), as /api/promises does.
    promiseNow: workNow,
    storeDays: config.storeDays,
    logger,
  });
  const serviceCodes = new ServiceCodes(config.serviceCodes);
  const labels = new LabelService({
    issuer,
    ledger,
    approvals: backends.approvals,
    serviceCodes,
    rates,
    now,
  });
  const plans = new ShipmentPlans({ boxes: config.boxes });
  const links = new TrackingLinks({ secret: backends.linkSecret, publicUrl: config.publicUrl, now: workNow });
  const recorder = new TransitRecorder({
    history: backends.transits,
    promises,
    serviceCodes,
    // A label whose lane has no history is promised the platform's count: the one last quoted for its CEP, else one
    // rates call (cached a minute).
    platformDays: async (destinationCep, serviceId) =>
      (await rates.quote({ destinationCep, items: [NOMINAL_ITEM] })).rates.find(
        (rate) => rate.serviceId === serviceId,
      )?.deliveryDays,
    now,
    workNow,
    watchDays: WATCH_DAYS,
    logger,
  });
  const orders = new OrderLookup(ledger);
  const { timers, ...notificationTests } = deps.notifications ?? {};
  const notifications = createNotifications({
    config,
    watches: backends.watches,
    outbox: backends.outbox,
    ledger,
    client: rest,
    cache: backends.trackingCache,
    links,
    logger,
    now,
    workNow,
    promise: recorder,
    // Under the test clock the watcher looks every 2 real seconds: what is due is decided by the sandbox's time.
    ...(config.testClock ? { cadenceMs: TEST_CLOCK_CADENCE_MS } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...notificationTests,
  });
  if (timers !== false) notifications.start();
  const cep =
    deps.orders?.cep ??
    new CepDirectory({
      services: config.cep.services,
      timeoutMs: config.cep.timeoutMs,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  const trackingBack = new TrackingBack({
    store: backends.fulfillments,
    config,
    logger,
    now,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.orders?.leaseMs === undefined ? {} : { leaseMs: deps.orders.leaseMs }),
  });
  const orderDesk = new OrderDesk({
    orders: backends.orders,
    ledger,
    labels,
    rates,
    fulfillments: backends.fulfillments,
    trackingBack,
    boxes: config.boxes,
    publicUrl: config.publicUrl,
    logger,
    now,
  });
  // The tracking outbox's poll (retries, and other instances' orders), as the notification outbox's.
  let trackingPoll: ReturnType<typeof setInterval> | undefined;
  if (deps.orders?.timers !== false) {
    void backends.fulfillments
      .releaseLeases()
      .then(() => trackingBack.drain())
      .catch(() => undefined);
    trackingPoll = setInterval(() => void trackingBack.drain().catch(() => undefined), 2_000);
    trackingPoll.unref();
  }
  const oauth =
    config.adminPassword && backends.oauth
      ? new BffOAuth({
          config,
          now,
          ...deps.oauth,
          store: backends.oauth,
          ...(backends.loginFailures ? { loginFailures: backends.loginFailures } : {}),
        })
      : undefined;

  // Label availability does not make the BFF unready; /readyz says why agents will not see label tools.
  const labelsCheck: ReadinessCheck = async () => {
    const labels = await platform.labelAvailability();
    return {
      name: 'labels',
      ok: true,
      detail: labels.available ? 'label tools offered' : `label tools not offered: ${labels.why}`,
    };
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(helmet({ crossOriginResourcePolicy: { policy: 'same-origin' } }));
  app.use(widgetRoutes(deps.widgetDir));
  app.use(
    healthRoutes(
      [upstreamCheck(rest, now), ...backends.checks, labelsCheck, widgetCheck(deps.widgetDir)],
      logger,
    ),
  );
  app.use(
    agentMcpRoutes({
      config,
      rates,
      labels,
      serviceCodes,
      plans,
      tracking,
      platform,
      issuer,
      logger,
      oauth,
      approvals: backends.approvals,
      appsDir: deps.appsDir,
      orders: orderDesk,
    }),
  );
  if (oauth) {
    const sessions = new AdminSessions({ store: oauth.store, publicUrl: config.publicUrl, now });
    app.use(oauth.routes());
    app.use(adminRoutes({ oauth, config, sessions, now }));
    const decisions = new OperatorDecisions({ ledger, platform });
    app.use(
      deskApiRoutes({
        sessions,
        ledger,
        labels,
        issuer,
        decisions,
        approvals: backends.approvals,
        rates,
        serviceCodes,
        plans,
        orders: {
          routes: orderDeskRoutes({
            desk: orderDesk,
            orders: backends.orders,
            cep,
            serviceCodes,
            fulfillments: backends.fulfillments,
            trackingBack,
            logger,
            now,
          }),
          plannedVolumes: async (orderId) => (await backends.orders.get(orderId))?.plannedVolumes ?? null,
        },
        secure: config.publicUrl.startsWith('https:'),
        setClientPolicy: (idHash, policy) =>
          oauth.store.setPolicy(idHash, policy === null ? null : JSON.stringify(policy)),
        logger,
      }),
    );
    app.use(
      notificationRoutes({
        sessions,
        secure: config.publicUrl.startsWith('https:'),
        outbox: backends.outbox,
        dispatch: () => void notifications.dispatcher.drain().catch(() => undefined),
        now,
      }),
    );
    app.use(
      deskPageRoutes({
        sessions,
        ledger,
        decisions,
        approvals: backends.approvals,
        labels,
        serviceCodes,
        publicUrl: config.publicUrl,
        transits: backends.transits,
        workNow,
        orders: orderDesk,
      }),
    );
  }
  const promised = withPromises(backends.transits);
  app.use(
    trackingRoutes({
      config,
      service: tracking,
      limiter: backends.visitorLimiter,
      promised,
    }),
  );
  app.use(promiseRoutes({ promises, limiter: backends.visitorLimiter, now: workNow }));
  app.use(
    ratesVerifyRoutes({
      tokens: config.checkoutTokens,
      // The one quote core: an identical quote within its cache time is one call, whoever asks.
      rates,
      logger,
    }),
  );
  app.use(checkoutRoutes({ config, rates, serviceCodes, logger }));
  app.use(
    storeWebhookRoutes({
      config,
      orders: backends.orders,
      cep,
      serviceCodes,
      logger,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }),
  );
  app.use(
    orderRoutes({
      config,
      orders,
      tracking,
      limiter: backends.visitorLimiter,
      throttle: backends.lookupThrottle,
      promised,
      ...(deps.lookupWait ? { wait: deps.lookupWait } : {}),
    }),
  );
  app.use(openApiRoutes(config.publicUrl));
  app.use(pageRoutes({ store: config.store, links, orders }));
  app.use(demoRoutes(config));
  app.get('/', (_req, res) => res.redirect(302, '/demo/'));
  app.use(notFound);
  app.use(errorHandler(logger));
  return {
    app,
    labels,
    rest,
    tracking,
    ledger,
    issuer,
    platform,
    oauth,
    // Express compiles `trust proxy` into this setting (proxy-addr's matcher, or a hop count); hop 0 is the peer.
    trustsProxy: (address) => Boolean((app.get('trust proxy fn') as TrustFn)(address, 0)),
    notifications,
    links,
    promises,
    orderDesk,
    trackingBack,
    close: async () => {
      // The backends belong to whoever opened them (main.ts), which closes them after.
      notifications.close();
      clearInterval(trackingPoll);
      issuer.close();
      await plans.close();
      await platform.close();
    },
  };
}
