import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_SEED, seedFrom } from './fast-check-seed.ts';

const SETUP = new URL('./fast-check-setup.ts', import.meta.url).pathname;

/** Five integers drawn by fast-check in a fresh Node process that loads the suite's seed setup with this FC_SEED. */
function drawInFreshProcess(fcSeed: string | undefined): string {
  const env = { ...process.env };
  if (fcSeed === undefined) delete env.FC_SEED;
  else env.FC_SEED = fcSeed;
  const script = `await import(${JSON.stringify(SETUP)});
const { default: fc } = await import('fast-check');
process.stdout.write(JSON.stringify(fc.sample(fc.integer(), 5)));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('the fast-check seed of the suite (testing/fast-check-setup.ts)', () => {
  it('is fixed when FC_SEED is not set, new with FC_SEED=random, and the given one for a number', () => {
    expect(seedFrom(undefined)).toBe(FIXED_SEED);
    expect(seedFrom('')).toBe(FIXED_SEED);
    expect(seedFrom('random')).toBeUndefined();
    expect(seedFrom('-1617281')).toBe(-1_617_281);
    expect(() => seedFrom('tomorrow')).toThrow('FC_SEED must be an integer or "random", got "tomorrow"');
  });

  it('draws the same cases in two fresh processes by default, and others with FC_SEED=random', () => {
    const first = drawInFreshProcess(undefined);
    expect(drawInFreshProcess(undefined)).toBe(first);
    expect(drawInFreshProcess('random')).not.toBe(first);
  });

  it('is the one this run uses, and a failing property prints it for FC_SEED to replay', () => {
    const seed = seedFrom(process.env.FC_SEED);
    expect(fc.readConfigureGlobal().seed).toBe(seed);
    const failing = () => fc.assert(fc.property(fc.nat(), (n) => n < 10));
    expect(failing).toThrow(seed === undefined ? /\{ seed: -?\d+, path: / : `{ seed: ${seed}, path: `);
  });
});
