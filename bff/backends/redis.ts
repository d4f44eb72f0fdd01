import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type * as z from 'zod/mini';
import type { Logger } from '../logger.ts';

/** ioredis's client, for the Redis implementations beside each capability (they never import the driver). */
export type RedisCommands = Redis;

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

  constructor(options: {
    url: string;
    secretKey: string;
    logger: Logger;
    /** How long a command may take before the caller falls back to this instance (default 500 ms). */
    commandTimeoutMs?: number;
  }) {
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
    this.commands = new Redis(options.url, { ...common, commandTimeout: options.commandTimeoutMs ?? 500 });
    // The subscriber queues its SUBSCRIBE until connected; after a reconnection its user subscribes again itself
    // (bff/tracking/redis-coalescer.ts), since ioredis's autoResubscribe leaves a rejected SUBSCRIBE unhandled.
    this.subscriber = new Redis(options.url, {
      ...common,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
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

  /** Resolves once commands can be sent (tests, and start-up logs); never rejects, waits for a reconnect. */
  async connected(): Promise<void> {
    if (this.ready) return;
    await new Promise<void>((resolve) => this.commands.once('ready', () => resolve()));
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

  /**
   * The JSON at `key`, checked with `schema` like any answer from outside (Redis is shared, so it is an edge too);
   * undefined when absent, not JSON, or not of the schema. Throws when Redis does not answer (for `orLocal`).
   */
  async getJson<T>(key: string, schema: z.ZodMiniType<T>): Promise<T | undefined> {
    const text = await this.commands.get(key);
    if (text === null) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
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
