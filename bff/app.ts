import express, { type Express } from 'express';
import helmet from 'helmet';
import type { BffConfig } from './config.ts';
import { demoRoutes } from './demo/routes.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { healthRoutes, type ReadinessCheck, upstreamCheck } from './http/health.ts';
import { LabelIssuer } from './labels/issuer.ts';
import { LabelLedger } from './labels/ledger.ts';
import { createLogger, type Logger } from './logger.ts';
import { PlatformMcp } from './mcp/platform.ts';
import { agentMcpRoutes } from './mcp/server.ts';
import { pageRoutes } from './page/routes.ts';
import { RatesService } from './rates/service.ts';
import { widgetRoutes } from './static/widget.ts';
import { TrackingCache } from './tracking/cache.ts';
import type { Schedule } from './tracking/coalescer.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';
import { UpstreamBudget } from './upstream/budget.ts';
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
  /** Label timing (PDF backoff, generate_label timeout), for tests. */
  labels?: { pdfDelaysMs?: number[]; timeoutMs?: number; dedupeWindowMs?: number };
}

export interface Bff {
  app: Express;
  rest: RestClient;
  tracking: TrackingService;
  ledger: LabelLedger;
  issuer: LabelIssuer;
  platform: PlatformMcp;
  close(): Promise<void>;
}

/** Builds the merchant's server (Express 5). Does not listen. */
export function createBff(deps: BffDeps): Bff {
  const { config } = deps;
  const logger = deps.logger ?? createLogger();
  const now = deps.now ?? Date.now;
  const rest = createRestClient({
    apiUrl: config.apiUrl,
    secretKey: config.secretKey,
    logger,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    budget: new UpstreamBudget(config.shippingRateLimit),
    ...deps.upstream,
  });
  const tracking = new TrackingService({
    client: rest,
    cache: new TrackingCache({ now }),
    logger,
    windowMs: deps.coalesceWindowMs ?? 50,
    ...(deps.schedule ? { schedule: deps.schedule } : {}),
  });

  const platform = new PlatformMcp({ url: config.mcpUrl, secretKey: config.secretKey, logger, now });
  const ledger = new LabelLedger({ dataDir: config.dataDir, now });
  const issuer = new LabelIssuer({ ledger, platform, logger, now, ...deps.labels });

  const ledgerCheck: ReadinessCheck = async () =>
    ledger.healthy()
      ? { name: 'ledger', ok: true }
      : { name: 'ledger', ok: false, detail: 'the label ledger does not answer' };
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
  app.use(widgetRoutes());
  app.use(healthRoutes([upstreamCheck(rest, now), ledgerCheck, labelsCheck], logger));
  app.use(
    agentMcpRoutes({
      config,
      rates: new RatesService({ client: rest, now }),
      tracking,
      platform,
      issuer,
      logger,
    }),
  );
  app.use(trackingRoutes({ config, service: tracking, logger }));
  app.use(pageRoutes());
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
    close: async () => {
      await platform.close();
      ledger.close();
    },
  };
}
