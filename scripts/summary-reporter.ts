import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** The closing line's counts (ARCHITECTURE.md, "Tests and their last line"). */
export interface Summary {
  passed: number;
  /** Failed tests, plus every file or suite that failed to load or whose hooks failed, plus every unhandled error. */
  failed: number;
  skipped: number;
}

/**
 * What a run counts. A test file that never ran its tests — its import threw, its `beforeAll` failed (its tests then
 * read as skipped), its `afterAll` failed after they passed — counts one failure per file or suite where that
 * happened; an unhandled error (a rejection nobody awaited, an error thrown in a timer) counts one each.
 */
export function summarize(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
): Summary {
  const counts: Summary = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') counts.failed += 1;
      else counts.skipped += 1;
    }
    const broken = [module, ...module.children.allSuites()].filter((entity) => entity.errors().length > 0);
    // A module whose collection failed may report no error of its own yet a failed state.
    if (broken.length === 0 && module.state() === 'failed' && !module.children.size) counts.failed += 1;
    counts.failed += broken.length;
  }
  return counts;
}

export function closingLine(summary: Summary): string {
  return `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
}

/**
 * Ends the run with one plain line, `N passed, M failed, K skipped`, that any CI can read; M is never 0 when something
 * went wrong (`summarize`). With `SUMMARY_FILE` set it also writes the counts there as JSON, for `scripts/test.ts`,
 * which prints the whole `npm test`'s closing line after the typecheck and lint.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const summary = summarize(testModules, unhandledErrors);
    if (summary.failed > 0 && !process.exitCode) process.exitCode = 1;
    process.stdout.write(`\n${closingLine(summary)}\n`);
    const file = process.env.SUMMARY_FILE;
    if (file) writeFileSync(file, `${JSON.stringify(summary)}\n`);
  }
}
