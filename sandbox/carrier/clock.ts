export const HOUR_MS = 3_600_000;

/**
 * The carrier's simulated time: the real (or injected) clock, running `speed` times as fast from the moment the speed
 * was set, plus what `POST /_sandbox/advance` added. `GET /_sandbox/clock` tells it, so a BFF started with
 * `BFF_TEST_CLOCK=sandbox` follows it (docs/promise.md).
 */
export class CarrierClock {
  private offsetMs = 0;
  private speed: number;
  private since: number;
  private readonly now: () => number;
  private readonly initialSpeed: number;

  constructor(now: () => number = Date.now, speed = 1) {
    this.now = now;
    this.speed = speed;
    this.initialSpeed = speed;
    this.since = now();
  }

  time(): number {
    const real = this.now();
    return real + this.offsetMs + (real - this.since) * (this.speed - 1);
  }

  /** Simulated milliseconds per real millisecond (1: real time; 0: stopped). */
  get rate(): number {
    return this.speed;
  }

  advance(hours: number): void {
    this.offsetMs += hours * HOUR_MS;
  }

  /** Runs the clock `speed` times as fast from now on, without a jump. */
  setSpeed(speed: number): void {
    const time = this.time();
    this.since = this.now();
    this.speed = speed;
    this.offsetMs = time - this.since;
  }

  reset(): void {
    this.offsetMs = 0;
    this.speed = this.initialSpeed;
    this.since = this.now();
  }
}

/** The carrier's local time (Brasília, UTC−3, no daylight saving since 2019), written without an offset. */
export function formatCarrierTime(ms: number): string {
  return new Date(ms - 3 * HOUR_MS).toISOString().slice(0, 19);
}
