import { createLogger } from '../logger.ts';
import { RedisConnection } from './redis.ts';

/**
 * Redis commands in tests get 5 s, not production's 500 ms: tests state what the instances share, and on a starved
 * machine (the whole suite on two cores) an answer Redis gave at once was read after 500 ms, so that call fell back to
 * the instance's own memory (CI of 198da8f: 12 of 40 burst hits through a limit of 7). A test of that fallback passes
 * its own timeout (instances.test.ts's SIGSTOP test: 500 ms). Test connections and test BFFs (bff/testing.ts) use it.
 */
export const TEST_REDIS_COMMAND_TIMEOUT_MS = 5_000;

/**
 * A connection to a test's redis-server, as a BFF of the store with `secretKey` would open it (its keys prefixed
 * with the key's hash), once it is ready to take commands (`TEST_REDIS_COMMAND_TIMEOUT_MS` a command).
 */
export async function redisConnection(
  url: string,
  secretKey = 'mk_test_demo',
  commandTimeoutMs = TEST_REDIS_COMMAND_TIMEOUT_MS,
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
