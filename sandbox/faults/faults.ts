import * as z from 'zod/mini';
import { TOOL_NAMES } from '../../shared/tools.ts';

/** `POST /_sandbox/faults` (ARCHITECTURE.md). */
export const FaultSchema = z.strictObject({
  target: z.enum(['rates', 'tracking', ...TOOL_NAMES.map((name) => `mcp:${name}` as const)]),
  mode: z.enum(['error502', 'latency', 'reset', 'drop_after_commit']),
  latencyMs: z.optional(z.number().check(z.gte(0), z.lte(60_000))),
  times: z._default(z.int().check(z.gte(1)), 1),
  probability: z.optional(z.number().check(z.gte(0), z.lte(1))),
});
export type Fault = z.infer<typeof FaultSchema>;
export type FaultTarget = Fault['target'];

/** Injected failures: each fires `times` times (with `probability` each call), then is gone. */
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

  /** The fault that fires on this call to `target`, if any; it is spent by firing. */
  take(target: string): Fault | undefined {
    const fault = this.faults.find((candidate) => candidate.target === target);
    if (!fault) return undefined;
    if (fault.probability !== undefined && this.random() >= fault.probability) return undefined;
    fault.times -= 1;
    const key = `${fault.target} ${fault.mode}`;
    this.fired[key] = (this.fired[key] ?? 0) + 1;
    if (fault.times <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
    return fault;
  }
}
