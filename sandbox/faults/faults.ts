import * as z from 'zod/mini';
import { TOOL_NAMES } from '../../shared/tools.ts';

/** `POST /_sandbox/faults` (sandbox/README.md, "Control API"). */
export const FaultSchema = z.strictObject({
  target: z.enum(['rates', 'tracking', ...TOOL_NAMES.map((name) => `mcp:${name}` as const)]),
  mode: z.enum(['error502', 'latency', 'reset', 'drop_after_commit']),
  latencyMs: z.optional(z.number().check(z.gte(0), z.lte(60_000))),
  times: z._default(z.int().check(z.gte(1)), 1),
  probability: z.optional(z.number().check(z.gte(0), z.lte(1))),
});
export type Fault = z.infer<typeof FaultSchema>;

/**
 * Injected failures: each fires `times` times (with `probability` each call), then is gone. Faults on one target
 * combine: each one draws its own chance on every call, so `latency` and `drop_after_commit` on `mcp:generate_label`
 * both fire, latency first (see `takeAll`).
 */
export class Faults {
  private faults: Fault[] = [];
  private readonly random: () => number;
  /** How many times each `target mode` fired since the last reset. */
  fired: Record<string, number> = {};

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  add(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
    this.fired = {};
  }

  /**
   * The faults that fire on this call to `target`, each spent by firing: every fault of the target draws its own
   * `probability` independently. Ordered so a `latency` delays first and at most one of the faults that end the call
   * (`error502`, `reset`, `drop_after_commit`) is applied: the first one listed that fired.
   */
  takeAll(target: string): Fault[] {
    const fired: Fault[] = [];
    for (const fault of this.faults.filter((candidate) => candidate.target === target)) {
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      if (fault.mode !== 'latency' && fired.some((other) => other.mode !== 'latency')) continue;
      fault.times -= 1;
      const key = `${fault.target} ${fault.mode}`;
      this.fired[key] = (this.fired[key] ?? 0) + 1;
      fired.push(fault);
    }
    this.faults = this.faults.filter((candidate) => candidate.times > 0);
    return fired.sort((a, b) => Number(b.mode === 'latency') - Number(a.mode === 'latency'));
  }
}
