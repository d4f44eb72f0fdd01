import { inject } from 'vitest';

/**
 * A setup file for runs in the reused fork (reused-fork.ts): the mutant of the previous run is still switched on
 * when the next run imports its test files, and Stryker switches a mutant on at run time only in `beforeAll`. A
 * fresh process imports them with no mutant on; so does this one once the switch is cleared here, before any test
 * file of the run loads. A static mutant is switched on by Stryker's own setup file, at import, and stays on.
 * `__stryker__` is the namespace Stryker's instrumented code reads (INSTRUMENTER_CONSTANTS.NAMESPACE);
 * `mutantActivation` is provided by its vitest runner.
 */
const strykerState = (globalThis as { __stryker__?: { activeMutant?: string | undefined } }).__stryker__;
const activation = (inject as (key: string) => unknown)('mutantActivation');
if (strykerState && activation !== 'static') strykerState.activeMutant = undefined;
