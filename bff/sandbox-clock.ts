import * as z from 'zod/mini';

const ClockSchema = z.object({ now: z.number(), speed: z.number().check(z.gte(0)) });

export interface SandboxClockOptions {
  /** How often the sandbox is asked (real ms; default 250). Between two readings the clock runs at the speed read. */
  pollMs?: number;
  fetch?: typeof fetch;
  /** The real clock (tests). */
  realNow?: () => number;
}

/**
 * The sandbox's carrier clock, followed by a BFF started with `BFF_TEST_CLOCK=sandbox` (docs/promise.md, "One clock
 * for tests and demos"): `GET <SHIPPING_API_URL>/_sandbox/clock` → `{ now, speed }`, read at start (a platform that
 * does not answer it is not a sandbox, and the BFF does not start) and then every `pollMs`; in between, the time runs
 * on at the speed read. Never earlier than a time it already answered, so a stall or an expiry it saw cannot un-happen.
 */
export class SandboxClock {
  private reading: { now: number; speed: number; at: number };
  private last = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly url: string;
  private readonly options: Required<SandboxClockOptions>;

  private constructor(
    url: string,
    first: { now: number; speed: number },
    options: Required<SandboxClockOptions>,
  ) {
    this.url = url;
    this.options = options;
    this.reading = { ...first, at: options.realNow() };
  }

  /** Reads the sandbox's clock once and follows it from then on; throws when the platform is not a sandbox. */
  static async connect(apiUrl: string, options: SandboxClockOptions = {}): Promise<SandboxClock> {
    const settings = { pollMs: 250, fetch: globalThis.fetch, realNow: Date.now, ...options };
    const url = `${apiUrl.replace(/\/+$/, '')}/_sandbox/clock`;
    const first = await read(url, settings.fetch).catch((error: unknown) => {
      throw new Error(
        `BFF_TEST_CLOCK=sandbox: ${url} did not tell the time (${error instanceof Error ? error.message : String(error)}); the test clock needs the sandbox (npm run sandbox)`,
      );
    });
    const clock = new SandboxClock(url, first, settings);
    clock.timer = setInterval(() => void clock.poll(), settings.pollMs);
    clock.timer.unref();
    return clock;
  }

  /** The sandbox's time now (epoch ms). */
  readonly now = (): number => {
    const { now, speed, at } = this.reading;
    const time = now + (this.options.realNow() - at) * speed;
    this.last = Math.max(this.last, time);
    return this.last;
  };

  /** Reads the sandbox's clock now (the poll does it on its own; a test may not want to wait for it). */
  async poll(): Promise<void> {
    try {
      const reading = await read(this.url, this.options.fetch);
      this.reading = { ...reading, at: this.options.realNow() };
    } catch {
      // The sandbox did not answer this time: the clock runs on at the last speed read.
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

async function read(url: string, fetcher: typeof fetch): Promise<{ now: number; speed: number }> {
  const res = await fetcher(url, { signal: AbortSignal.timeout(2_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return ClockSchema.parse(await res.json());
}
