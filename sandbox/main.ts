import pino from 'pino';
import { createHttpServer } from '../shared/http-server.ts';
import { createSandbox } from './app.ts';
import { parseSandboxConfig } from './config.ts';

const log = pino({ name: 'sandbox' });

let config: ReturnType<typeof parseSandboxConfig>;
try {
  config = parseSandboxConfig();
} catch (error) {
  log.fatal((error as Error).message);
  process.exit(1);
}

// Listen first: with port 0 and no SANDBOX_PUBLIC_URL, the public URL (the OAuth issuer, onboarding links, the
// allowed Host) is the port we got.
// Timeouts for headers, requests and idle keep-alive, and a per-address connection cap (shared/http-server.ts).
const server = createHttpServer();
server.listen(config.port, '127.0.0.1');
server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const publicUrl = new URL(config.publicUrl).port === '0' ? `http://127.0.0.1:${port}` : config.publicUrl;
  const { app } = createSandbox({ ...config, publicUrl, logger: log });
  server.on('request', app);
  log.info(
    { url: `http://127.0.0.1:${port}`, publicUrl, auth: config.auth },
    `sandbox listening on http://127.0.0.1:${port} (MCP at ${publicUrl}/mcp)`,
  );
  if (config.auth === 'off') {
    log.warn(
      'SANDBOX_AUTH=off: MCP at /mcp is UNAUTHENTICATED. Anyone who can reach this port acts as any store ' +
        '(instanceId picks it; loja-demo when omitted) and can issue labels. REST still takes keys.',
    );
  }
});
server.on('error', (error: NodeJS.ErrnoException) => {
  log.fatal(
    error.code === 'EADDRINUSE' ? `port ${config.port} is already in use (set SANDBOX_PORT)` : error.message,
  );
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
