import type { Logger } from 'pino';
import { saoPauloDate } from '../shared/parcel-story.ts';
import { RATE_LIMIT } from '../shared/platform-limits.ts';
import { CounterPolicy, MemoryCounter, type RateLimit } from '../shared/windowed-counter.ts';
import { CarrierClock } from './carrier/clock.ts';
import { registerFixtures, TrackingBook } from './carrier/tracking.ts';
import { CepService } from './cep/viacep.ts';
import { CheckoutPlatforms } from './checkouts/state.ts';
import { Faults } from './faults/faults.ts';
import { LabelDesk } from './labels/desk.ts';
import { SandboxOAuth } from './oauth/oauth.ts';
import { MerchantDesk } from './partners/desk.ts';
import { CallStats } from './stats/stats.ts';
import { StoreRegistry } from './stores/stores.ts';

export interface SandboxOptions {
  /** Where unexpected errors are logged (none by default: the sandbox answers, it does not chatter). */
  logger?: Logger;
  /** Calls per seconds, per store and route (spec 8). Default `RATE_LIMIT` (shared/platform-limits.ts). */
  rateLimit?: RateLimit;
  /** Real ms until a new label's PDF is ready. Default 150. */
  labelPdfDelayMs?: number;
  /** How long generate_label waits for the PDF before `label_pdf_timeout`. Default 5000. */
  labelPdfWaitMs?: number;
  /** `keys`: credentials as the spec says; `off`: the local unauthenticated MCP mode. Default `keys`. */
  auth?: 'keys' | 'off';
  /**
   * The sandbox's {base_url} and {app_url}, e.g. `http://127.0.0.1:4010`: the OAuth issuer (`<publicUrl>/mcp` is the
   * resource), the OpenAPI server, onboarding links, the allowed Host.
   */
  publicUrl?: string | undefined;
  /** How fast the carrier's clock runs (`SANDBOX_CLOCK_SPEED`; 1, real time, by default; 3600: an hour a second). */
  clockSpeed?: number;
  /** Seconds an expiring Shopify token (and a client-credentials one) lives (`SANDBOX_SHOPIFY_TOKEN_TTL_S`). */
  shopifyTokenTtlS?: number | undefined;
  /** Injectable time and randomness, for tests. */
  now?: () => number;
  random?: () => number;
}

/** Everything the emulated platform remembers; `reset()` returns it to the fixtures. */
export class SandboxState {
  readonly registry: StoreRegistry;
  readonly carrierClock: CarrierClock;
  readonly tracking = new TrackingBook();
  /** Spec 8: per store and route, a policy over the windowed counter (a sliding window). */
  readonly limiter: CounterPolicy;
  private readonly counter: MemoryCounter;
  /** The limiter's setting: also the `Retry-After` of the magic `00000-429` answer. */
  readonly rateLimit: RateLimit;
  readonly faults: Faults;
  readonly stats = new CallStats();
  readonly labels: LabelDesk;
  readonly partners: MerchantDesk;
  /** `keys` (the spec's credentials) or `off` (the local unauthenticated MCP mode). */
  readonly auth: 'keys' | 'off';
  /** The public origin, when configured; otherwise the loopback address a request arrived on stands for it. */
  readonly publicUrl: string | undefined;
  readonly oauth: SandboxOAuth;
  /** The store platforms' Admin APIs and checkouts (sandbox/checkouts/). */
  readonly checkouts: CheckoutPlatforms;
  /** The emulated public CEP service (sandbox/cep/). */
  readonly cep = new CepService();

  constructor(options: SandboxOptions = {}) {
    const now = options.now ?? Date.now;
    this.registry = new StoreRegistry();
    this.partners = new MerchantDesk(this.registry);
    this.auth = options.auth ?? 'keys';
    this.publicUrl = options.publicUrl?.replace(/\/+$/, '');
    this.carrierClock = new CarrierClock(now, options.clockSpeed ?? 1);
    this.rateLimit = options.rateLimit ?? RATE_LIMIT;
    this.counter = new MemoryCounter({ now });
    this.limiter = new CounterPolicy(this.counter, 'store-route', this.rateLimit);
    this.faults = new Faults(options.random);
    this.labels = new LabelDesk({
      registry: this.registry,
      tracking: this.tracking,
      carrierClock: this.carrierClock,
      pdfDelayMs: options.labelPdfDelayMs ?? 150,
      pdfWaitMs: options.labelPdfWaitMs ?? 5000,
      now,
    });
    registerFixtures(this.tracking, this.carrierClock.time());
    this.checkouts = new CheckoutPlatforms(now, options.shopifyTokenTtlS, () =>
      saoPauloDate(this.carrierClock.time()),
    );
    this.oauth = new SandboxOAuth({
      registry: this.registry,
      publicUrl: options.publicUrl ?? 'http://127.0.0.1:4010',
      ...(options.now ? { now: options.now } : {}),
    });
  }

  async reset(): Promise<void> {
    this.carrierClock.reset();
    this.tracking.clear();
    registerFixtures(this.tracking, this.carrierClock.time());
    this.counter.clear();
    this.faults.clear();
    this.stats.reset();
    this.partners.reset(); // before the labels: their history is seeded for the fixture stores only
    this.labels.reset();
    this.checkouts.reset();
    this.cep.reset();
    await this.oauth.reset();
  }
}
