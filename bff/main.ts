import { createServer } from 'node:http';
import { type Bff, createBff } from './app.ts';
import { openSharedStores, type SharedStores } from './cluster/stores.ts';
import { ConfigError, parseConfig } from './config.ts';
import { createLogger } from './logger.ts';

const logger = createLogger();

let config: ReturnType<typeof parseConfig>;
try {
  config = parseConfig();
} catch (error) {
  logger.fatal(error instanceof ConfigError ? error.message : 'invalid configuration');
  process.exit(1);
}

// PostgreSQL first (BFF_DATABASE_URL): migrations run before the BFF takes a request; unreachable → exit 1.
let stores: SharedStores | undefined;
try {
  stores = await openSharedStores(config);
} catch (error) {
  logger.fatal(
    { error: error instanceof Error ? error.message : String(error) },
    'BFF_DATABASE_URL: PostgreSQL cannot be reached or migrated',
  );
  process.exit(1);
}

let bff: Bff | undefined;
// Listen first: with port 0 and no BFF_PUBLIC_URL, the public URL (the OAuth issuer) is the port we got.
const server = createServer();
server.listen(config.port, config.host);
server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const publicUrl =
    new URL(config.publicUrl).port === '0' ? `http://${config.host}:${port}` : config.publicUrl;
  try {
    bff = createBff({ config: { ...config, publicUrl }, logger, stores });
  } catch (error) {
    logger.fatal(error instanceof ConfigError ? error.message : 'the BFF could not start');
    process.exit(1);
  }
  server.on('request', bff.app);
  logger.info(
    { url: `http://${config.host}:${port}`, upstream: config.apiUrl },
    `BFF listening on http://${config.host}:${port}`,
  );
});
server.on('error', (error: NodeJS.ErrnoException) => {
  logger.fatal(
    error.code === 'EADDRINUSE' ? `port ${config.port} is already in use (set BFF_PORT)` : error.message,
  );
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(
      () => void (bff?.close() ?? Promise.resolve()).then(() => stores?.close()).then(() => process.exit(0)),
    );
    server.closeAllConnections();
  });
}
