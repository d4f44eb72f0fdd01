import type { TrackingResult } from '../../shared/tracking.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { KeyedLimit } from '../../shared/windowed-counter.ts';
import { type Logger, messageOf } from '../logger.ts';
import { isUpstreamError, UpstreamError } from '../upstream/errors.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import type { Cached, TrackingStore } from './cache.ts';
import { Coalescer, type Schedule } from './coalescer.ts';
import { normalizeCodes } from './codes.ts';
import { ShareSpent } from './visitor-share.ts';

/** Every lookup answers within this (stale or an error), whatever the platform does. */
export const TRACKING_DEADLINE_MS = 8_000;

/** One upstream call for up to 50 codes: an answer per code it got, written to the cache. */
export type TrackingBatch = (codes: string[]) => Promise<Map<string, TrackingResult>>;

/** Where a code's answer comes from: this instance's coalescer, or a queue shared by every instance. */
export interface CodeLoader {
  load(code: string): Promise<TrackingResult>;
}

export interface TrackingServiceOptions {
  client: Pick<RestClient, 'tracking'>;
  cache: TrackingStore;
  logger: Logger;
  windowMs?: number;
  schedule?: Schedule;
  /** The clock the coalescing windows are measured with (default: the real one; the shared queue's, Redis's). */
  coalesceNow?: () => number;
  /** The answer deadline of one lookup (default `TRACKING_DEADLINE_MS`). */
  deadlineMs?: number;
  /**
   * Each visitor's share of the store's upstream budget (`visitorShareOf`): taken once per lookup that needs the
   * platform, when the lookup names its visitor. None: no share is kept (agents, tests of the service alone).
   */
  share?: KeyedLimit | undefined;
  /** Several instances: builds the shared loader from the batch and this instance's coalescer (its fallback). */
  shared?: SharedLoader | undefined;
}

/** Builds the loader every instance shares (`Backends.codeLoader`) around this instance's own coalescer. */
export type SharedLoader = (
  batch: TrackingBatch,
  local: Coalescer<TrackingResult>,
  windowMs?: number,
  now?: () => number,
) => CodeLoader;

/** Tracking that spends the store's 60 calls a minute wisely: cache, stale-while-revalidate, coalescing. */
export class TrackingService {
  private readonly coalescer: CodeLoader;
  private readonly cache: TrackingStore;
  private readonly logger: Logger;
  private readonly deadlineMs: number;
  private readonly share: KeyedLimit | undefined;

  constructor(options: TrackingServiceOptions) {
    this.cache = options.cache;
    this.share = options.share;
    this.logger = options.logger;
    this.deadlineMs = options.deadlineMs ?? TRACKING_DEADLINE_MS;
    const batch: TrackingBatch = async (codes) => {
      let results: TrackingResult[];
      try {
        ({ results } = await options.client.tracking(codes));
      } catch (error) {
        // One line per failed upstream call, not one per code that waited on it.
        this.logFailure(error, codes.length);
        throw error;
      }
      const byCode = new Map(results.map((result) => [result.code, result]));
      await Promise.all([...byCode].map(([code, result]) => this.cache.set(code, result)));
      return byCode;
    };
    const local = new Coalescer<TrackingResult>({
      batch,
      ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
      ...(options.schedule ? { schedule: options.schedule } : {}),
      ...(options.coalesceNow ? { now: options.coalesceNow } : {}),
    });
    this.coalescer = options.shared
      ? options.shared(batch, local, options.windowMs, options.coalesceNow)
      : local;
  }

  /**
   * One result per code, in the order given (duplicates answered again). Codes are checked first (`normalizeCodes`):
   * a code the platform would refuse never joins a shared batch, so no caller can make the batch fail for others.
   * With a `visitor` (its address key), a lookup that needs the platform — any code neither fresh nor revalidating in
   * the cache — first takes one of that visitor's share, else throws `ShareSpent` and sends nothing (at most 50 codes
   * a lookup: one upstream call). Answers within the deadline; throws `UpstreamError` only when a code has no answer
   * at all: fresh, revalidating or last known.
   */
  async lookup(codes: readonly string[], visitor?: string): Promise<TrackingLookupResult[]> {
    const clean = normalizeCodes(codes);
    const deadline = new Deadline(this.deadlineMs);
    try {
      // The cache may be Redis: reading it counts against the deadline too.
      const cached = await Promise.all(
        clean.map((code) => Promise.race([this.cache.get(code), deadline.passed]).catch(() => undefined)),
      );
      const needsPlatform = cached.some((entry) => (entry?.freshness ?? 'expired') === 'expired');
      if (visitor !== undefined && this.share && needsPlatform) {
        const decision = await this.share.take(visitor);
        if (!decision.ok) throw new ShareSpent(decision.retryAfterSeconds);
      }
      return await Promise.all(clean.map((code, i) => this.one(code, deadline, cached[i])));
    } finally {
      deadline.clear();
    }
  }

  private async one(code: string, deadline: Deadline, cached?: Cached): Promise<TrackingLookupResult> {
    if (cached?.freshness === 'fresh') return cached.result;
    if (cached?.freshness === 'revalidate') {
      // Logged once per batch by the batch itself.
      this.coalescer.load(code).catch(() => undefined);
      return cached.result;
    }
    try {
      return await Promise.race([this.coalescer.load(code), deadline.passed]);
    } catch (error) {
      if (cached) return { ...cached.result, stale: true };
      throw isUpstreamError(error) ? error : new UpstreamError('unavailable', 'tracking lookup failed');
    }
  }

  private logFailure(error: unknown, codes: number): void {
    if (isUpstreamError(error) && error.failure === 'config') {
      // The merchant must act (key, plan, store): an error, not a warning.
      this.logger.error(
        { status: error.status, code: error.code, codes },
        'tracking: the platform refused the BFF; check SHIPPING_SECRET_KEY and the plan',
      );
      return;
    }
    this.logger.warn({ error: messageOf(error), codes }, 'tracking: upstream lookup failed');
  }
}

/** A promise that rejects when the lookup's time is up (the upstream call itself goes on and fills the cache). */
class Deadline {
  readonly passed: Promise<never>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.passed = new Promise<never>((_resolve, reject) => {
      this.timer = setTimeout(
        () => reject(new UpstreamError('unavailable', `no upstream answer within ${ms} ms`)),
        ms,
      );
    });
    this.passed.catch(() => undefined);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
