import type { ClientMetadataFetchOptions } from '../shared/oauth/client-metadata.ts';
import type { Backends } from './backends/backends.ts';
import type { BffConfig } from './config.ts';
import type { LabelIssuerOptions } from './labels/issuer.ts';
import type { Logger } from './logger.ts';
import type { NotificationsDeps } from './notifications/notifications.ts';
import type { CepLookup } from './orders/cep-directory.ts';
import type { HistoryPromises } from './promise/promises.ts';
import type { Schedule } from './tracking/coalescer.ts';
import type { RestClientOptions } from './upstream/rest-client.ts';

/**
 * What the BFF is built from (`createBff` in app.ts, `createParts` in parts.ts): the configuration, where state lives,
 * and the clocks, fetches and timings tests inject. In a file of its own, so the two builders both take it without
 * taking each other.
 */
export interface BffDeps {
  config: BffConfig;
  logger?: Logger;
  /** Injectable time, randomness and upstream fetch, for tests. */
  now?: () => number;
  random?: () => number;
  fetch?: typeof fetch;
  schedule?: Schedule;
  /** How long lookups wait to be sent upstream together (default 50 ms). */
  coalesceWindowMs?: number;
  /** The clock of those windows (default: the real one, Redis's for the queue instances share), for tests. */
  coalesceNow?: () => number;
  /** Redis's command timeout (`openBackends`; default 500 ms), for tests on a busy machine. */
  redisCommandTimeoutMs?: number;
  /** Retry timing of the upstream client (defaults suit production). */
  upstream?: Pick<
    RestClientOptions,
    'baseDelayMs' | 'maxDelayMs' | 'retries' | 'timeoutMs' | 'totalTimeoutMs'
  >;
  /** OAuth: the SDK's per-IP endpoint limits (default on); how client metadata documents are fetched (tests). */
  oauth?: { rateLimits?: boolean; clientMetadata?: ClientMetadataFetchOptions };
  /** Label timing (PDF backoff, generate_label timeout), for tests. */
  labels?: Pick<
    LabelIssuerOptions,
    'pdfDelaysMs' | 'timeoutMs' | 'dedupeWindowMs' | 'maxInFlight' | 'retryReconcileMs'
  >;
  /**
   * Notifications, for tests: `timers: false` leaves the cadence and the outbox poll off (the test calls `tick()`);
   * another mail port, the outbox lease, the poll interval.
   */
  notifications?: { timers?: boolean } & Pick<
    NotificationsDeps,
    'mailer' | 'leaseMs' | 'pollMs' | 'cadenceMs'
  >;
  /** How `order_not_found` waits for its time floor (tests observe it instead of sleeping). */
  lookupWait?: (ms: number) => Promise<void>;
  /** Where the built widget files are (default `dist/widget/`), for tests. */
  widgetDir?: string;
  /**
   * The orders' tracking going back to the stores, for tests: `timers: false` leaves its poll off (the test calls
   * `trackingBack.drain()`); another CEP lookup than the configured services.
   */
  orders?: { timers?: boolean; cep?: CepLookup; leaseMs?: number };
  /** Where the MCP apps' built documents are (default `dist/apps/`), for tests. */
  appsDir?: string;
  /** Where state lives (`openBackends`): opened, migrated and closed by the caller. */
  backends: Backends;
  /**
   * The clock of the BFF's time-dependent work — the watcher's cadence and stall clock, pickup countdowns, link
   * expiry, the delivery promise's "today" and its scores: the sandbox's under `BFF_TEST_CLOCK=sandbox` (main.ts
   * connects it, bff/sandbox-clock.ts); `now` otherwise.
   */
  workNow?: () => number;
  /**
   * The delivery promises every surface shows — the quote core's rates, the calculator's `/api/promises`, tracking,
   * e-mails: learnt from the store's parcels (bff/promise/), the store's handling days and cut-off
   * (`BFF_HANDLING_DAYS`, `BFF_CUTOFF`) in front, unless another implementation is given (tests).
   */
  promises?: HistoryPromises;
}
