import { createHttpServer } from '../shared/http-server.ts';
import { type Bff, createBff } from './app.ts';
import { type Backends, openBackends } from './backends/backends.ts';
import { ConfigError, parseConfig, proxyTrustWarning } from './config.ts';
import { createLogger, messageOf } from './logger.ts';
import { SandboxClock } from './sandbox-clock.ts';

const logger = createLogger();

let config: ReturnType<typeof parseConfig>;
try {
  config = parseConfig();
} catch (error) {
  logger.fatal(error instanceof ConfigError ? error.message : 'invalid configuration');
  process.exit(1);
}

// Storage first: migrations run before the BFF takes a request; an unreachable PostgreSQL → exit 1.
let backends: Backends;
try {
  backends = await openBackends(config, { logger });
} catch (error) {
  logger.fatal(
    { error: messageOf(error) },
    config.databaseUrl
      ? 'BFF_DATABASE_URL: PostgreSQL cannot be reached or migrated'
      : 'BFF_DATA_DIR: the label ledger cannot be opened or migrated',
  );
  process.exit(1);
}

// BFF_TEST_CLOCK=sandbox: the time-dependent work follows the sandbox's clock; a platform that cannot tell it is not
// a sandbox, and the BFF does not start (config.ts already refused any URL that is not on this machine).
let workNow: (() => number) | undefined;
if (config.testClock) {
  try {
    workNow = (await SandboxClock.connect(config.apiUrl)).now;
  } catch (error) {
    logger.fatal(messageOf(error));
    await backends.close();
    process.exit(1);
  }
  logger.warn(
    'BFF_TEST_CLOCK=sandbox: the watcher, stalls, pickup countdowns, link expiry and promise scores follow the sandbox’s clock',
  );
}

let bff: Bff | undefined;
// Listen first: with port 0 and no BFF_PUBLIC_URL, the public URL (the OAuth issuer) is the port we got.
// Timeouts and a per-address connection cap (shared/http-server.ts); the proxies we trust are exempt from the cap.
const server = createHttpServer();
server.listen(config.port, config.host);
server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const publicUrl =
    new URL(config.publicUrl).port === '0' ? `http://${config.host}:${port}` : config.publicUrl;
  try {
    bff = createBff({ config: { ...config, publicUrl }, logger, backends, ...(workNow ? { workNow } : {}) });
  } catch (error) {
    logger.fatal(error instanceof ConfigError ? error.message : 'the BFF could not start');
    process.exit(1);
  }
  server.exemptFromCap(bff.trustsProxy);
  server.on('request', bff.app);
  const warning = proxyTrustWarning(config);
  if (warning) logger.warn(warning);
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
      () => void (bff?.close() ?? Promise.resolve()).then(() => backends.close()).then(() => process.exit(0)),
    );
    server.closeAllConnections();
  });
}
