import express, { type Express } from 'express';
import helmet from 'helmet';
import { adminRoutes } from './admin/routes.ts';
import { AdminSessions } from './admin/session.ts';
import type { Backends } from './backends/backends.ts';
import type { BffConfig } from './config.ts';
import { demoRoutes } from './demo/routes.ts';
import { deskApiRoutes } from './desk/api.ts';
import { deskPageRoutes } from './desk/pages.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { healthRoutes, type ReadinessCheck, upstreamCheck } from './http/health.ts';
import { OperatorDecisions } from './labels/decisions.ts';
import { LabelIssuer } from './labels/issuer.ts';
import type { LedgerStore } from './labels/ledger-store.ts';
import { LabelService } from './labels/service.ts';
import { ServiceCodes } from './labels/service-codes.ts';
import { createLogger, type Logger } from './logger.ts';
import { agentMcpRoutes } from './mcp/server.ts';
import { BffOAuth } from './oauth/oauth.ts';
import { openApiRoutes } from './openapi/document.ts';
import { pageRoutes } from './page/routes.ts';
import { ratesVerifyRoutes } from './rates/routes.ts';
import { RatesService } from './rates/service.ts';
import { widgetCheck, widgetRoutes } from './static/widget.ts';
import type { Schedule } from './tracking/coalescer.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';
import { PlatformMcp } from './upstream/platform-mcp.ts';
import { createRestClient, type RestClient } from './upstream/rest-client.ts';

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
  upstream?: {
    baseDelayMs?: number;
    maxDelayMs?: number;
    retries?: number;
    timeoutMs?: number;
    totalTimeoutMs?: number;
  };
  /** OAuth: the SDK's per-IP endpoint limits (default on). */
  oauth?: { rateLimits?: boolean };
  /** Label timing (PDF backoff, generate_label timeout), for tests. */
  labels?: {
    pdfDelaysMs?: number[];
    timeoutMs?: number;
    dedupeWindowMs?: number;
    maxInFlight?: number;
    retryReconcileMs?: number[];
  };
  /** Where the built widget files are (default `dist/widget/`), for tests. */
  widgetDir?: string;
  /** Where state lives (`openBackends`): opened, migrated and closed by the caller. */
  backends: Backends;
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
  close(): Promise<void>;
}

/** Builds the merchant's server (Express 5). Does not listen. */
export function createBff(deps: BffDeps): Bff {
  const { config, backends } = deps;
  const logger = deps.logger ?? createLogger();
  const now = deps.now ?? Date.now;
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
  const rates = new RatesService({ client: rest, now });
  const serviceCodes = new ServiceCodes(config.serviceCodes);
  const labels = new LabelService({
    issuer,
    ledger,
    approvals: backends.approvals,
    serviceCodes,
    rates,
    logger,
    now,
  });
  const oauth =
    config.adminPassword && backends.oauth
      ? new BffOAuth({ config, now, ...deps.oauth, store: backends.oauth })
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
      boxes: config.boxes,
      tracking,
      platform,
      issuer,
      logger,
      oauth,
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
        boxes: config.boxes,
        setClientPolicy: (idHash, policy) =>
          oauth.store.setPolicy(idHash, policy === null ? null : JSON.stringify(policy)),
        logger,
      }),
    );
    app.use(
      deskPageRoutes({
        sessions,
        ledger,
        decisions,
        approvals: backends.approvals,
        serviceCodes,
        publicUrl: config.publicUrl,
      }),
    );
  }
  app.use(
    trackingRoutes({
      config,
      service: tracking,
      logger,
      limiter: backends.visitorLimiter,
    }),
  );
  app.use(
    ratesVerifyRoutes({
      tokens: config.checkoutTokens,
      // One quote cache for agents, checkouts and label previews: an identical quote within a minute is one call.
      rates,
      logger,
    }),
  );
  app.use(openApiRoutes(config.publicUrl));
  app.use(pageRoutes(config.store));
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
    close: async () => {
      // The backends belong to whoever opened them (main.ts), which closes them after.
      issuer.close();
      await platform.close();
    },
  };
}
