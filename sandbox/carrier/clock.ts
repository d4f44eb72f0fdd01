export const HOUR_MS = 3_600_000;

/**
 * The carrier's simulated time: the real (or injected) clock plus what `POST /_sandbox/advance` added.
 */
export class CarrierClock {
  private offsetMs = 0;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  time(): number {
    return this.now() + this.offsetMs;
  }

  advance(hours: number): void {
    this.offsetMs += hours * HOUR_MS;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/** The carrier's local time (Brasília, UTC−3, no daylight saving since 2019), written without an offset. */
export function formatCarrierTime(ms: number): string {
  return new Date(ms - 3 * HOUR_MS).toISOString().slice(0, 19);
}
