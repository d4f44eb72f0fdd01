import { MAX_CODES } from '../../shared/limits.ts';

/** Runs `fn` after `ms`; injectable so tests control time. */
export type Schedule = (fn: () => void, ms: number) => void;

export interface CoalescerOptions<V> {
  /** One upstream call for up to `maxBatch` keys; returns a value per key. */
  batch: (keys: string[]) => Promise<Map<string, V>>;
  maxBatch?: number;
  windowMs?: number;
  schedule?: Schedule;
}

/**
 * DataLoader-style coalescing: loads asked for within a short window, from any number of callers, go upstream as
 * one call of up to `maxBatch` keys; a key already pending or in flight is never asked for twice.
 */
export class Coalescer<V> {
  private readonly options: Required<CoalescerOptions<V>>;
  private readonly inFlight = new Map<string, Promise<V>>();
  private pending: { key: string; resolve: (value: V) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(options: CoalescerOptions<V>) {
    this.options = {
      maxBatch: MAX_CODES,
      windowMs: 10,
      schedule: (fn, ms) => void setTimeout(fn, ms),
      ...options,
    };
  }

  load(key: string): Promise<V> {
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const promise = new Promise<V>((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
    });
    this.inFlight.set(key, promise);
    const forget = () => this.inFlight.delete(key);
    promise.then(forget, forget);
    if (this.pending.length >= this.options.maxBatch) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      this.options.schedule(() => {
        this.scheduled = false;
        this.flush();
      }, this.options.windowMs);
    }
    return promise;
  }

  private flush(): void {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      if (batch.length < this.options.maxBatch && this.scheduled) {
        // A partial batch waits for its window; only full batches leave early.
        this.pending.unshift(...batch);
        return;
      }
      void this.run(batch);
    }
  }

  private async run(batch: typeof this.pending): Promise<void> {
    try {
      const values = await this.options.batch(batch.map(({ key }) => key));
      for (const { key, resolve, reject } of batch) {
        const value = values.get(key);
        if (value === undefined) reject(new Error(`no value for ${key}`));
        else resolve(value);
      }
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }
}
