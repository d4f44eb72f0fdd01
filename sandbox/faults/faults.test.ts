import { describe, expect, it } from 'vitest';
import { type Fault, Faults } from './faults.ts';

function fault(mode: Fault['mode'], extra: Partial<Fault> = {}): Fault {
  return { target: 'mcp:generate_label', mode, times: 1, ...extra };
}

describe('Faults', () => {
  it('fires latency and drop_after_commit on one target together, latency first, whatever the order listed', () => {
    const faults = new Faults(() => 0);
    faults.add(fault('drop_after_commit', { times: 2 }));
    faults.add(fault('latency', { latencyMs: 10, times: 2 }));
    expect(faults.takeAll('mcp:generate_label').map((f) => f.mode)).toEqual(['latency', 'drop_after_commit']);
    expect(faults.takeAll('mcp:generate_label').map((f) => f.mode)).toEqual(['latency', 'drop_after_commit']);
    expect(faults.takeAll('mcp:generate_label')).toEqual([]);
    expect(faults.fired).toEqual({
      'mcp:generate_label latency': 2,
      'mcp:generate_label drop_after_commit': 2,
    });
  });

  it('draws each fault its own chance, so each fires at about its own probability', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const faults = new Faults(random);
    faults.add(fault('drop_after_commit', { probability: 0.2, times: 100_000 }));
    faults.add(fault('latency', { latencyMs: 1, probability: 0.5, times: 100_000 }));
    let both = 0;
    for (let i = 0; i < 10_000; i++) if (faults.takeAll('mcp:generate_label').length === 2) both += 1;
    expect(faults.fired['mcp:generate_label drop_after_commit']).toBeGreaterThan(1_800);
    expect(faults.fired['mcp:generate_label drop_after_commit']).toBeLessThan(2_200);
    expect(faults.fired['mcp:generate_label latency']).toBeGreaterThan(4_700);
    expect(faults.fired['mcp:generate_label latency']).toBeLessThan(5_300);
    expect(both).toBeGreaterThan(800);
  });

  it('applies at most one fault that ends the call, and does not spend the others', () => {
    const faults = new Faults(() => 0);
    faults.add(fault('reset'));
    faults.add(fault('drop_after_commit'));
    expect(faults.takeAll('mcp:generate_label').map((f) => f.mode)).toEqual(['reset']);
    expect(faults.takeAll('mcp:generate_label').map((f) => f.mode)).toEqual(['drop_after_commit']);
    expect(faults.takeAll('rates')).toEqual([]);
  });
});
