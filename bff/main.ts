import { createBff } from './app.ts';
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

const bff = createBff({ config, logger });
const server = bff.app.listen(config.port, config.host);
server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
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
    server.close(() => void bff.close().then(() => process.exit(0)));
    server.closeAllConnections();
  });
}
