import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_LIMITS,
  LoginGuard,
  type LoginRequest,
  memoryLoginCounter,
} from '../../shared/oauth/login-guard.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import type { WindowedCounter } from '../../shared/windowed-counter.ts';
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { RedisCounter } from '../backends/redis-counter.ts';
import { SqlCounter } from '../backends/sql-counter.ts';
import { redisConnection } from '../backends/testing.ts';

/**
 * The login rule (shared/oauth/login-guard.ts) over each counter `Backends.loginFailures` may be, as two BFF instances
 * see it: two guards, each on its own handle of one shared counter (Redis, node:sqlite, PostgreSQL; memory for the
 * sandbox), on one test clock. The counter's own contract is bff/backends/counter.test.ts's.
 */
const T0 = 1_763_800_000_000;
const HOUR = 3_600_000;
let now = T0;
const clock = () => now;
let n = 0;

/** Two handles on one counter (two instances), or one counter twice where it lives in memory. */
type OpenPair = () => Promise<{ a: WindowedCounter; b: WindowedCounter; close(): Promise<void> }>;

const guardOn = (counter: WindowedCounter) =>
  new LoginGuard({ counter, secret: 'a-device-cookie-secret', secureCookies: true, now: clock });

/** A request from an address of this test's own range (each test counts under keys of its own). */
const from = (range: number, i: number): LoginRequest => ({
  ip: `10.${range >> 8}.${range & 255}.${i}`,
  socket: {},
  headers: {},
});

const waitOf = async (guard: LoginGuard, req: LoginRequest, account: string) => {
  const admission = await guard.admit(req, account);
  return admission.ok ? 0 : admission.retryAfterSeconds;
};

function describeOver(name: string, open: OpenPair): void {
  describe(`the login rule over ${name}`, () => {
    it('lets 20 of 25 attempts at once on two instances be checked, then locks the account on both for an hour from the 20th', async () => {
      const { a, b, close } = await open();
      try {
        now = T0;
        const [one, two] = [guardOn(a), guardOn(b)];
        const range = ++n;
        const account = `loja-${range}@loja.example`;
        const admissions = await Promise.all(
          Array.from({ length: 25 }, (_, i) => (i % 2 ? one : two).admit(from(range, i + 1), account)),
        );
        expect(admissions.filter((admission) => admission.ok)).toHaveLength(20);
        for (const admission of admissions) if (admission.ok) await one.failed(admission);
        now += 1_800_000;
        expect(await waitOf(one, from(range, 100), account)).toBe(1_800);
        expect(await waitOf(two, from(range, 101), account)).toBe(1_800);
        now += 1_800_000;
        expect(await waitOf(two, from(range, 102), account)).toBe(0);
      } finally {
        await close();
      }
    });

    it('slows an address down on every instance, doubling with each of its failures, whichever instance saw them', async () => {
      const { a, b, close } = await open();
      try {
        now = T0;
        const [one, two] = [guardOn(a), guardOn(b)];
        const address = from(++n, 1);
        const account = `loja-${n}@loja.example`;
        const first = await one.admit(address, account);
        if (!first.ok) throw new Error('refused');
        await one.failed(first);
        expect(await waitOf(two, address, account)).toBe(1);
        now += 1_000;
        const second = await two.admit(address, account);
        if (!second.ok) throw new Error('refused');
        await two.failed(second);
        expect(await waitOf(one, address, account)).toBe(2);
        now += LOGIN_LIMITS.addressWindowMs + 1_000;
        expect(await waitOf(one, address, account)).toBe(0);
      } finally {
        await close();
      }
    });

    it('takes a right password back on every instance, with the lock it took when it was the 20th', async () => {
      const { a, b, close } = await open();
      try {
        now = T0;
        const [one, two] = [guardOn(a), guardOn(b)];
        const range = ++n;
        const account = `loja-${range}@loja.example`;
        for (let i = 1; i <= 19; i++) {
          const admission = await one.admit(from(range, i), account);
          if (!admission.ok) throw new Error('refused');
          await one.failed(admission);
        }
        const right = await two.admit(from(range, 50), account);
        if (!right.ok) throw new Error('refused');
        await two.succeeded(right, { appendHeader: () => undefined });
        expect(await waitOf(one, from(range, 51), account)).toBe(0);
        expect(await waitOf(two, from(range, 52), account)).toBe(HOUR / 1000);
      } finally {
        await close();
      }
    });
  });
}

describeOver('memory (the sandbox)', async () => {
  const counter = memoryLoginCounter(clock);
  return { a: counter, b: counter, close: async () => undefined };
});

async function sqlPair(open: () => Sql) {
  const sqls = [open(), open()] as const;
  const [a, b] = sqls.map((sql) => new SqlCounter(sql, { now: clock })) as [SqlCounter, SqlCounter];
  await a.ready;
  await b.ready;
  return { a, b, close: async () => void (await Promise.all(sqls.map((sql) => sql.close()))) };
}

describeOver('node:sqlite (two connections to one file)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'login-failures-'));
  return sqlPair(() => new SqliteSql({ dataDir, file: 'oauth.sqlite' }));
});

let postgres: PostgresServer;
let postgresUrl: string;
let redis: RedisServer;
beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  postgresUrl = await postgres.createDatabase('login_failures');
});
afterAll(async () => {
  await Promise.all([postgres?.close(), redis?.close()]);
});

describeOver('PostgreSQL (two pools, as two instances)', () => sqlPair(() => new PostgresSql(postgresUrl)));

describeOver('Redis (two connections, as two instances)', async () => {
  const connections: RedisConnection[] = [await redisConnection(redis.url), await redisConnection(redis.url)];
  const [a, b] = connections.map(
    (connection) => new RedisCounter(connection, memoryLoginCounter(clock), clock),
  );
  return {
    a: a as RedisCounter,
    b: b as RedisCounter,
    close: async () => {
      for (const connection of connections) connection.close();
    },
  };
});

describe('the login rule over Redis while Redis is down', () => {
  it("counts in this instance's memory, so logins are still limited", async () => {
    const connection = await redisConnection(redis.url);
    const guard = guardOn(new RedisCounter(connection, memoryLoginCounter(clock), clock));
    await redis.stop();
    try {
      now = T0;
      const range = ++n;
      const account = `loja-${range}@loja.example`;
      for (let i = 1; i <= 20; i++) {
        const admission = await guard.admit(from(range, i), account);
        if (!admission.ok) throw new Error(`refused at ${i}`);
        await guard.failed(admission);
      }
      expect(await waitOf(guard, from(range, 21), account)).toBe(HOUR / 1000);
    } finally {
      await redis.start();
      connection.close();
    }
  });
});
