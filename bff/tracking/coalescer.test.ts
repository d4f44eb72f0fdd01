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

  it('opens one window per batch, not one per load, and a load after a send waits a whole new window', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const first = Promise.all(['A', 'B', 'C'].map((key) => coalescer.load(key)));
    expect(clock.queue).toHaveLength(1);
    clock.tick();
    await first;
    const late = coalescer.load('D');
    expect(clock.queue).toHaveLength(1);
    expect(calls).toEqual([['A', 'B', 'C']]);
    clock.tick();
    await late;
    expect(calls).toEqual([['A', 'B', 'C'], ['D']]);
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

  it('forgets a loaded code once answered, so the next load asks upstream for a new value', async () => {
    let version = 0;
    const calls: string[][] = [];
    const clock = manualSchedule();
    const coalescer = new Coalescer<string>({
      batch: async (keys) => {
        calls.push(keys);
        version += 1;
        return new Map(keys.map((key) => [key, `${key}@${version}`]));
      },
      schedule: clock.schedule,
    });
    const first = coalescer.load('A');
    clock.tick();
    expect(await first).toBe('A@1');
    const second = coalescer.load('A');
    clock.tick();
    expect(await second).toBe('A@2');
    expect(calls).toEqual([['A'], ['A']]);
  });

  it('rejects a code the upstream answer leaves out, and still answers the others of its batch', async () => {
    const clock = manualSchedule();
    const coalescer = new Coalescer<string>({
      batch: async (keys) => new Map(keys.filter((key) => key !== 'B').map((key) => [key, key])),
      schedule: clock.schedule,
    });
    const loads = Promise.allSettled([coalescer.load('A'), coalescer.load('B'), coalescer.load('C')]);
    clock.tick();
    const settled = await loads;
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(String((settled[1] as PromiseRejectedResult).reason.message)).toContain('B');
  });

  it('waits its window on the real timer when no scheduler is given', async () => {
    const { calls, batch } = recorder();
    const coalescer = new Coalescer({ batch, windowMs: 30 });
    const loads = Promise.all([coalescer.load('A'), coalescer.load('B')]);
    await Promise.resolve();
    expect(calls).toEqual([]);
    expect(await loads).toEqual(['value:A', 'value:B']);
    expect(calls).toEqual([['A', 'B']]);
  });

  it('asks for at most 50 codes per call by default, across many callers', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule });
    const loads = Promise.all(Array.from({ length: 51 }, (_, i) => coalescer.load(`K${i}`)));
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    clock.tick();
    await loads;
    expect(calls.map((keys) => keys.length)).toEqual([50, 1]);
  });
});
