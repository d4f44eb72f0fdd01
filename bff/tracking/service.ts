import type { TrackingResult } from '../../shared/tracking.ts';
import type { Logger } from '../logger.ts';
import { isUpstreamError, UpstreamError } from '../upstream/errors.ts';
import type { RestClient } from '../upstream/rest-client.ts';
import type { TrackingCache } from './cache.ts';
import { Coalescer, type Schedule } from './coalescer.ts';

/** A spec 2.3 result, marked `stale` when it is the last known answer served because the upstream failed. */
export type ServedResult = TrackingResult & { stale?: true };

export interface TrackingServiceOptions {
  client: Pick<RestClient, 'tracking'>;
  cache: TrackingCache;
  logger: Logger;
  windowMs?: number;
  schedule?: Schedule;
}

/** Tracking that spends the store's 60 calls a minute wisely: cache, stale-while-revalidate, coalescing. */
export class TrackingService {
  private readonly coalescer: Coalescer<TrackingResult>;
  private readonly cache: TrackingCache;
  private readonly logger: Logger;

  constructor(options: TrackingServiceOptions) {
    this.cache = options.cache;
    this.logger = options.logger;
    this.coalescer = new Coalescer<TrackingResult>({
      batch: async (codes) => {
        const { results } = await options.client.tracking(codes);
        const byCode = new Map(results.map((result) => [result.code, result]));
        for (const [code, result] of byCode) this.cache.set(code, result);
        return byCode;
      },
      maxBatch: 50,
      ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
      ...(options.schedule ? { schedule: options.schedule } : {}),
    });
  }

  /**
   * Results for distinct codes in the order given. Throws `UpstreamError` only when a code has no answer at all:
   * fresh, revalidating or last known.
   */
  async lookup(codes: readonly string[]): Promise<ServedResult[]> {
    return Promise.all(codes.map((code) => this.one(code)));
  }

  private async one(code: string): Promise<ServedResult> {
    const cached = this.cache.get(code);
    if (cached?.freshness === 'fresh') return cached.result;
    if (cached?.freshness === 'revalidate') {
      this.coalescer.load(code).catch((error: unknown) => this.logFailure(error, [code]));
      return cached.result;
    }
    try {
      return await this.coalescer.load(code);
    } catch (error) {
      this.logFailure(error, [code]);
      if (cached) return { ...cached.result, stale: true };
      throw isUpstreamError(error) ? error : new UpstreamError('unavailable', 'tracking lookup failed');
    }
  }

  private logFailure(error: unknown, codes: string[]): void {
    if (isUpstreamError(error) && error.failure === 'config') {
      // The merchant must act (key, plan, store): an error, not a warning.
      this.logger.error(
        { status: error.status, code: error.code, codes },
        'tracking: the platform refused the BFF; check SHIPPING_SECRET_KEY and the plan',
      );
      return;
    }
    this.logger.warn(
      { error: error instanceof Error ? error.message : String(error), codes },
      'tracking: upstream lookup failed',
    );
  }
}
