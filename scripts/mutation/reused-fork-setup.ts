/**
 * A setup file for runs in the reused fork (reused-fork.ts): the mutant of the previous run is still switched on
 * when the next run imports its test files, and Stryker switches the new one on only in `beforeAll`. A fresh process
 * imports them with no mutant on; so does this one once the switch is cleared here, before any test file loads.
 * `__stryker__` is the namespace Stryker's instrumented code reads (INSTRUMENTER_CONSTANTS.NAMESPACE).
 */
const strykerState = (globalThis as { __stryker__?: { activeMutant?: string | undefined } }).__stryker__;
if (strykerState) strykerState.activeMutant = undefined;
