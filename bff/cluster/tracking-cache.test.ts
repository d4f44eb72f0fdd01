import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackingResult } from '../../shared/tracking.ts';
import { DEFAULT_TTLS } from '../tracking/cache.ts';
import { type RedisServer, startRedis } from './test-servers.ts';
import { RedisTrackingCache } from './tracking-cache.ts';

const moving: TrackingResult = { code: 'DG049186226BR', found: true, delivered: false, events: [] };
const delivered: TrackingResult = { code: 'SW371675211BR', found: true, delivered: true, events: [] };

describe('RedisTrackingCache (real redis-server)', () => {
  let server: RedisServer;
  let redis: Redis;
  let now = 1_763_800_000_000;
  const clock = () => now;

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.close();
  });

  it('shares entries between instances, fresh within the TTL, revalidating within one more, then expired', async () => {
    const a = new RedisTrackingCache({ redis, prefix: 't:{1}', now: clock });
    const b = new RedisTrackingCache({ redis, prefix: 't:{1}', now: clock });
    await a.set(moving.code, moving);
    expect(await b.get(moving.code)).toEqual({ result: moving, freshness: 'fresh' });
    now += DEFAULT_TTLS.moving;
    expect((await b.get(moving.code))?.freshness).toBe('revalidate');
    now += DEFAULT_TTLS.moving;
    expect((await b.get(moving.code))?.freshness).toBe('expired');
    expect(await b.get(delivered.code)).toBeUndefined();
  });

  it('keeps a delivered object fresh for a day, and keeps the entry beyond as the last known answer', async () => {
    const cache = new RedisTrackingCache({ redis, prefix: 't:{2}', now: clock });
    await cache.set(delivered.code, delivered);
    now += DEFAULT_TTLS.delivered - 1;
    expect((await cache.get(delivered.code))?.freshness).toBe('fresh');
    const ttl = await redis.pttl(`t:{2}:tc:${delivered.code}`);
    expect(ttl).toBeGreaterThan(2 * DEFAULT_TTLS.delivered);
  });

  it('ignores an entry that is not a tracking result (another writer, a bad deploy) instead of serving it', async () => {
    const cache = new RedisTrackingCache({ redis, prefix: 't:{3}', now: clock });
    await redis.set(
      `t:{3}:tc:${moving.code}`,
      JSON.stringify({ result: { code: 1 }, storedAt: now, ttl: 1 }),
    );
    expect(await cache.get(moving.code)).toBeUndefined();
    await redis.set(`t:{3}:tc:${moving.code}`, 'not json');
    expect(await cache.get(moving.code)).toBeUndefined();
  });
});
