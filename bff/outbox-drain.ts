/**
 * How an outbox's sender drains it (the notifications' dispatcher, the tracking sent back to the stores): claim what
 * is due for a lease, deliver each, again until nothing is due. A call while a drain runs joins it and makes it look
 * once more before it ends, so what was written meanwhile is not left for the next tick. Any instance may drain the
 * same outbox: the claim's lease decides who sends what.
 */
export class OutboxDrain<T> {
  private readonly claim: () => Promise<readonly T[]>;
  private readonly deliver: (item: T) => Promise<void>;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(claim: () => Promise<readonly T[]>, deliver: (item: T) => Promise<void>) {
    this.claim = claim;
    this.deliver = deliver;
  }

  /** Sends everything due now; answers how many tries it made. */
  drain(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async loop(): Promise<number> {
    let tries = 0;
    for (;;) {
      this.again = false;
      const claimed = await this.claim();
      if (claimed.length === 0 && !this.again) return tries;
      tries += claimed.length;
      await Promise.all(claimed.map((item) => this.deliver(item)));
    }
  }
}
