/**
 * The seed of every fast-check property in the suite (set by `testing/fast-check-setup.ts`, a vitest `setupFiles`
 * entry in vite.config.ts and in the mutation config): fixed by default, so `npm test` draws the same cases on every
 * run and a property fails on the commit that breaks it, not on a random day. `FC_SEED=random` draws new cases (one
 * seed per property, which its failure prints as `{ seed: …, path: … }`); `FC_SEED=<that seed>` replays it.
 * docs/testing.md, "Property tests".
 */
import fc from 'fast-check';

/** The seed `npm test` runs with when FC_SEED is not set. */
export const FIXED_SEED = 20_261_206;

/** What FC_SEED asks for: a seed, or `undefined` for a new one per property (`random`). */
export function seedFrom(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return FIXED_SEED;
  if (value === 'random') return undefined;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got "${value}"`);
  return seed;
}

/** Makes FC_SEED's seed (`seedFrom`) the one of every property and sample that names none itself. */
export function configureSeed(value: string | undefined): void {
  const seed = seedFrom(value);
  const { seed: _previous, ...others } = fc.readConfigureGlobal() ?? {};
  fc.configureGlobal(seed === undefined ? others : { ...others, seed });
}
