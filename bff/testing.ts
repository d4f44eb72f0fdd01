import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpServer, type ServerLimits } from '../shared/http-server.ts';
import { type Bff, createBff } from './app.ts';
import { type Backends, openBackends } from './backends/backends.ts';
import { TEST_REDIS_COMMAND_TIMEOUT_MS } from './backends/testing.ts';
import { parseConfig } from './config.ts';
import type { BffDeps } from './deps.ts';
import { createLogger } from './logger.ts';
import { SandboxClock } from './sandbox-clock.ts';

/** Agent tokens of the test BFFs: one per scope set. */
export const TEST_AGENTS = [
  { token: 'agent-all-scopes-0001', scopes: ['rates', 'tracking', 'labels'] },
  { token: 'agent-rates-only-0002', scopes: ['rates'] },
  { token: 'agent-tracking-only-3', scopes: ['tracking'] },
];

export interface RunningBff extends Bff {
  url: string;
  /** Where its state lives (a test may close the database under it). */
  backends: Backends;
  /** With `BFF_TEST_CLOCK=sandbox` in `env` (and no `workNow` given): the sandbox's clock it follows. */
  sandboxClock: SandboxClock | undefined;
  /** Every log line written, as JSON text (after redaction). */
  logs: string[];
  /** Connections its server holds open from this address now (the per-address cap's count). */
  connectionsFrom(address: string): number;
  /** Connections from this address its server closed on arrival (the per-address cap), in all. */
  refusedFrom(address: string): number;
  /** Connections from this address its server let in, in all. */
  acceptedFrom(address: string): number;
  stop(): Promise<void>;
  track(codes: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Starts a real BFF on 127.0.0.1, port 0, against `apiUrl` (usually a sandbox started by the test). */
export async function startBff(
  apiUrl: string,
  env: Record<string, string> = {},
  deps: Omit<BffDeps, 'config' | 'logger' | 'backends'> = {},
  /** Overrides of the server's timeouts and connection cap (`SERVER_LIMITS`), to keep a test short. */
  limits?: Partial<ServerLimits>,
): Promise<RunningBff> {
  const logs: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void logs.push(line) },
  });
  // Listen first, so the BFF knows its own URL (BFF_PUBLIC_URL: the OAuth issuer) unless the test gives one.
  const server = createHttpServer(limits ? { limits } : {});
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let bff: Bff;
  let backends: Backends | undefined;
  let sandboxClock: SandboxClock | undefined;
  try {
    const config = parseConfig({
      BFF_PUBLIC_URL: url,
      SHIPPING_API_URL: apiUrl,
      SHIPPING_SECRET_KEY: 'mk_test_demo',
      SHIPPING_PUBLIC_KEY: 'pk_test_demo',
      BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'bff-ledger-')),
      BFF_AGENT_TOKENS: JSON.stringify(TEST_AGENTS),
      // Addresses by CEP from the sandbox's emulated service, never the internet (a plain platform URL: refused, the
      // CEP→UF table answers).
      BFF_CEP_SERVICES: `viacep:${apiUrl}/viacep/ws`,
      // 10 s, not production's 1.5 s: the sandbox answers in the test's own process, and on a starved machine its
      // answer came after 1.5 s, so an order lost its bairro and went to review (the stressed soak of 66c10a3: 27
      // of the day's 30 orders ready). The timeout's path is stated with a scripted service (cep-directory.scripted).
      BFF_CEP_TIMEOUT_MS: '10000',
      ...env,
    });
    // Opened (and migrated) as main.ts does: BFF_DATABASE_URL / BFF_REDIS_URL in `env` share them.
    backends = await openBackends(config, {
      logger,
      ...(deps.now ? { now: deps.now } : {}),
      // Not production's 500 ms, for the same reason as the CEP's 10 s (bff/backends/testing.ts says why).
      redisCommandTimeoutMs: deps.redisCommandTimeoutMs ?? TEST_REDIS_COMMAND_TIMEOUT_MS,
    });
    if (config.testClock && !deps.workNow) sandboxClock = await SandboxClock.connect(apiUrl);
    const workNow = deps.workNow ?? sandboxClock?.now;
    bff = createBff({
      config,
      logger,
      upstream: { baseDelayMs: 5, maxDelayMs: 20 },
      ...deps,
      ...(workNow ? { workNow } : {}),
      backends,
    });
  } catch (error) {
    server.close();
    sandboxClock?.close();
    await backends?.close();
    throw error;
  }
  const opened = backends;
  server.exemptFromCap(bff.trustsProxy);
  server.on('request', bff.app);
  return {
    ...bff,
    url,
    backends: opened,
    sandboxClock,
    logs,
    connectionsFrom: (address) => server.connectionsOf(address),
    refusedFrom: (address) => server.refusedOf(address),
    acceptedFrom: (address) => server.acceptedOf(address),
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await bff.close();
      sandboxClock?.close();
      await opened.close();
    },
    track: (codes, headers = {}) =>
      fetch(`${url}/api/tracking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ codes }),
      }),
  };
}
