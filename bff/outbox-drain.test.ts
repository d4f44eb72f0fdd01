import { describe, expect, it } from 'vitest';
import { OutboxDrain } from './outbox-drain.ts';

/** An outbox in memory: `due` is what a claim takes (all of it), `sent` what was delivered, in order. */
function outbox() {
  const due: string[] = [];
  const sent: string[] = [];
  let gate: (() => void) | undefined;
  const drain = new OutboxDrain(
    async () => due.splice(0),
    async (item: string) => {
      if (item === 'slow') await new Promise<void>((resolve) => (gate = resolve));
      sent.push(item);
    },
  );
  return { due, sent, drain, open: () => gate?.() };
}

describe('OutboxDrain', () => {
  it('delivers what is due until nothing is, and answers the tries', async () => {
    const box = outbox();
    box.due.push('a', 'b');
    expect(await box.drain.drain()).toBe(2);
    expect(box.sent).toEqual(['a', 'b']);
    expect(await box.drain.drain()).toBe(0);
  });

  it('joins a drain that runs, and makes it look once more: what was written meanwhile is sent by it', async () => {
    const box = outbox();
    box.due.push('slow');
    const first = box.drain.drain();
    await Promise.resolve();
    // Written while the first drain delivers; the second call joins the first instead of starting another.
    box.due.push('late');
    const second = box.drain.drain();
    expect(second).toBe(first);
    box.open();
    expect(await first).toBe(2);
    expect(box.sent).toEqual(['slow', 'late']);
  });

  it('looks once more when called while its last claim came back empty', async () => {
    let claims = 0;
    let drain: OutboxDrain<string> | undefined;
    const sent: string[] = [];
    drain = new OutboxDrain(
      async () => {
        claims += 1;
        // The first (empty) claim: another caller arrives before the drain decides it is done.
        if (claims === 1) {
          queueMicrotask(() => void drain?.drain());
          return [];
        }
        return claims === 2 ? ['x'] : [];
      },
      async (item) => {
        sent.push(item);
      },
    );
    expect(await drain.drain()).toBe(1);
    expect(sent).toEqual(['x']);
    expect(claims).toBe(3);
  });
});
