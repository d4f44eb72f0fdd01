import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackingResult } from '../../shared/tracking.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import type { RedisConnection } from '../backends/redis.ts';
import { redisConnection } from '../backends/testing.ts';
import { DEFAULT_TTLS, TrackingCache } from './cache.ts';
import { RedisTrackingCache } from './redis-cache.ts';

const moving: TrackingResult = { code: 'DG049186226BR', found: true, delivered: false, events: [] };
const delivered: TrackingResult = { code: 'SW371675211BR', found: true, delivered: true, events: [] };

describe('RedisTrackingCache (real redis-server)', () => {
  let server: RedisServer;
  const connections: RedisConnection[] = [];
  let now = 1_763_800_000_000;
  const clock = () => now;
  /** A cache of one store (by its secret key), with its own empty memory, as one more BFF instance. */
  const instance = async (secretKey: string) => {
    const connection = await redisConnection(server.url, secretKey);
    connections.push(connection);
    return {
      cache: new RedisTrackingCache({ connection, local: new TrackingCache({ now: clock }) }),
      connection,
    };
  };

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await server?.close();
  });

  it('shares entries between instances, fresh within the TTL, revalidating within one more, then expired', async () => {
    const a = (await instance('mk_one')).cache;
    const b = (await instance('mk_one')).cache;
    await a.set(moving.code, moving);
    expect(await b.get(moving.code)).toEqual({ result: moving, freshness: 'fresh' });
    now += DEFAULT_TTLS.moving;
    expect((await b.get(moving.code))?.freshness).toBe('revalidate');
    now += DEFAULT_TTLS.moving;
    expect((await b.get(moving.code))?.freshness).toBe('expired');
    expect(await b.get(delivered.code)).toBeUndefined();
    // Another store's cache never sees it.
    expect(await (await instance('mk_two')).cache.get(moving.code)).toBeUndefined();
  });

  it('keeps a delivered object fresh for a day, and keeps the entry beyond as the last known answer', async () => {
    const { cache, connection } = await instance('mk_three');
    await cache.set(delivered.code, delivered);
    now += DEFAULT_TTLS.delivered - 1;
    expect((await cache.get(delivered.code))?.freshness).toBe('fresh');
    const ttl = await connection.commands.pttl(`${connection.prefix}:tc:${delivered.code}`);
    expect(ttl).toBeGreaterThan(2 * DEFAULT_TTLS.delivered);
  });

  it('ignores an entry that is not a tracking result (another writer, a bad deploy) instead of serving it', async () => {
    const { cache, connection } = await instance('mk_four');
    const key = `${connection.prefix}:tc:${moving.code}`;
    await connection.commands.set(key, JSON.stringify({ result: { code: 1 }, storedAt: now, ttl: 1 }));
    expect(await cache.get(moving.code)).toBeUndefined();
    await connection.commands.set(key, 'not json');
    expect(await cache.get(moving.code)).toBeUndefined();
  });

  it("keeps answering from this instance's memory while Redis is down, and shares again when it is back", async () => {
    const { cache } = await instance('mk_five');
    const other = (await instance('mk_five')).cache;
    await server.stop();
    await cache.set(moving.code, moving);
    expect(await cache.get(moving.code)).toEqual({ result: moving, freshness: 'fresh' });
    expect(await other.get(moving.code)).toBeUndefined();
    await server.start();
    await Promise.all(connections.map((connection) => connection.connected()));
    await cache.set(delivered.code, delivered);
    expect(await other.get(delivered.code)).toEqual({ result: delivered, freshness: 'fresh' });
  });
});
