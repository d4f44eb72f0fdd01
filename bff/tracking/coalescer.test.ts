import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.ts';

/** A scheduler the test runs by hand: the injected clock of the window. */
function manualSchedule() {
  const queue: (() => void)[] = [];
  return {
    schedule: (fn: () => void) => void queue.push(fn),
    tick: () => {
      for (const fn of queue.splice(0)) fn();
    },
    queue,
  };
}

function recorder() {
  const calls: string[][] = [];
  const batch = async (keys: string[]) => {
    calls.push(keys);
    return new Map(keys.map((key) => [key, `value:${key}`]));
  };
  return { calls, batch };
}

describe('Coalescer', () => {
  it('sends one upstream call for 50 codes requested within the window', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const keys = Array.from({ length: 50 }, (_, i) => `K${i}`);
    const values = await Promise.all(keys.map((key) => coalescer.load(key)));
    expect(calls).toEqual([keys]);
    expect(values[7]).toBe('value:K7');
  });

  it('waits for the window with fewer than 50, then sends them together', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const pending = Promise.all(['A', 'B', 'C'].map((key) => coalescer.load(key)));
    expect(calls).toEqual([]);
    clock.tick();
    await pending;
    expect(calls).toEqual([['A', 'B', 'C']]);
  });

  it('splits 120 codes into 50 + 50 + 20', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const pending = Promise.all(Array.from({ length: 120 }, (_, i) => coalescer.load(`K${i}`)));
    clock.tick();
    await pending;
    expect(calls.map((keys) => keys.length)).toEqual([50, 50, 20]);
  });

  it('keeps one flight per code: the same code from many callers is asked once', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const pending = Promise.all([
      coalescer.load('A'),
      coalescer.load('A'),
      coalescer.load('B'),
      coalescer.load('A'),
    ]);
    clock.tick();
    expect(await pending).toEqual(['value:A', 'value:A', 'value:B', 'value:A']);
    expect(calls).toEqual([['A', 'B']]);
  });

  it('rejects every caller of a failed batch, and asks again next time', async () => {
    let fail = true;
    const calls: string[][] = [];
    const clock = manualSchedule();
    const coalescer = new Coalescer<string>({
      batch: async (keys) => {
        calls.push(keys);
        if (fail) throw new Error('upstream down');
        return new Map(keys.map((key) => [key, key]));
      },
      schedule: clock.schedule,
    });
    const first = Promise.allSettled([coalescer.load('A'), coalescer.load('B')]);
    clock.tick();
    expect((await first).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    const second = coalescer.load('A');
    clock.tick();
    expect(await second).toBe('A');
    expect(calls).toHaveLength(2);
  });
});
