import express, { type Express } from 'express';
import helmet from 'helmet';
import { adminRoutes } from './admin/routes.ts';
import {
  RedisConnection,
  RedisVisitorLimiter,
  SharedBudget,
  SharedCatalog,
  SharedLoader,
  SharedTrackingCache,
} from './cluster/shared-state.ts';
import type { SharedStores } from './cluster/stores.ts';
import type { BffConfig } from './config.ts';
import { demoRoutes } from './demo/routes.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { healthRoutes, type ReadinessCheck, upstreamCheck } from './http/health.ts';
import { LabelIssuer } from './labels/issuer.ts';
import type { LedgerStore } from './labels/ledger.ts';
import { SqliteLedgerStore } from './labels/sqlite-store.ts';
import { createLogger, type Logger } from './logger.ts';
import { agentMcpRoutes } from './mcp/server.ts';
import { BffOAuth } from './oauth/oauth.ts';
import { openApiRoutes } from './openapi/document.ts';
import { pageRoutes } from './page/routes.ts';
import { ratesVerifyRoutes } from './rates/routes.ts';
import { RatesService } from './rates/service.ts';
import { widgetCheck, widgetRoutes } from './static/widget.ts';
import { TrackingCache } from './tracking/cache.ts';
import type { Schedule } from './tracking/coalescer.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';
import { MemoryBudget } from './upstream/budget.ts';
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
  /** The ledger and OAuth storage in PostgreSQL (`openSharedStores`, when `BFF_DATABASE_URL` is set). */
  stores?: SharedStores | undefined;
}

export interface Bff {
  app: Express;
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
  const { config } = deps;
  const logger = deps.logger ?? createLogger();
  const now = deps.now ?? Date.now;
  // Several instances (ARCHITECTURE.md): Redis shares limits, cache, coalescing, budget and catalog; PostgreSQL the
  // ledger and OAuth. Without them, this process's memory and node:sqlite.
  const redis = config.redisUrl
    ? new RedisConnection({ url: config.redisUrl, secretKey: config.secretKey, logger })
    : undefined;
  const localBudget = new MemoryBudget(config.shippingRateLimit);
  const rest = createRestClient({
    apiUrl: config.apiUrl,
    secretKey: config.secretKey,
    logger,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    budget: redis ? new SharedBudget(redis, config.shippingRateLimit, localBudget) : localBudget,
    ...deps.upstream,
  });
  const localCache = new TrackingCache({ now });
  let sharedLoader: SharedLoader | undefined;
  const windowMs = deps.coalesceWindowMs ?? 50;
  const tracking = new TrackingService({
    client: rest,
    cache: redis ? new SharedTrackingCache(redis, localCache, now) : localCache,
    logger,
    windowMs,
    ...(deps.schedule ? { schedule: deps.schedule } : {}),
    ...(redis
      ? {
          shared: (batch, local) => {
            sharedLoader = new SharedLoader({ connection: redis, batch, local, windowMs });
            return sharedLoader;
          },
        }
      : {}),
  });

  const platform = new PlatformMcp({
    url: config.mcpUrl,
    secretKey: config.secretKey,
    logger,
    now,
    sharedCatalog: redis ? new SharedCatalog(redis) : undefined,
  });
  const stores = deps.stores;
  const ledger =
    stores?.ledger ??
    new SqliteLedgerStore({
      dataDir: config.dataDir,
      now,
      keyWindowMs: config.idempotencyKeyDays * 86_400_000,
    });
  const issuer = new LabelIssuer({
    ledger,
    platform,
    logger,
    now,
    ...deps.labels,
    // A shared ledger holds other instances' calls in flight: only attempts pending longer than any call are orphans.
    sharedLedger: Boolean(stores),
  });
  // Attempts a previous run left pending become unknown and are reconciled before new labels go out.
  void issuer.start();
  const oauth = config.adminPassword
    ? new BffOAuth({ config, now, ...deps.oauth, store: stores?.oauth })
    : undefined;

  const ledgerCheck: ReadinessCheck = async () =>
    (await ledger.healthy())
      ? { name: 'ledger', ok: true, detail: stores ? 'PostgreSQL' : 'node:sqlite' }
      : { name: 'ledger', ok: false, detail: 'the label ledger does not answer' };
  // Redis down does not make the BFF unready: tracking and limits fall back to this instance; /readyz says so.
  const redisCheck: ReadinessCheck = async () =>
    (await redis?.ping())
      ? { name: 'redis', ok: true, detail: 'shared across instances' }
      : {
          name: 'redis',
          ok: true,
          detail: 'unreachable: tracking, limits and the upstream budget fall back to this instance',
        };
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
      [
        upstreamCheck(rest, now),
        ledgerCheck,
        labelsCheck,
        widgetCheck(deps.widgetDir),
        ...(redis ? [redisCheck] : []),
      ],
      logger,
    ),
  );
  app.use(
    agentMcpRoutes({
      config,
      rates: new RatesService({ client: rest, now }),
      tracking,
      platform,
      issuer,
      logger,
      oauth,
    }),
  );
  if (oauth) {
    app.use(oauth.routes());
    app.use(adminRoutes({ oauth, config, now }));
  }
  app.use(
    trackingRoutes({
      config,
      service: tracking,
      logger,
      ...(redis ? { limiter: new RedisVisitorLimiter(redis, config.visitorRateLimit) } : {}),
    }),
  );
  app.use(
    ratesVerifyRoutes({
      tokens: config.checkoutTokens,
      rates: new RatesService({ client: rest, now }),
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
    rest,
    tracking,
    ledger,
    issuer,
    platform,
    oauth,
    close: async () => {
      issuer.close();
      await platform.close();
      await sharedLoader?.close();
      redis?.close();
      // Shared stores belong to whoever opened them (main.ts), which closes them after.
      if (!stores) await ledger.close();
      oauth?.close();
    },
  };
}
