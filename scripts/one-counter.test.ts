import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productFilesOnDisk } from './product-lines.ts';

// One windowed counter (issue 49): hits per key in a window are counted by `shared/windowed-counter.ts`'s port and its
// three implementations; every limit, throttle, budget and share is a policy over it. This test lists the exported
// classes that count in windows, in the product's code (scripts/product-lines.ts), and fails when one more appears: a
// new limit is a `CounterPolicy`, not a counter.

const ROOT = join(import.meta.dirname, '..');

/** The one counter: the port's implementations. */
const THE_COUNTER = ['MemoryCounter', 'RedisCounter', 'SqlCounter'];

/** Policies over it: they name keys and limits and call the counter, counting nothing themselves. */
const POLICIES: Readonly<Record<string, string>> = {
  CounterPolicy: 'one limit for the keys of one name',
  RouteBudget: "a lane's limit per upstream route",
  QuoteShares: "a CounterPolicy per caller kind, and the open lane's",
};

/**
 * Counters not yet moved onto the port, each with why. Empty: the last were the login failures' three stores, now the
 * policies of `LoginGuard` (shared/oauth/login-guard.ts). The last test fails when a listed one is gone, so the list
 * only shrinks.
 */
const NOT_YET_MOVED: Readonly<Record<string, string>> = {};

/** The signs of counting hits in a window: a window's length or end in the class, or a Redis script that trims or expires in its file. */
const WINDOW = /seconds \* 1000|windowMs|endsAt|\buntil|retryAfter/;
const REDIS_WINDOW = /ZREMRANGEBYSCORE|PEXPIRE|PTTL|'INCR'|INCRBY/;
/** A method that counts one more hit (or failure) against a limit. */
const COUNTING_METHOD = /^ {2}(?:async )?(?:take|reserve|consume|add)\(/m;

/** Exported classes that count in windows, by name, with their file. */
function windowedCounters(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of productFilesOnDisk()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const classes = text.split(/^(?=export class )/m).slice(1);
    for (const body of classes) {
      const name = /^export class (\w+)/.exec(body)?.[1];
      if (!name) continue;
      const end = body.search(/^}/m);
      const own = end < 0 ? body : body.slice(0, end);
      if (COUNTING_METHOD.test(own) && (WINDOW.test(own) || REDIS_WINDOW.test(text))) found.set(name, file);
    }
  }
  return found;
}

describe('one windowed counter', () => {
  const found = windowedCounters();

  it('finds the counter itself, so the search below can fail', () => {
    for (const name of THE_COUNTER) expect(found.has(name), name).toBe(true);
  });

  it('has no second implementation: every class that counts in windows is the counter, a policy, or listed', () => {
    const known = new Set([...THE_COUNTER, ...Object.keys(POLICIES), ...Object.keys(NOT_YET_MOVED)]);
    const unknown = [...found]
      .filter(([name]) => !known.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(
      unknown,
      'a new windowed counter: make it a CounterPolicy over shared/windowed-counter.ts',
    ).toEqual([]);
  });

  it('lists no counter that is gone (the list of those not yet moved only shrinks)', () => {
    const gone = Object.keys(NOT_YET_MOVED).filter((name) => !found.has(name));
    expect(gone).toEqual([]);
  });
});
