import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { LimitDecision, RateLimit } from '../../shared/rate-limit.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { Logger } from '../logger.ts';
import type { Freshness, TrackingCache } from '../tracking/cache.ts';
import type { Coalescer } from '../tracking/coalescer.ts';
import type { TrackingBatch } from '../tracking/service.ts';
import { consume, type VisitorLimiter } from '../tracking/visitor-limiter.ts';
import {
  type BudgetDecision,
  type BudgetRoute,
  RedisBudget,
  type UpstreamBudget,
} from '../upstream/budget.ts';
import { isUpstreamError, UpstreamError } from '../upstream/errors.ts';
import { ClusterCoalescer, ClusterWaitTimeout } from './coalescer.ts';
import { RedisTrackingCache } from './tracking-cache.ts';

/**
 * The key prefix of one store's shared state: a hash of the secret key, never the key, in braces so a Redis Cluster
 * keeps a store's keys in one slot (the Lua scripts touch several).
 */
export function storePrefix(secretKey: string): string {
  return `frete:{${createHash('sha256').update(secretKey).digest('hex').slice(0, 16)}}`;
}

/**
 * The BFF's two Redis connections (`BFF_REDIS_URL`): one for commands, one for SUBSCRIBE. Commands fail at once while
 * Redis is unreachable (no offline queue), so every user of them falls back to this instance's memory instead of
 * waiting; ioredis reconnects on its own and the shared path is used again without a restart.
 */
export class RedisConnection {
  readonly commands: Redis;
  readonly subscriber: Redis;
  readonly prefix: string;
  private readonly logger: Logger;
  private down = false;

  constructor(options: { url: string; secretKey: string; logger: Logger }) {
    this.logger = options.logger;
    this.prefix = storePrefix(options.secretKey);
    const common = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (times: number) => Math.min(200 * times, 2_000),
    };
    // A Redis that stops answering without closing the connection (paused, partitioned) must not hold a visitor
    // past the deadline: each command gives up after 500 ms and the caller falls back to this instance.
    this.commands = new Redis(options.url, { ...common, commandTimeout: 500 });
    // The subscriber queues its SUBSCRIBE until connected, so it is (re)established whenever Redis comes back.
    this.subscriber = new Redis(options.url, {
      ...common,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    });
    for (const connection of [this.commands, this.subscriber]) {
      connection.on('error', (error: Error) => this.report(error));
      connection.on('ready', () => this.recovered());
    }
  }

  /** Whether commands can be sent now. */
  get ready(): boolean {
    return this.commands.status === 'ready';
  }

  /**
   * The shared answer while Redis answers; this instance's own when it is unreachable, or goes away (or stops
   * answering: commands time out) between the check and the call.
   */
  async orLocal<T>(shared: () => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    if (this.ready) {
      try {
        return await shared();
      } catch {
        // fall through to this instance's own
      }
    }
    return local();
  }

  private report(error: Error): void {
    if (this.down) return;
    this.down = true;
    // Once per outage, not once per reconnect attempt; the URL may hold a password, so it is not logged.
    this.logger.error(
      { error: error.message },
      'redis: unreachable; tracking, limits and the upstream budget fall back to this instance',
    );
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info('redis: reachable again; state is shared across instances again');
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.commands.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  close(): void {
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}

type Cached = { result: TrackingResult; freshness: Freshness };

/** The tracking cache in Redis, with this instance's memory beside it: written to both, read from Redis while it answers. */
export class SharedTrackingCache {
  private readonly redis: RedisTrackingCache;
  private readonly local: TrackingCache;
  private readonly connection: RedisConnection;

  constructor(connection: RedisConnection, local: TrackingCache, now: () => number) {
    this.connection = connection;
    this.local = local;
    this.redis = new RedisTrackingCache({ redis: connection.commands, prefix: connection.prefix, now });
  }

  async get(code: string): Promise<Cached | undefined> {
    return this.connection.orLocal(
      async () => (await this.redis.get(code)) ?? this.local.get(code),
      () => this.local.get(code),
    );
  }

  async set(code: string, result: TrackingResult): Promise<void> {
    this.local.set(code, result);
    if (!this.connection.ready) return;
    await this.redis.set(code, result).catch(() => undefined);
  }
}

/**
 * Loads a code through the queue shared by every instance while Redis answers, and through this instance's own
 * coalescer otherwise. An answer from the platform (or its refusal) is final; only a Redis failure falls back.
 */
export class SharedLoader {
  private readonly cluster: ClusterCoalescer;
  private readonly local: Coalescer<TrackingResult>;
  private readonly connection: RedisConnection;

  constructor(options: {
    connection: RedisConnection;
    batch: TrackingBatch;
    local: Coalescer<TrackingResult>;
    windowMs?: number;
  }) {
    this.connection = options.connection;
    this.local = options.local;
    this.cluster = new ClusterCoalescer({
      redis: options.connection.commands,
      subscriber: options.connection.subscriber,
      prefix: options.connection.prefix,
      batch: options.batch,
      waitMs: 7_000,
      ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
    });
    void this.cluster.start().catch(() => undefined);
  }

  async load(code: string): Promise<TrackingResult> {
    if (!this.connection.ready) return this.local.load(code);
    try {
      return await this.cluster.load(code);
    } catch (error) {
      if (isUpstreamError(error)) throw error;
      // The shared queue is working but slow: sending the code again from here would only spend the budget twice.
      if (error instanceof ClusterWaitTimeout) throw new UpstreamError('unavailable', error.message);
      return this.local.load(code);
    }
  }

  close(): Promise<void> {
    return this.cluster.close();
  }
}

/**
 * One visitor limit for every instance: rate-limiter-flexible's Redis store, with its in-memory "insurance" limiter
 * taking over while Redis is unreachable (so a Redis outage never blocks visitors, and never lifts the limit).
 */
export class RedisVisitorLimiter implements VisitorLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(connection: RedisConnection, limit: RateLimit) {
    this.limiter = new RateLimiterRedis({
      storeClient: connection.commands,
      keyPrefix: `${connection.prefix}:visitor`,
      points: limit.calls,
      duration: limit.seconds,
      insuranceLimiter: new RateLimiterMemory({ points: limit.calls, duration: limit.seconds }),
    });
  }

  take(key: string): Promise<LimitDecision> {
    return consume(this.limiter, key);
  }
}

/** The upstream budget in Redis for all instances; this instance's own while Redis is unreachable. */
export class SharedBudget implements UpstreamBudget {
  private readonly redis: RedisBudget;
  private readonly local: UpstreamBudget;
  private readonly connection: RedisConnection;

  constructor(connection: RedisConnection, limit: RateLimit, local: UpstreamBudget) {
    this.connection = connection;
    this.local = local;
    this.redis = new RedisBudget({ redis: connection.commands, limit, prefix: connection.prefix });
  }

  async take(route: BudgetRoute): Promise<BudgetDecision> {
    return this.connection.orLocal(
      () => this.redis.take(route),
      () => this.local.take(route),
    );
  }

  async canRetry(route: BudgetRoute): Promise<boolean> {
    return this.connection.orLocal(
      () => this.redis.canRetry(route),
      () => this.local.canRetry(route),
    );
  }
}

/** The platform's tool catalog, shared so one instance's look serves all for its TTL (and a failure clears it for all). */
export class SharedCatalog {
  private readonly connection: RedisConnection;

  constructor(connection: RedisConnection) {
    this.connection = connection;
  }

  private get key(): string {
    return `${this.connection.prefix}:catalog`;
  }

  async get(): Promise<string[] | undefined> {
    if (!this.connection.ready) return undefined;
    const text = await this.connection.commands.get(this.key).catch(() => null);
    if (!text) return undefined;
    try {
      const tools: unknown = JSON.parse(text);
      return Array.isArray(tools) && tools.every((tool) => typeof tool === 'string') ? tools : undefined;
    } catch {
      return undefined;
    }
  }

  async set(tools: string[], ttlMs: number): Promise<void> {
    if (!this.connection.ready) return;
    await this.connection.commands.set(this.key, JSON.stringify(tools), 'PX', ttlMs).catch(() => undefined);
  }

  async clear(): Promise<void> {
    if (!this.connection.ready) return;
    await this.connection.commands.del(this.key).catch(() => undefined);
  }
}
