import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoginFailures,
  MemoryLoginFailures,
  SqlLoginFailures,
} from '../../shared/oauth/login-failures.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { redisConnection } from '../backends/testing.ts';
import { RedisLoginFailures } from './redis-login-failures.ts';

/** Two handles on one store (two BFF instances), or one object twice where it lives in memory. */
type OpenPair = () => Promise<{ a: LoginFailures; b: LoginFailures; close(): Promise<void> }>;

const T0 = 1_763_800_000_000;
const HOUR = 3_600_000;
const LOCK = { windowMs: HOUR, extendFrom: 20 };
const SLIDING = { windowMs: HOUR, extendFrom: 1 };
let n = 0;
const unique = (kind: string) => `${kind}:${++n}-${Math.random().toString(16).slice(2)}`;

/** What `LoginGuard` relies on, for each place the counts may live. */
function describeLoginFailures(name: string, open: OpenPair): void {
  describe(`LoginFailures contract: ${name}`, () => {
    it('counts within a window, forgets after it, and from the 20th failure locks for an hour from that one', async () => {
      const { a, b, close } = await open();
      try {
        const key = unique('account');
        expect(await a.get(key, T0)).toBeUndefined();
        for (let i = 1; i <= 19; i++) expect((await (i % 2 ? a : b).add(key, T0 + i, LOCK)).count).toBe(i);
        expect(await b.get(key, T0 + 19)).toEqual({ count: 19, last: T0 + 19, until: T0 + HOUR + 1 });
        expect(await a.add(key, T0 + 1_000, LOCK)).toEqual({
          count: 20,
          last: T0 + 1_000,
          until: T0 + 1_000 + HOUR,
        });
        expect((await b.get(key, T0 + HOUR + 999))?.count).toBe(20);
        expect(await b.get(key, T0 + HOUR + 1_000)).toBeUndefined();
        // A failure after the window ended starts a new one.
        expect(await a.add(key, T0 + HOUR + 1_000, LOCK)).toMatchObject({ count: 1 });
      } finally {
        await close();
      }
    });

    it('slides an address window with each failure, and releases and clears', async () => {
      const { a, b, close } = await open();
      try {
        const key = unique('address');
        await a.add(key, T0, SLIDING);
        expect(await b.add(key, T0 + HOUR - 1, SLIDING)).toEqual({
          count: 2,
          last: T0 + HOUR - 1,
          until: T0 + 2 * HOUR - 1,
        });
        await b.release(key, T0 + HOUR);
        await a.release(key, T0 + HOUR);
        await a.release(key, T0 + HOUR);
        expect(await a.get(key, T0 + HOUR)).toMatchObject({ count: 0 });
        await b.clear(key);
        expect(await a.get(key, T0 + HOUR)).toBeUndefined();
      } finally {
        await close();
      }
    });

    it('counts 50 concurrent failures on two handles once each: every count from 1 to 50 is answered once', async () => {
      const { a, b, close } = await open();
      try {
        const key = unique('account');
        const counts = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).add(key, T0, LOCK).then((c) => c.count)),
        );
        expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      } finally {
        await close();
      }
    });
  });
}

describeLoginFailures('memory (the sandbox)', async () => {
  const store = new MemoryLoginFailures();
  return { a: store, b: store, close: async () => undefined };
});

function sqlPair(open: () => SqliteSql | PostgresSql) {
  const sqls = [open(), open()] as const;
  return {
    a: new SqlLoginFailures(sqls[0]),
    b: new SqlLoginFailures(sqls[1]),
    close: async () => void (await Promise.all(sqls.map((sql) => sql.close()))),
  };
}

describeLoginFailures('node:sqlite (two connections to one file)', async () => {
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

describeLoginFailures('PostgreSQL (two pools, as two instances)', async () =>
  sqlPair(() => new PostgresSql(postgresUrl)),
);

describeLoginFailures('Redis (two connections, as two instances)', async () => {
  const connections: RedisConnection[] = [await redisConnection(redis.url), await redisConnection(redis.url)];
  return {
    a: new RedisLoginFailures(connections[0] as RedisConnection),
    b: new RedisLoginFailures(connections[1] as RedisConnection),
    close: async () => {
      for (const connection of connections) connection.close();
    },
  };
});

describe('RedisLoginFailures while Redis is down', () => {
  it("counts in this instance's memory, so logins are still limited", async () => {
    const connection = await redisConnection(redis.url);
    const failures = new RedisLoginFailures(connection);
    await redis.stop();
    try {
      const key = unique('account');
      for (let i = 1; i <= 20; i++) expect((await failures.add(key, T0, LOCK)).count).toBe(i);
      expect((await failures.get(key, T0))?.count).toBe(20);
    } finally {
      await redis.start();
      connection.close();
    }
  });
});

describe('MemoryLoginFailures, bounded (docs/security.md, "State that grows with strangers")', () => {
  it('holds at most 10,000 keys per kind after 20,000 addresses, and never pushes an account’s count out', async () => {
    const failures = new MemoryLoginFailures();
    await failures.add('account:merchant', T0, LOCK);
    await failures.add('ip:first', T0, LOCK);
    for (let i = 0; i < 20_000; i++) await failures.add(`ip:stranger-${i}`, T0, LOCK);
    // The first address is forgotten, the last ones kept, and the account's count untouched by the flood.
    expect(await failures.get('ip:first', T0)).toBeUndefined();
    expect((await failures.get('ip:stranger-19999', T0))?.count).toBe(1);
    expect((await failures.get('account:merchant', T0))?.count).toBe(1);
  });
});
