import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.ts';

/** A scheduler and clock the test runs by hand: the injected time of the window. */
function manualSchedule() {
  let time = 0;
  const queue: { due: number; fn: () => void }[] = [];
  /** Moves the clock on by `ms`, running each timer due by then (and those they set that are due too). */
  const advance = (ms: number) => {
    time += ms;
    for (let next = queue.findIndex((t) => t.due <= time); next !== -1; ) {
      const [timer] = queue.splice(next, 1);
      timer?.fn();
      next = queue.findIndex((t) => t.due <= time);
    }
  };
  return {
    schedule: (fn: () => void, ms: number) => void queue.push({ due: time + ms, fn }),
    now: () => time,
    advance,
    /** The window passes: the clock moves to the last timer set so far, and those timers run. */
    tick: () => advance(Math.max(0, ...queue.map((t) => t.due - time))),
    /** Windows pass until no timer is left, the batches in flight answered between them. */
    async settle() {
      while (queue.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        advance(Math.max(0, ...queue.map((t) => t.due - time)));
      }
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
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
    const keys = Array.from({ length: 50 }, (_, i) => `K${i}`);
    const values = await Promise.all(keys.map((key) => coalescer.load(key)));
    expect(calls).toEqual([keys]);
    expect(values[7]).toBe('value:K7');
  });

  it('waits for the window with fewer than 50, then sends them together', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
    const pending = Promise.all(['A', 'B', 'C'].map((key) => coalescer.load(key)));
    expect(calls).toEqual([]);
    clock.tick();
    await pending;
    expect(calls).toEqual([['A', 'B', 'C']]);
  });

  it('opens one window per batch, not one per load, and a load after a send waits a whole new window', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
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

  it('splits 120 codes into 50 + 50 + 20, one call in the air at a time', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
    const pending = Promise.all(Array.from({ length: 120 }, (_, i) => coalescer.load(`K${i}`)));
    clock.tick();
    // One call in the air: the next 50 wait for its answer, and the 20 for theirs (their callers' next codes may fill
    // the batch).
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    await clock.settle();
    await pending;
    expect(calls.map((keys) => keys.length)).toEqual([50, 50, 20]);
  });

  it('keeps one flight per code: the same code from many callers is asked once', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
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
      now: clock.now,
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
      now: clock.now,
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
      now: clock.now,
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

  it('lets a partial batch wait its own window after full ones: 50, then 30 + 20 as one call, not 50, 30, 20', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now, windowMs: 50 });
    const loads: Promise<string>[] = [coalescer.load('K0')];
    clock.advance(5);
    for (let i = 1; i < 50; i++) loads.push(coalescer.load(`K${i}`));
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    clock.advance(25);
    for (let i = 50; i < 80; i++) loads.push(coalescer.load(`K${i}`));
    // The window opened for K0 ends here; K50, the oldest left, has waited 20 ms of its 50.
    clock.advance(20);
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    clock.advance(20);
    for (let i = 80; i < 100; i++) loads.push(coalescer.load(`K${i}`));
    await Promise.all(loads);
    expect(calls.map((keys) => keys.length)).toEqual([50, 50]);
  });

  it('keeps a partial batch waiting while codes still arrive, at most 40 windows', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now, windowMs: 50 });
    const loads: Promise<string>[] = [];
    // A code every 5 ms: a partial batch whose codes keep coming waits for more, up to 2 s.
    for (let i = 0; i < 40; i++) {
      loads.push(coalescer.load(`K${i}`));
      clock.advance(5);
    }
    expect(calls.map((keys) => keys.length)).toEqual([]);
    for (let i = 40; i < 60; i++) {
      loads.push(coalescer.load(`K${i}`));
      clock.advance(5);
    }
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    await clock.settle();
    await Promise.all(loads);
    expect(calls.map((keys) => keys.length)).toEqual([50, 10]);
    // Codes that never stop coming (one every 45 ms): the oldest leaves after 40 windows, with those come by then.
    const trickle = new Coalescer({ batch, schedule: clock.schedule, now: clock.now, windowMs: 50 });
    const more: Promise<string>[] = [];
    for (let i = 0; i < 49; i++) {
      more.push(trickle.load(`T${i}`));
      clock.advance(45);
    }
    expect(calls.map((keys) => keys.length)).toEqual([50, 10, 45]);
    await clock.settle();
    await Promise.all(more);
  });

  it('sends a partial batch once its oldest code has waited the window and no code came for a window', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now, windowMs: 50 });
    const first = coalescer.load('A');
    clock.advance(30);
    const second = coalescer.load('B');
    clock.advance(20);
    expect(calls).toEqual([]);
    clock.advance(29);
    expect(calls).toEqual([]);
    clock.advance(1);
    expect(await Promise.all([first, second])).toEqual(['value:A', 'value:B']);
    expect(calls).toEqual([['A', 'B']]);
  });

  it('asks for at most 50 codes per call by default, across many callers', async () => {
    const { calls, batch } = recorder();
    const clock = manualSchedule();
    const coalescer = new Coalescer({ batch, schedule: clock.schedule, now: clock.now });
    const loads = Promise.all(Array.from({ length: 51 }, (_, i) => coalescer.load(`K${i}`)));
    expect(calls.map((keys) => keys.length)).toEqual([50]);
    await clock.settle();
    await loads;
    expect(calls.map((keys) => keys.length)).toEqual([50, 1]);
  });
});
