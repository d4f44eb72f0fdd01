import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from './servers.ts';

describe('the real servers the multi-instance tests run on', () => {
  let redis: RedisServer;
  let postgres: PostgresServer;

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([redis?.close(), postgres?.close()]);
  });

  it('starts redis-server on a free port, and brings it back after a stop', async () => {
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    client.disconnect();
    await redis.stop();
    await redis.start();
    const again = new Redis(redis.url, { lazyConnect: true });
    await again.connect();
    expect(await again.get('k')).toBeNull(); // no persistence: a restart is an empty server
    again.disconnect();
  });

  it('starts PostgreSQL on a free port (as a non-root user when run as root) and creates databases', async () => {
    const url = await postgres.createDatabase('harness_check');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE t (id TEXT PRIMARY KEY)');
    await client.query("INSERT INTO t VALUES ('a')");
    await expect(client.query("INSERT INTO t VALUES ('a')")).rejects.toThrow(/duplicate key/);
    const { rows } = await client.query('SELECT current_user AS who');
    expect(rows[0].who).toBe('postgres');
    await client.end();
  });
});
