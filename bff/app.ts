import express, { type Express } from 'express';
import helmet from 'helmet';
import { adminRoutes } from './admin/routes.ts';
import { AdminSessions } from './admin/session.ts';
import { checkoutRoutes } from './checkout/checkout.ts';
import { demoRoutes } from './demo/demo.ts';
import type { BffDeps } from './deps.ts';
import { deskApiRoutes } from './desk/api.ts';
import { deskPageRoutes } from './desk/pages.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { healthRoutes, upstreamCheck } from './http/health.ts';
import { openApiRoutes } from './http/openapi.ts';
import { OperatorDecisions } from './labels/decisions.ts';
import type { LabelIssuer } from './labels/issuer.ts';
import type { LedgerStore } from './labels/ledger-store.ts';
import type { LabelService } from './labels/service.ts';
import { agentMcpRoutes } from './mcp/mcp.ts';
import { type Notifications, notificationRoutes } from './notifications/notifications.ts';
import type { BffOAuth } from './oauth/oauth.ts';
import { orderDeskRoutes } from './orders/desk-routes.ts';
import type { TrackingLinks } from './orders/links.ts';
import type { OrderDesk } from './orders/order-desk.ts';
import { orderRoutes } from './orders/routes.ts';
import { pageRoutes } from './page/page.ts';
import { createParts } from './parts.ts';
import { Privacy, privacyRequestsSection, privacyRoutes } from './privacy/privacy.ts';
import type { HistoryPromises } from './promise/promises.ts';
import { promiseRoutes, withPromises } from './promise/routes.ts';
import { ratesVerifyRoutes } from './rates/routes.ts';
import { shippingRulesPageRoutes } from './rules/page.ts';
import { shippingRulesAdminRoutes, shippingRulesRoutes } from './rules/routes.ts';
import { widgetCheck, widgetRoutes } from './static/static.ts';
import type { StoreConnections } from './stores/connections.ts';
import { installRoutes } from './stores/install-routes.ts';
import { UnverifiedBytes } from './stores/signed-body.ts';
import { storeDeskRoutes } from './stores/store-desk-routes.ts';
import type { TrackingBack } from './stores/tracking-back.ts';
import { storeWebhookRoutes } from './stores/webhooks.ts';
import { trackingRoutes } from './tracking/routes.ts';
import type { TrackingService } from './tracking/service.ts';
import type { PlatformMcp } from './upstream/platform-mcp.ts';
import type { RestClient } from './upstream/rest-client.ts';

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
  /** The stores' connections: installs, grants, renewals (bff/stores/connections.ts). */
  connections: StoreConnections;
  close(): Promise<void>;
}

type TrustFn = (address: string, hop: number) => boolean;

/** Builds the merchant's server (Express 5). Does not listen. */
export function createBff(deps: BffDeps): Bff {
  const parts = createParts(deps);
  const { config, backends, logger, now, workNow, rest, tracking, platform, ledger, issuer, promises } =
    parts;
  const { rates, serviceCodes, labels, plans, links, orders, notifications, cep, trackingBack, orderDesk } =
    parts;
  const { oauth, labelsCheck, connections, shippingRules } = parts;
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
      promised: withPromises(backends.transits, workNow, (codes) => backends.watches.stalledAmong(codes)),
      platform,
      issuer,
      logger,
      oauth,
      approvals: backends.approvals,
      appsDir: deps.appsDir,
      orders: orderDesk,
    }),
  );
  // The shoppers' privacy requests and the erasure (bff/privacy/): the stores' webhooks and the desk's API.
  const privacy = new Privacy({
    sql: backends.sql,
    config,
    logger,
    now,
    known: async (platform, store) => (await backends.connections.get(platform, store)) !== undefined,
  });
  if (oauth) {
    const sessions = new AdminSessions({ store: oauth.store, publicUrl: config.publicUrl, now });
    app.use(oauth.routes());
    app.use(adminRoutes({ oauth, config, sessions, now }));
    app.use(
      shippingRulesAdminRoutes({
        sessions,
        store: shippingRules,
        rates,
        services: Object.keys(config.serviceCodes),
        logger,
      }),
    );
    app.use(
      shippingRulesPageRoutes({
        sessions,
        store: shippingRules,
        rates,
        services: Object.keys(config.serviceCodes),
        secure: config.publicUrl.startsWith('https:'),
        logger,
      }),
    );
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
    app.use(privacyRoutes({ privacy, sessions, secure: config.publicUrl.startsWith('https:') }));
    app.use(
      storeDeskRoutes({
        sessions,
        store: backends.connections,
        connections,
        config,
        now,
        // ARCHITECTURE "Connected stores": /admin/stores offers what the kit holds of a data request's customer.
        privacyRequests: async (lang) =>
          privacyRequestsSection({ requests: await privacy.requests.list(), lang }),
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
        promises,
        orders: orderDesk,
      }),
    );
  }
  const promised = withPromises(backends.transits, workNow, (codes) => backends.watches.stalledAmong(codes));
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
  // One bound on the bytes of signed bodies not verified yet, for every platform route (bff/stores/signed-body.ts).
  const unverified = new UnverifiedBytes();
  app.use(
    checkoutRoutes({
      config,
      rates,
      serviceCodes,
      logger,
      unverified,
      shopifyShop: () => connections.shopOf('shopify'),
    }),
  );
  app.use(
    installRoutes({
      config,
      connections,
      store: backends.connections,
      logger,
      now,
      register: parts.registrar,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }),
  );
  app.use(shippingRulesRoutes({ store: shippingRules }));
  app.use(
    storeWebhookRoutes({
      config,
      unverified,
      privacy,
      orders: backends.orders,
      fulfillments: backends.fulfillments,
      drain: () => trackingBack.drain(),
      now,
      cep,
      serviceCodes,
      logger,
      connections,
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
    connections,
    // The backends belong to whoever opened them (main.ts), which closes them after.
    close: parts.close,
  };
}
