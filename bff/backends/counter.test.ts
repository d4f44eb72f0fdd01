import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { MemoryCounter, type WindowedCounter } from '../../shared/windowed-counter.ts';
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from './redis.ts';
import { RedisCounter } from './redis-counter.ts';
import { SqlCounter } from './sql-counter.ts';
import { redisConnection } from './testing.ts';

/** Three instances of one counter (sharing its state where the backend shares it), on one test clock. */
type Instances = (now: () => number) => Promise<WindowedCounter[]>;

let redis: RedisServer;
let postgres: PostgresServer;
const connections: RedisConnection[] = [];
const databases: Sql[] = [];
let redisStore = 0;
let pgDatabase = 0;

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
});
afterAll(async () => {
  for (const connection of connections) connection.close();
  await Promise.all(databases.map((sql) => sql.close()));
  await Promise.all([redis?.close(), postgres?.close()]);
});

const backends: [string, Instances][] = [
  [
    'memory (one instance)',
    async (now) => {
      const counter = new MemoryCounter({ now });
      return [counter, counter, counter];
    },
  ],
  [
    'Redis (three instances)',
    async (now) => {
      const secretKey = `mk_counter_${redisStore++}`;
      return Promise.all(
        [0, 1, 2].map(async () => {
          const connection = await redisConnection(redis.url, secretKey);
          connections.push(connection);
          return new RedisCounter(connection, new MemoryCounter({ now }), now);
        }),
      );
    },
  ],
  [
    'node:sqlite',
    async (now) => {
      const sql = new SqliteSql({ dataDir: ':memory:', file: 'counter.sqlite' });
      databases.push(sql);
      const counter = new SqlCounter(sql, { now });
      await counter.ready;
      return [counter, counter, counter];
    },
  ],
  [
    'PostgreSQL (three pools, as three instances)',
    async (now) => {
      const url = await postgres.createDatabase(`counter_${pgDatabase++}`);
      return Promise.all(
        [0, 1, 2].map(async () => {
          const sql = new PostgresSql(url);
          databases.push(sql);
          const counter = new SqlCounter(sql, { now });
          await counter.ready;
          return counter;
        }),
      );
    },
  ],
];

describe.each(backends)('windowed counter on %s', (_name, instancesOf) => {
  const minute = { calls: 3, seconds: 60 };
  let time = 1_000_000;
  const now = () => time;

  it('counts to the limit, then refuses until the oldest hit leaves the window', async () => {
    const [counter] = (await instancesOf(now)) as [WindowedCounter];
    time = 1_000_000;
    expect(await counter.take('a', minute)).toEqual({ ok: true });
    time += 10_000;
    expect(await counter.take('a', minute)).toEqual({ ok: true });
    expect(await counter.take('a', minute)).toEqual({ ok: true });
    expect(await counter.take('a', minute)).toEqual({ ok: false, retryAfterSeconds: 50 });
    expect(await counter.count('a', minute)).toBe(3);
    // Another key has its own window.
    expect(await counter.take('b', minute)).toEqual({ ok: true });
  });

  it('lets exactly the limit through when 40 hits arrive at once on three instances', async () => {
    const counters = await instancesOf(now);
    const limit = { calls: 7, seconds: 60 };
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => counters[i % counters.length]?.take('burst', limit)),
    );
    expect(decisions.filter((decision) => decision?.ok)).toHaveLength(7);
    expect(await counters[0]?.count('burst', limit)).toBe(7);
  });

  it('slides: a hit frees when it leaves the window, not when a fixed window ends', async () => {
    const [counter] = (await instancesOf(now)) as [WindowedCounter];
    const limit = { calls: 2, seconds: 60 };
    time = 5_000_000;
    await counter.take('s', limit);
    time += 30_000;
    await counter.take('s', limit);
    time += 29_999;
    expect(await counter.take('s', limit)).toEqual({ ok: false, retryAfterSeconds: 1 });
    time += 1;
    // The first hit left; the second is still in: one frees, not two.
    expect(await counter.take('s', limit)).toEqual({ ok: true });
    expect(await counter.take('s', limit)).toEqual({ ok: false, retryAfterSeconds: 30 });
    time += 60_000;
    expect(await counter.count('s', limit)).toBe(0);
  });

  it('takes a released hit back once, and never one that left its window', async () => {
    const [counter, other] = (await instancesOf(now)) as [WindowedCounter, WindowedCounter];
    time = 9_000_000;
    await counter.take('r', minute, 'first');
    time += 1_000;
    await counter.take('r', minute, 'second');
    // On another instance, twice: the hit is taken back once.
    await other.release('r', 'first');
    await other.release('r', 'first');
    expect(await counter.count('r', minute)).toBe(1);
    await counter.take('r', minute);
    await counter.take('r', minute);
    // 'first' went (it would leave in 59 s): the oldest left is 'second', which leaves in 60.
    expect(await counter.take('r', minute)).toEqual({ ok: false, retryAfterSeconds: 60 });
    time += 60_000;
    await counter.take('r', minute, 'late');
    time += 60_000;
    // 'late' left its window; the next window fills, then 'late' is released: no free hit in this window.
    for (let i = 0; i < 3; i++) await counter.take('r', minute);
    await counter.release('r', 'late');
    expect((await counter.take('r', minute)).ok).toBe(false);
  });

  it('says to the millisecond when the window has room again, counting nothing', async () => {
    const [counter] = (await instancesOf(now)) as [WindowedCounter];
    const limit = { calls: 2, seconds: 60 };
    time = 13_000_000;
    expect(await counter.wait('w', limit)).toBe(0);
    await counter.take('w', limit);
    time += 1_234;
    await counter.take('w', limit);
    expect(await counter.wait('w', limit)).toBe(58_766);
    expect(await counter.count('w', limit)).toBe(2);
    time += 58_766;
    expect(await counter.wait('w', limit)).toBe(0);
    expect(await counter.wait('none', { calls: 0, seconds: 60 })).toBe(60_000);
  });

  it("says when the newest hit leaves, for a limit of one in the key's window (the login slow-down reads its time so)", async () => {
    const [counter, other] = (await instancesOf(now)) as [WindowedCounter, WindowedCounter];
    const hour = { calls: 1_000, seconds: 3_600 };
    const newest = { calls: 1, seconds: 3_600 };
    time = 17_000_000;
    await counter.take('n', hour);
    time += 5_000;
    await other.take('n', hour);
    time += 2_000;
    expect(await counter.wait('n', newest)).toBe(3_600_000 - 2_000);
    // Read with the same window, the older hit is still counted.
    expect(await other.count('n', hour)).toBe(2);
  });

  it('refuses every hit of a limit of none, for a window', async () => {
    const [counter] = (await instancesOf(now)) as [WindowedCounter];
    expect(await counter.take('none', { calls: 0, seconds: 60 })).toEqual({
      ok: false,
      retryAfterSeconds: 60,
    });
  });
});

describe('MemoryCounter', () => {
  it('holds at most maxKeys keys, a flood of new ones pushing out the least recently counted', async () => {
    const counter = new MemoryCounter({ maxKeys: 100 });
    const limit = { calls: 1, seconds: 60 };
    for (let i = 0; i < 1_000; i++) await counter.take(`visitor:${i}`, limit);
    expect(counter.size).toBe(100);
    // A newcomer is never refused for the flood: it has a window of its own.
    expect(await counter.take('newcomer', limit)).toEqual({ ok: true });
  });

  it("counts each kind of key (a policy's name) in a map of its own: a flood of one never pushes out another's", async () => {
    const counter = new MemoryCounter({ maxKeys: 100 });
    const limit = { calls: 1, seconds: 60 };
    await counter.take('lookup-order:guessed', limit);
    for (let i = 0; i < 1_000; i++) await counter.take(`visitor:${i}`, limit);
    expect(await counter.take('lookup-order:guessed', limit)).toMatchObject({ ok: false });
  });
});
