import { ConfigError } from './config.ts';
import type { BffDeps } from './deps.ts';
import type { ReadinessCheck } from './http/health.ts';
import { LabelIssuer } from './labels/issuer.ts';
import { LabelService } from './labels/service.ts';
import { ServiceCodes } from './labels/service-codes.ts';
import { createLogger } from './logger.ts';
import { createNotifications, WATCH_DAYS } from './notifications/notifications.ts';
import { BffOAuth } from './oauth/oauth.ts';
import { StoreOrderBinding } from './orders/binding.ts';
import { CepDirectory } from './orders/cep-directory.ts';
import { TrackingLinks } from './orders/links.ts';
import { OrderLookup } from './orders/lookup.ts';
import { lifecycleRefusal, OrderDesk } from './orders/order-desk.ts';
import { ShipmentPlans } from './packing/packing.ts';
import { createHistoryPromises } from './promise/promises.ts';
import { TransitRecorder } from './promise/recorder.ts';
import { RatesService } from './rates/service.ts';
import { ShippingRulesStore } from './rules/rules-store.ts';
import { createConnections } from './stores/connections.ts';
import { storeRegistrar } from './stores/store-registration.ts';
import { TrackingBack } from './stores/tracking-back.ts';
import { TrackingService } from './tracking/service.ts';
import { PlatformMcp } from './upstream/platform-mcp.ts';
import { createRestClient } from './upstream/rest-client.ts';

/** The package a label's platform count is asked for: the deadline does not depend on the weight (spec 2.2). */
const NOMINAL_ITEM = { name: 'volume', quantity: 1, unitPriceBRL: 0, weightKg: 0.3 };

/**
 * Real ms between the watcher's rounds under `BFF_TEST_CLOCK=sandbox`: what is due is decided by the sandbox's time,
 * and a round each 2 s spends at most 30 tracking calls a minute (`BFF_WATCH_SHARE=0.5` of 60: `npm start`'s).
 */
const TEST_CLOCK_CADENCE_MS = 2_000;

/**
 * The BFF's parts, built from its configuration and backends: the upstream clients, the quote core and promises, the
 * label issuer and service, tracking, notifications, the order desk and OAuth. `bff/app.ts` mounts their routes.
 */
export function createParts(deps: BffDeps) {
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
    ...(deps.coalesceNow ? { coalesceNow: deps.coalesceNow } : {}),
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
  // The merchant's shipping rules (docs/shipping-rules.md), beside the ledger: every instance reads the same ones.
  const shippingRules = new ShippingRulesStore(backends.sql, { now, logger });
  // The one quote core (docs/checkout/quote-core.md): verify, MCP, the desk, previews and every checkout adapter.
  const rates = new RatesService({
    rules: shippingRules,
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
    binding: new StoreOrderBinding(backends.orders),
    orderRefusal: async (orderId) => {
      const order = await backends.orders.get(orderId);
      return order ? lifecycleRefusal(order) : undefined;
    },
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
  // The stores' tokens: installed, granted, renewed, sealed at rest (bff/stores/connections.ts).
  const connections = createConnections({
    config,
    store: backends.connections,
    logger,
    now,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  // The carrier and the webhooks registered with a new connection's token, and again while that fails.
  const registrar = storeRegistrar({
    config,
    connections,
    store: backends.connections,
    logger,
    services: async () =>
      (
        await rates.quote({
          destinationCep: '01310100',
          items: [{ ...NOMINAL_ITEM, unitPriceBRL: 1, weightKg: 1 }],
        })
      ).rates.map((rate) => ({ serviceId: rate.serviceId, label: rate.label })),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  connections.useRegistrar(registrar);
  if (deps.orders?.timers !== false) connections.start();
  const trackingBack = new TrackingBack({
    access: connections.access,
    isConnected: connections.isConnected,
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

  return {
    config,
    backends,
    logger,
    now,
    workNow,
    rest,
    tracking,
    platform,
    ledger,
    issuer,
    promises,
    rates,
    shippingRules,
    serviceCodes,
    labels,
    plans,
    links,
    orders,
    notifications,
    cep,
    trackingBack,
    connections,
    registrar,
    orderDesk,
    oauth,
    labelsCheck,
    /** Stops what the parts run on timers (the backends belong to whoever opened them). */
    close: async () => {
      notifications.close();
      connections.close();
      clearInterval(trackingPoll);
      issuer.close();
      await plans.close();
      await platform.close();
    },
  };
}
