import { createLogger } from '../logger.ts';
import { RedisConnection } from './redis.ts';

/**
 * A connection to a test's redis-server, as a BFF of the store with `secretKey` would open it (its keys prefixed
 * with the key's hash), once it is ready to take commands.
 */
export async function redisConnection(url: string, secretKey = 'mk_test_demo'): Promise<RedisConnection> {
  const connection = new RedisConnection({ url, secretKey, logger: createLogger({ level: 'silent' }) });
  await connection.connected();
  return connection;
}
