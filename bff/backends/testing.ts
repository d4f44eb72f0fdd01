import { createLogger } from '../logger.ts';
import { RedisConnection } from './redis.ts';

/**
 * A connection to a test's redis-server, as a BFF of the store with `secretKey` would open it (its keys prefixed
 * with the key's hash), once it is ready to take commands. Commands get 5 s, not production's 500 ms: these tests
 * state what the instances share, and on a starved machine (the whole suite on two cores) an answer Redis gave at
 * once was read after 500 ms, so that call fell back to the instance's own memory (CI of 198da8f: 12 of 40 burst
 * hits through a limit of 7). A test of that fallback passes its own `commandTimeoutMs`.
 */
export async function redisConnection(
  url: string,
  secretKey = 'mk_test_demo',
  commandTimeoutMs = 5_000,
): Promise<RedisConnection> {
  const connection = new RedisConnection({
    url,
    secretKey,
    logger: createLogger({ level: 'silent' }),
    commandTimeoutMs,
  });
  await connection.connected();
  return connection;
}
