import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { validatorsPlugin } from '../../widget/validators/plugin.ts';
import { TEST_TAGS } from '../test-tags.ts';
import { reusedForkPool } from './reused-fork.ts';

/**
 * The vitest config Stryker runs for one module: only the test files that module lists in `modules.ts`
 * (passed by `run.ts` in MUTATION_TESTS), so a mutant is judged by the tests that exercise its module.
 */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);
/** A test that waits on real time is left out (scripts/test-tags.ts). Vitest 5 reads `tagsFilter` from the config
 * too, though its type lists it only among the command-line options. */
const withoutSlowTests = { tagsFilter: ['!slow'] };

const reuseFork = process.env.MUTATION_REUSE_FORK === '1';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  // run.ts sets MUTATION_REUSE_FORK for the pass whose mutants are switched on at run time (reused-fork.ts)
  // the widgets' validators exist only as the plugin's output (`widget/validators/generated.js`), as in vite.config.ts
  plugins: [validatorsPlugin(), ...(reuseFork ? [reusedForkPool()] : [])],
  test: {
    include: tests.length > 0 ? tests : ['no-module-selected'],
    // one fork per worker for all files: a fresh process per file costs more than most mutants' tests
    isolate: false,
    // A mutant that makes a test hang fails it here, in 4 s, as killed: Stryker's own timeout (run.ts) is longer,
    // because reaching it costs a restart of the test runner. Tests that need longer are tagged slow (left out).
    // …or the module's own, shorter one (modules.ts `testTimeoutMs`)
    testTimeout: Number(process.env.MUTATION_TEST_TIMEOUT) || 4_000,
    hookTimeout: 60_000,
    // the same fixed fast-check seed as `npm test` (testing/fast-check-setup.ts): a mutant meets the same cases
    setupFiles: [
      'testing/fast-check-setup.ts',
      ...(reuseFork ? ['scripts/mutation/reused-fork-setup.ts'] : []),
    ],
    tags: TEST_TAGS,
    ...withoutSlowTests,
  },
});
