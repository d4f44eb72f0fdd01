import { memoryLoginCounter } from '../../shared/oauth/login-guard.ts';
import { OAuthStore } from '../../shared/oauth/store.ts';
import { migrate } from '../../shared/sql/migrate.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import {
  CounterPolicy,
  MemoryCounter,
  type RateLimit,
  type WindowedCounter,
} from '../../shared/windowed-counter.ts';
import type { BffConfig } from '../config.ts';
import type { ReadinessCheck } from '../http/health.ts';
import { LedgerStore } from '../labels/ledger-store.ts';
import type { Logger } from '../logger.ts';
import { NOTIFICATION_MIGRATIONS } from '../notifications/migrations.ts';
import { watcherShare } from '../notifications/notifications.ts';
import { Outbox } from '../notifications/outbox.ts';
import { WatchStore } from '../notifications/watch-store.ts';
import { linkSecret, SECRET_MIGRATIONS } from '../orders/link-secret.ts';
import { LOOKUP_FAILURES, LookupThrottle } from '../orders/lookup-throttle.ts';
import { OrderStore } from '../orders/order-store.ts';
import { ApprovalStore } from '../policies/approval-store.ts';
import { TransitHistory } from '../promise/history-store.ts';
import { PROMISE_MIGRATIONS } from '../promise/migrations.ts';
import { MemoryQuoteStore, type QuoteStore } from '../rates/quote-cache.ts';
import { openLaneOf, QuoteShares, quoteShareOf } from '../rates/quote-share.ts';
import { RedisQuoteStore } from '../rates/redis-quote-cache.ts';
import { CONNECTION_MIGRATIONS, ConnectionStore } from '../stores/connection-store.ts';
import { connectionWindows } from '../stores/connection-windows.ts';
import { FulfillmentStore } from '../stores/tracking-back.ts';
import { TrackingCache, type TrackingStore } from '../tracking/cache.ts';
import { RedisTrackingCache } from '../tracking/redis-cache.ts';
import { RedisCodeLoader } from '../tracking/redis-coalescer.ts';
import type { SharedLoader } from '../tracking/service.ts';
import { visitorShareOf } from '../tracking/visitor-share.ts';
import { RouteBudget, routeLimit, type UpstreamBudget } from '../upstream/budget.ts';
import type { SharedCatalogStore } from '../upstream/platform-mcp.ts';
import { RedisCatalog } from '../upstream/redis-catalog.ts';
import { RedisConnection } from './redis.ts';
import { RedisCounter } from './redis-counter.ts';
import { SqlCounter } from './sql-counter.ts';

/**
 * Where the BFF's state lives, chosen once from the configuration (docs/architecture.md, "Several instances"): every
 * capability takes its store from here and never asks which kind it got.
 *
 * - Durable state (label ledger, OAuth, and what this round adds on top of the ledger's database): one SQL layer, on
 *   node:sqlite files in `BFF_DATA_DIR`, or on the PostgreSQL of `BFF_DATABASE_URL` that every instance shares.
 * - Fast shared state (visitor limit, tracking cache and coalescing, upstream budget, platform catalog): this
 *   process's memory, or the Redis of `BFF_REDIS_URL` with this process's memory as its fallback.
 */
export interface Backends {
  /** The database of the ledger and of the state built beside it. */
  sql: Sql;
  ledger: LedgerStore;
  /** The merchant's approvals of agents' labels, beside the ledger. */
  approvals: ApprovalStore;
  /** The watcher's state and the notification outbox, beside the ledger (bff/notifications/). */
  watches: WatchStore;
  outbox: Outbox;
  /** The store's transit history, what its delivery promise is learnt from (bff/promise/), beside the ledger. */
  transits: TransitHistory;
  /** The orders to ship and their tracking going back to the store (bff/orders/, bff/stores/), beside the ledger. */
  orders: OrderStore;
  fulfillments: FulfillmentStore;
  /** The stores connected by an install or a grant, their tokens sealed (bff/stores/connection-store.ts). */
  connections: ConnectionStore;
  /** The HMAC key of signed tracking links (`BFF_LINK_SECRET`, or generated once into the ledger's database). */
  linkSecret: Buffer;
  /** OAuth clients, codes, tokens and sessions; only with `BFF_ADMIN_PASSWORD` (OAuth and /admin are off without). */
  oauth: OAuthStore | undefined;
  /**
   * The one windowed counter of login attempts (per address, account, device: `LoginGuard`'s policies), shared by every
   * instance: in Redis, else in the OAuth store's database (`window_hits`); on the BFF's clock, as the guard's lock
   * is; only with `BFF_ADMIN_PASSWORD`.
   */
  loginFailures: WindowedCounter | undefined;
  /** Whether other instances may share the database (a `pending` attempt may be another live instance's call). */
  sharedDatabase: boolean;
  budget: UpstreamBudget;
  trackingCache: TrackingStore;
  /** The visitor limit: a policy over the one windowed counter (shared/windowed-counter.ts), as the shares are. */
  visitorLimiter: CounterPolicy;
  /** Each visitor's share of the store's tracking calls (`visitorShareOf`): lookups that reach the platform. */
  visitorShare: CounterPolicy;
  /** The quote core's answers (bff/rates/): this process's memory, or Redis for every instance. */
  quoteStore: QuoteStore;
  /** Each quote caller's share of the BFF's quotes (`QUOTE_SHARES`), counted across instances with Redis. */
  quoteShares: QuoteShares;
  /** Failed order lookups per visitor and per order number (shared with Redis). */
  lookupThrottle: LookupThrottle;
  /** With Redis: the queue of codes every instance shares, with this instance's coalescer as its fallback. */
  codeLoader: SharedLoader | undefined;
  catalog: SharedCatalogStore | undefined;
  /** Readiness of the storage: the ledger's database, and Redis when configured. */
  checks: ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * The database of the ledger as the configuration names it: the PostgreSQL of `BFF_DATABASE_URL`, or
 * `labels.sqlite` in `BFF_DATA_DIR`. Also what `npm run ledger` opens, so the operator reads what the BFF writes.
 */
export function ledgerDatabase(config: Pick<BffConfig, 'databaseUrl' | 'dataDir'>): Sql {
  return config.databaseUrl
    ? new PostgresSql(config.databaseUrl)
    : new SqliteSql({ dataDir: config.dataDir, file: 'labels.sqlite' });
}

export interface BackendOptions {
  logger: Logger;
  now?: () => number;
  /** Redis's command timeout (default 500 ms): tests whose claim is not about a hung Redis give a busy machine more. */
  redisCommandTimeoutMs?: number;
}

/**
 * The store of the orders taken before `store_orders` kept it (migration 503): the store of the platform connected when
 * each was received, as the connections' rows know it (`connectionWindows`). An order no window holds (received before
 * any known connection, or in an earlier connection of a store since reconnected: a row keeps only its last) gets the
 * configured store, else the one connected last (one store per platform at a time), as before the windows: the safe
 * reading where the rows cannot tell, since an order left without a store would be found by no store's erasure.
 *
 * Shopify with `BFF_SHOPIFY_SHOP` set: its orders are all that shop's, windows unread. Its webhook route has only ever
 * taken the configured shop's deliveries (bff/stores/webhooks.ts), while another shop's row may hold a window: any shop
 * could install the listed app before installs were pinned to the configured one, and its row stays connected. Filed by
 * that window, a stranger's `shop/redact` would erase the merchant's shoppers.
 */
async function fillOrderStores(
  config: BffConfig,
  sql: Sql,
  orders: OrderStore,
  connections: ConnectionStore,
) {
  const { shopify, nuvemshop } = config.checkout;
  for (const [platform, configured] of [
    ['shopify', shopify.shop],
    ['nuvemshop', nuvemshop.storeId],
  ] as const) {
    const fallback = configured ?? (await connections.latest(platform));
    const windows = platform === 'shopify' && configured ? [] : await connectionWindows(sql, platform);
    await orders.fillStores(platform, windows, fallback);
  }
}

/**
 * Opens the storage the configuration names and migrates it (idempotent, under a lock, so instances starting together
 * apply each step once). Throws when the database cannot be reached or migrated: the BFF does not start on a ledger
 * it cannot write.
 */
export async function openBackends(config: BffConfig, options: BackendOptions): Promise<Backends> {
  const now = options.now ?? Date.now;
  const sql = ledgerDatabase(config);
  // OAuth beside the ledger: in the same PostgreSQL, or a node:sqlite file of its own.
  const oauthSql: Sql | undefined = config.adminPassword
    ? sql.dialect === 'postgres'
      ? sql
      : new SqliteSql({ dataDir: config.dataDir, file: 'oauth.sqlite' })
    : undefined;
  const ledger = new LedgerStore(sql, { now, keyWindowMs: config.idempotencyKeyDays * 86_400_000 });
  const approvals = new ApprovalStore(sql, { now });
  const orders = new OrderStore(sql, { now });
  const connections = new ConnectionStore(sql);
  const oauth = oauthSql ? new OAuthStore(oauthSql) : undefined;
  const sqlLogins = oauthSql ? new SqlCounter(oauthSql, { now }) : undefined;
  const closeSql = async () => {
    await sql.close();
    if (oauthSql && oauthSql !== sql) await oauthSql.close();
  };
  let secret: Buffer;
  try {
    await ledger.ready;
    await approvals.ready;
    await oauth?.ready;
    await sqlLogins?.ready;
    // After the ledger's steps: the watcher's first step reads label_attempts.
    await migrate(sql, NOTIFICATION_MIGRATIONS);
    await migrate(sql, SECRET_MIGRATIONS);
    await migrate(sql, PROMISE_MIGRATIONS);
    // The orders' tables (their state is read at run time from label_attempts and shipment_watches, migrated above).
    await orders.ready;
    await migrate(sql, CONNECTION_MIGRATIONS);
    await fillOrderStores(config, sql, orders, connections);
    secret = await linkSecret(sql, config.linkSecret);
  } catch (error) {
    await closeSql().catch(() => undefined);
    throw error;
  }

  // The watcher's share of the tracking route (none when it has nobody to tell): the visitors keep the rest.
  const watchShare = watcherShare(config);
  const browserShare = config.browserQuoteShare;
  const localCache = new TrackingCache({ now });
  // A tenth of what visitors may spend: the store's limit less the watcher's lane.
  const shareLimit = visitorShareOf(routeLimit(config.shippingRateLimit, 'tracking', watchShare));
  const redis = config.redisUrl
    ? new RedisConnection({
        url: config.redisUrl,
        secretKey: config.secretKey,
        logger: options.logger,
        ...(options.redisCommandTimeoutMs ? { commandTimeoutMs: options.redisCommandTimeoutMs } : {}),
      })
    : undefined;
  const loaders: RedisCodeLoader[] = [];
  // On the real clock, as Redis counts (its own TIME): limits hold in real time, whatever clock a test gives the rest.
  const localCounter = new MemoryCounter();
  const counter: WindowedCounter = redis ? new RedisCounter(redis, localCounter) : localCounter;

  const localQuotes = new MemoryQuoteStore({ now });
  // Each caller's share of the BFF's rates lane: the store's limit less what shoppers' browsers keep.
  const quoteLane = routeLimit(config.shippingRateLimit, 'rates', 0, browserShare);
  const shareWindow = (limit: RateLimit, name: string) => new CounterPolicy(counter, `quote-${name}`, limit);
  // The lane less its floor, which only the checkout tokens and the desk reach (issue 48, finding 7).
  const quoteShares = new QuoteShares(
    (kind) => shareWindow(quoteShareOf(quoteLane, kind), kind),
    shareWindow(openLaneOf(quoteLane), 'open'),
  );

  const ledgerCheck: ReadinessCheck = async () =>
    (await ledger.healthy())
      ? { name: 'ledger', ok: true, detail: sql.label }
      : { name: 'ledger', ok: false, detail: 'the label ledger does not answer' };
  // Redis down does not make the BFF unready: tracking and limits fall back to this instance; /readyz says so.
  const redisCheck: ReadinessCheck = async () => ({
    name: 'redis',
    ok: true,
    detail: (await redis?.ping())
      ? 'shared across instances'
      : 'unreachable: tracking, limits and the upstream budget fall back to this instance',
  });

  return {
    sql,
    ledger,
    approvals,
    watches: new WatchStore(sql),
    outbox: new Outbox(sql),
    transits: new TransitHistory(sql),
    orders,
    fulfillments: new FulfillmentStore(sql),
    connections,
    linkSecret: secret,
    oauth,
    loginFailures: redis && sqlLogins ? new RedisCounter(redis, memoryLoginCounter(now), now) : sqlLogins,
    sharedDatabase: sql.dialect === 'postgres',
    budget: new RouteBudget(counter, config.shippingRateLimit, { watchShare, browserShare }),
    trackingCache: redis ? new RedisTrackingCache({ connection: redis, local: localCache }) : localCache,
    visitorLimiter: new CounterPolicy(counter, 'visitor', config.visitorRateLimit),
    visitorShare: new CounterPolicy(counter, 'share', shareLimit),
    quoteStore: redis ? new RedisQuoteStore({ connection: redis, local: localQuotes }) : localQuotes,
    quoteShares,
    lookupThrottle: new LookupThrottle({
      visitors: new CounterPolicy(counter, 'lookup-visitor', LOOKUP_FAILURES.perVisitor),
      orders: new CounterPolicy(counter, 'lookup-order', LOOKUP_FAILURES.perOrder),
    }),
    codeLoader: redis
      ? (batch, local, windowMs, now) => {
          const loader = new RedisCodeLoader(redis, batch, local, windowMs, now);
          loaders.push(loader);
          return loader;
        }
      : undefined,
    catalog: redis ? new RedisCatalog(redis) : undefined,
    checks: redis ? [ledgerCheck, redisCheck] : [ledgerCheck],
    close: async () => {
      await Promise.all(loaders.map((loader) => loader.close()));
      redis?.close();
      await closeSql();
    },
  };
}
