import { randomUUID } from 'node:crypto';
import { MAX_CODES } from '../../shared/platform-limits.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import type { RedisCommands as Redis, RedisConnection } from '../backends/redis.ts';
import { isUpstreamError, UpstreamError, type UpstreamFailure } from '../upstream/errors.ts';
import type { Coalescer } from './coalescer.ts';
import type { CodeLoader, TrackingBatch } from './service.ts';

export interface ClusterCoalescerOptions {
  /** Commands (enqueue, claim, publish). */
  redis: Redis;
  /** A second connection, for SUBSCRIBE only (a subscribed connection takes no other command). */
  subscriber: Redis;
  /** Key prefix naming the store, e.g. `frete:{<store hash>}` (the braces keep a store's keys in one cluster slot). */
  prefix: string;
  batch: TrackingBatch;
  /** How long a code waits for others to join its batch (default 50 ms). */
  windowMs?: number;
  /** How long a caller waits for a code's answer, sent by any instance, before giving up. */
  waitMs?: number;
  /**
   * The clock the batching windows are measured with. Default: Redis's own `TIME`, one clock for every instance.
   * Tests pass theirs, so that a window ends when the test's clock says and not when a busy machine is late (a
   * stopped clock: batches leave only full).
   */
  now?: () => number;
}

/** How long a code may stay in flight before another instance may send it again (a sender that died). */
const IN_FLIGHT_TTL_MS = 15_000;

/** What the sending instance publishes when a batch ends: results, or why it failed (no key, no body). */
interface Outcome {
  results?: TrackingResult[];
  failed?: {
    codes: string[];
    message: string;
    failure?: UpstreamFailure | undefined;
    status?: number | undefined;
    code?: string | undefined;
  };
}

/** The time in milliseconds: the caller's clock when it gave one (`ARGV[n]` not empty), else the Redis clock. */
const clockMs = (n: number) => `
local nowMs = tonumber(ARGV[${n}])
if not nowMs then
  local clock = redis.call('TIME')
  nowMs = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end
`;

/** Enqueues a code, stamped with the clock (ARGV[2]), unless it is already queued or in flight; 1 when enqueued. */
const ENQUEUE = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
${clockMs(2)}
return redis.call('ZADD', KEYS[1], 'NX', nowMs, ARGV[1])
`;

/**
 * A batch leaves full (ARGV[1] codes), or once its oldest code has waited the window (ARGV[4] ms) and no more codes
 * are coming, the rule of the in-process `Coalescer`: the window counts from the later of the code's enqueueing and
 * the end of the last send (KEYS[3]), so codes queued behind a call in the air wait for the callers it answers; a
 * code queued within the last ARGV[7] ms keeps the batch waiting; never past ARGV[6] ms from the oldest code. Then up
 * to ARGV[1] queued codes (oldest first) are taken and marked in flight for ARGV[2] ms, in one step. Answers
 * {0, code…}, or {ms} to wait before looking again, or {} when the queue is empty. Codes queued longer than the callers
 * wait (ARGV[5] ms) are dropped first.
 */
const CLAIM = `
${clockMs(8)}
-- Codes queued longer than anyone waits for them (ARGV[5] ms) are dropped: their callers have given up.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs - tonumber(ARGV[5]))
local count = redis.call('ZCARD', KEYS[1])
if count == 0 then return {} end
if count < tonumber(ARGV[1]) then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
  local newest = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  local cap = oldest + tonumber(ARGV[6]) - nowMs
  if cap > 0 then
    local since = math.max(oldest, tonumber(redis.call('GET', KEYS[3]) or '0'))
    local left = math.max(since + tonumber(ARGV[4]) - nowMs, newest + tonumber(ARGV[7]) - nowMs)
    if left > 0 then return {math.min(left, cap)} end
  end
end
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
local claimed = {0}
for i = 1, #popped, 2 do
  local code = popped[i]
  redis.call('SET', KEYS[2] .. code, ARGV[3], 'PX', ARGV[2])
  claimed[#claimed + 1] = code
end
return claimed
`;

/** Notes, on the clock (ARGV[2]), when a send ended (the next partial batch's window counts from then). */
const SENT = `
${clockMs(2)}
return redis.call('SET', KEYS[1], nowMs, 'PX', ARGV[1])
`;

/** Extends the sender lock only if this instance still holds it (1), else 0: another sender took over. */
const EXTEND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/** Releases the sender lock only if this instance still holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** No instance answered a code in time (the platform is slow, or the sender died): not a Redis failure. */
export class ClusterWaitTimeout extends Error {
  override readonly name = 'ClusterWaitTimeout';
}

interface Waiter {
  resolve: (result: TrackingResult) => void;
  reject: (error: Error) => void;
}

/**
 * Coalescing across instances: every instance puts the codes it needs in one queue in Redis; one instance at a time
 * (a short lock) takes up to 50 of them and sends one upstream call, then publishes the answers to all instances.
 * A code queued or in flight is never sent again meanwhile, and the instance that did not send waits for the answer
 * instead of sending. While one call is in flight the queue fills, so calls leave full under load.
 */
export class ClusterCoalescer {
  private readonly options: Required<Omit<ClusterCoalescerOptions, 'now'>>;
  /** The clock's time for a script, or '' for the Redis clock. */
  private readonly clock: () => string;
  private readonly id = randomUUID();
  private readonly waiters = new Map<string, Waiter[]>();
  private timer: NodeJS.Timeout | undefined;
  private subscribed: Promise<unknown> | undefined;
  private sending = false;
  /** The drain in progress: `close` waits for it, so the lock is released before the connection goes. */
  private draining: Promise<void> | undefined;
  private closed = false;

  constructor(options: ClusterCoalescerOptions) {
    const { now, ...rest } = options;
    this.options = { windowMs: 50, waitMs: 8_000, ...rest };
    this.clock = now ? () => String(now()) : () => '';
  }

  private get keys() {
    const { prefix } = this.options;
    return {
      queue: `${prefix}:tq`,
      inFlight: `${prefix}:tf:`,
      lock: `${prefix}:tl`,
      sent: `${prefix}:ts`,
      channel: `${prefix}:td`,
    };
  }

  /** Subscribes to the answers channel (once); callers await it before their first load. */
  start(): Promise<unknown> {
    this.subscribed ??= (async () => {
      const { subscriber } = this.options;
      subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
        if (channel.toString() === this.keys.channel) this.settle(message.toString());
      });
      // After a reconnection the channel is subscribed again here, its failure caught: ioredis's own
      // `autoResubscribe` (off on the BFF's subscriber, bff/backends/redis.ts) leaves that promise unhandled, and a
      // connection closed before Redis answers it (Redis restarting, the BFF stopping) was an unhandled rejection.
      subscriber.on('ready', () => void subscriber.subscribe(this.keys.channel).catch(() => undefined));
      await subscriber.subscribe(this.keys.channel);
    })();
    return this.subscribed;
  }

  /** The answer for one code, sent by whichever instance claims it. Rejects after `waitMs` without one. */
  async load(code: string): Promise<TrackingResult> {
    await this.start();
    const answer = new Promise<TrackingResult>((resolve, reject) => {
      const list = this.waiters.get(code) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(code, list);
    });
    const timeout = setTimeout(
      () =>
        this.fail([code], new ClusterWaitTimeout(`no answer for ${code} within ${this.options.waitMs} ms`)),
      this.options.waitMs,
    );
    const clear = () => clearTimeout(timeout);
    answer.then(clear, clear);
    const { queue, inFlight } = this.keys;
    this.options.redis.eval(ENQUEUE, 2, queue, `${inFlight}${code}`, code, this.clock()).then(
      () => this.schedule(),
      (error: unknown) => this.fail([code], error instanceof Error ? error : new Error(String(error))),
    );
    return answer;
  }

  private schedule(): void {
    if (this.closed || this.timer || this.waiters.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.options.windowMs);
  }

  /** Sends queued batches while this instance holds the lock; another instance's lock means wait and look again. */
  private drain(): Promise<void> {
    if (this.sending) return this.draining ?? Promise.resolve();
    this.sending = true;
    this.draining = this.drainHeld();
    return this.draining;
  }

  private async drainHeld(): Promise<void> {
    const { redis } = this.options;
    const { lock, queue, inFlight, sent } = this.keys;
    try {
      const locked = await redis.set(lock, this.id, 'PX', IN_FLIGHT_TTL_MS, 'NX');
      if (locked !== 'OK') return;
      try {
        // Closing stops taking batches (one taken is sent and answered: its codes are marked in flight).
        while (!this.closed) {
          const [wait, ...codes] = (await redis.eval(
            CLAIM,
            3,
            queue,
            inFlight,
            sent,
            MAX_CODES,
            IN_FLIGHT_TTL_MS,
            this.id,
            this.options.windowMs,
            this.options.waitMs,
            40 * this.options.windowMs,
            this.options.windowMs,
            this.clock(),
          )) as (number | string)[];
          if (wait === undefined) break;
          if (codes.length > 0) await this.send(codes.map(String));
          // Not full and young: the batch waits the rest of its window for more codes, from any instance.
          else await new Promise((resolve) => setTimeout(resolve, Number(wait)));
          // A sender whose lock expired (a stalled event loop) stops: another one is sending now.
          if (Number(await redis.eval(EXTEND, 1, lock, this.id, IN_FLIGHT_TTL_MS)) !== 1) break;
        }
      } finally {
        await redis.eval(RELEASE, 1, lock, this.id);
      }
    } catch {
      // Redis is unreachable: the callers' own timeouts answer them; nothing was claimed that is not retried.
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  private async send(codes: string[]): Promise<void> {
    const { redis } = this.options;
    let outcome: Outcome;
    try {
      const values = await this.options.batch(codes);
      outcome = { results: codes.flatMap((code) => values.get(code) ?? []) };
      const missing = codes.filter((code) => !values.has(code));
      if (missing.length > 0) outcome.failed = { codes: missing, message: 'the platform gave no result' };
    } catch (error) {
      // What an `UpstreamError` says, if it is one (JSON leaves out the fields another error lacks).
      const { message = 'tracking lookup failed', failure, status, code } = error as Partial<UpstreamError>;
      outcome = { failed: { codes, message, failure, status, code } };
    }
    // In-flight marks first, then the answers: a caller that comes in between queues the code again (a code in a
    // later batch) rather than waiting on an answer already published.
    await redis.del(...codes.map((code) => `${this.keys.inFlight}${code}`));
    await redis.publish(this.keys.channel, JSON.stringify(outcome));
    await redis.eval(SENT, 1, this.keys.sent, IN_FLIGHT_TTL_MS, this.clock());
  }

  private settle(message: string): void {
    let outcome: Outcome;
    try {
      outcome = JSON.parse(message) as Outcome;
    } catch {
      return;
    }
    for (const result of outcome.results ?? []) {
      const list = this.waiters.get(result.code);
      this.waiters.delete(result.code);
      for (const waiter of list ?? []) waiter.resolve(result);
    }
    if (outcome.failed) {
      const { codes, message: text, failure, status, code } = outcome.failed;
      // The sender's error, rebuilt for the waiting instances so they act on it as the sender would (spec 7.3).
      const error = new UpstreamError(failure ?? 'unavailable', text, {
        ...(status ? { status } : {}),
        ...(code ? { code } : {}),
      });
      this.fail(codes, error);
    }
  }

  private fail(codes: string[], error: Error): void {
    for (const code of codes) {
      const list = this.waiters.get(code);
      this.waiters.delete(code);
      for (const waiter of list ?? []) waiter.reject(error);
    }
  }

  /**
   * Stops sending: a batch in flight is answered and the lock released before this resolves (so the other instances
   * need not wait out its time-to-live, their callers answered 502 meanwhile), then its own waiters fail.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.draining;
    this.fail([...this.waiters.keys()], new Error('closed'));
  }
}

/**
 * Loads a code through the queue shared by every instance while Redis answers, and through this instance's own
 * coalescer otherwise. An answer from the platform (or its refusal) is final; only a Redis failure falls back.
 */
export class RedisCodeLoader implements CodeLoader {
  private readonly cluster: ClusterCoalescer;
  private readonly local: Coalescer<TrackingResult>;
  private readonly connection: RedisConnection;

  constructor(
    connection: RedisConnection,
    batch: TrackingBatch,
    local: Coalescer<TrackingResult>,
    windowMs?: number,
    now?: () => number,
  ) {
    this.connection = connection;
    this.local = local;
    this.cluster = new ClusterCoalescer({
      redis: connection.commands,
      subscriber: connection.subscriber,
      prefix: connection.prefix,
      batch,
      waitMs: 7_000,
      ...(windowMs === undefined ? {} : { windowMs }),
      ...(now ? { now } : {}),
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
