import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { makeS10 } from '../../shared/s10.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import { createLogger } from '../logger.ts';
import { isUpstreamError } from '../upstream/errors.ts';
import { createRestClient } from '../upstream/rest-client.ts';
import { ClusterCoalescer } from './redis-coalescer.ts';
import type { TrackingBatch } from './service.ts';

describe('ClusterCoalescer (real redis-server, real sandbox)', () => {
  let redisServer: RedisServer;
  let sandbox: RunningSandbox;
  const connections: Redis[] = [];
  const instances: ClusterCoalescer[] = [];

  const upstreamCalls = async (store = 'loja-demo'): Promise<number> => {
    const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    return stats.stores[store]?.['POST /v1/tracking'] ?? 0;
  };

  /**
   * Three instances of the BFF's tracking path, each with its own Redis connections and REST client, once those are
   * connected (without an offline queue, a command sent before that fails: on a loaded machine it did).
   */
  const cluster = async (
    prefix: string,
    key = 'mk_test_demo',
    options: { waitMs?: number; now?: () => number } = {},
  ) => {
    const nodes = nodesOf(prefix, key, options);
    await Promise.all(
      // (a connection a test ended on purpose never comes back)
      connections
        .filter((c) => c.status !== 'end')
        .map((c) => (c.status === 'ready' ? undefined : new Promise((ready) => c.once('ready', ready)))),
    );
    return nodes;
  };
  const nodesOf = (prefix: string, key: string, options: { waitMs?: number; now?: () => number }) =>
    [0, 1, 2].map(() => {
      const client = createRestClient({
        apiUrl: sandbox.url,
        secretKey: key,
        logger: createLogger({ level: 'silent' }),
        baseDelayMs: 5,
        maxDelayMs: 20,
      });
      const batch: TrackingBatch = async (codes) => {
        const { results } = await client.tracking(codes);
        return new Map(results.map((result) => [result.code, result]));
      };
      const failFast = { enableOfflineQueue: false, maxRetriesPerRequest: 1 };
      const redis = new Redis(redisServer.url, failFast).on('error', () => {});
      const subscriber = new Redis(redisServer.url, { autoResubscribe: false }).on('error', () => {});
      connections.push(redis, subscriber);
      const coalescer = new ClusterCoalescer({ redis, subscriber, prefix, batch, ...options });
      instances.push(coalescer);
      return coalescer;
    });

  beforeAll(async () => {
    [redisServer, sandbox] = await Promise.all([
      startRedis(),
      startSandbox({ rateLimit: { calls: 60, seconds: 60 } }),
    ]);
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    for (const connection of connections) connection.disconnect();
    await Promise.all([redisServer?.close(), sandbox?.close()]);
  });

  it('sends 1,500 distinct codes looked up round-robin on three instances in full batches', async () => {
    await sandbox.control('reset');
    // The windows' clock stopped: a batch leaves only full, however late the callers come back on a busy machine
    // (on the real clock, a starved run ended windows early and sent partial batches).
    const nodes = await cluster('test:{a}', 'mk_test_demo', { now: () => 1_800_000_000_000 });
    const codes = Array.from({ length: 1500 }, (_, i) => makeS10('QB', 71_000_000 + i));
    let next = 0;
    const answers: string[] = [];
    await Promise.all(
      Array.from({ length: 150 }, async () => {
        while (next < codes.length) {
          const i = next++;
          const result = await nodes[i % 3]?.load(codes[i] as string);
          answers.push(result?.code ?? 'none');
        }
      }),
    );
    expect(answers.sort()).toEqual([...codes].sort());
    const calls = await upstreamCalls();
    expect(calls).toBe(30);
  });

  it('sends a partial batch when the clock says its window is over, not before', async () => {
    await sandbox.control('reset');
    let at = 1_800_000_000_000;
    let reads = 0;
    const now = () => {
      reads += 1;
      return at;
    };
    const nodes = await cluster('test:{w}', 'mk_test_demo', { now });
    const codes = ['DG049186226BR', 'JT202600011BR', 'SW371675211BR'];
    const answers = codes.map((code, i) => nodes[i]?.load(code));
    // Three enqueues, then the sender has claimed twice: had the first claim sent, the send would have come first.
    await expect.poll(() => reads, { timeout: 10_000 }).toBeGreaterThanOrEqual(codes.length + 2);
    expect(await upstreamCalls()).toBe(0);
    at += 50;
    const results = await Promise.all(answers);
    expect(results.map((result) => result?.code)).toEqual(codes);
    expect(await upstreamCalls()).toBe(1);
  });

  it('sends a code looked up on every instance at once upstream once, and answers all of them', async () => {
    await sandbox.control('reset');
    const nodes = await cluster('test:{b}');
    const code = 'DG049186226BR';
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => nodes[i % 3]?.load(code)));
    expect(results.every((result) => result?.code === code && result.found)).toBe(true);
    expect(await upstreamCalls()).toBe(1);
  });

  it("gives every waiting instance the sender's refusal, as an UpstreamError it can act on", async () => {
    await sandbox.control('reset');
    const nodes = await cluster('test:{c}', 'mk_test_sem_plano');
    const outcomes = await Promise.allSettled(nodes.map((node) => node.load('SW371675211BR')));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = outcome.status === 'rejected' ? outcome.reason : undefined;
      expect(isUpstreamError(reason) && reason.failure).toBe('config');
      expect(isUpstreamError(reason) && reason.code).toBe('subscription_required');
    }
    expect(await upstreamCalls('sem-plano')).toBe(1);
  });

  it('answers the batch it is sending and releases the lock when it closes, so the others need not wait', async () => {
    const redis = new Redis(redisServer.url).on('error', () => {});
    const subscriber = new Redis(redisServer.url, { autoResubscribe: false }).on('error', () => {});
    connections.push(redis, subscriber);
    let started!: () => void;
    const sending = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch: TrackingBatch = async (codes) => {
      started();
      await gate;
      return new Map(codes.map((code) => [code, { code, found: false, events: [] } as never]));
    };
    const closing = new ClusterCoalescer({ redis, subscriber, prefix: 'test:{e}', batch, windowMs: 5 });
    const answer = closing.load('DG049186226BR');
    await sending;
    expect(await redis.exists('test:{e}:tl')).toBe(1);
    // Another code looked up meanwhile: its window ends while the first batch is still in the air.
    const second = closing.load('JT202600011BR').catch(() => 'closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closing.close();
    release();
    await closed;
    expect(await answer).toMatchObject({ code: 'DG049186226BR' });
    expect(await second).toBe('closed');
    // Released, not left to its 15-second time-to-live: another instance takes the queue at once.
    expect(await redis.exists('test:{e}:tl')).toBe(0);
    // Its connections end with it: none of them lives on into the next test, which stops the Redis server.
    redis.disconnect();
    subscriber.disconnect();
  });

  it('subscribes again after Redis comes back, so an answer published then still reaches its caller', async () => {
    await sandbox.control('reset');
    const nodes = await cluster('test:{r}');
    await Promise.all(nodes.map((node) => node.start()));
    await redisServer.stop();
    await redisServer.start();
    // The connections still open (an earlier test ended its own) come back; a PING is answered after the SUBSCRIBE
    // sent on 'ready', so the subscription is back before the lookup.
    const open = connections.filter((c) => c.status !== 'end');
    await Promise.all(
      open.map((c) => (c.status === 'ready' ? undefined : new Promise((ready) => c.once('ready', ready)))),
    );
    await Promise.all(open.map((c) => c.ping().catch(() => undefined)));
    const result = await nodes[0]?.load('DG049186226BR');
    expect(result?.code).toBe('DG049186226BR');
  });

  it('answers within its wait when Redis is gone, instead of hanging', async () => {
    const [node] = await cluster('test:{d}', 'mk_test_demo', { waitMs: 500 });
    await node?.start();
    await redisServer.stop();
    try {
      const started = Date.now();
      await expect(node?.load('DG049186226BR')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await redisServer.start();
    }
  });
});
