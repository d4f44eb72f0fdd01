import { describe, expect, it } from 'vitest';
import { failedTests } from './failures.ts';

const ESC = '\u001b';

/** vitest 5's default reporter (as captured from a real run, colours on): two files, one failing to load. */
const COLOURED = [
  `${ESC}[1m${ESC}[30m${ESC}[46m RUN ${ESC}[49m${ESC}[39m${ESC}[22m ${ESC}[36mv5.1.1 ${ESC}[39m${ESC}[90m/work/repo${ESC}[39m`,
  '',
  ` ${ESC}[31m❯${ESC}[39m scripts/a.test.ts ${ESC}[2m(${ESC}[22m${ESC}[2m4 tests${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[31m3 failed${ESC}[39m${ESC}[2m)${ESC}[22m`,
  `${ESC}[31m       ${ESC}[31m×${ESC}[31m fails with a > in its name${ESC}[39m${ESC}[32m 15${ESC}[2mms${ESC}[22m${ESC}[39m`,
  ` ${ESC}[31m❯${ESC}[39m scripts/b.test.ts ${ESC}[2m(${ESC}[22m${ESC}[2m0 test${ESC}[22m${ESC}[2m)${ESC}[22m`,
  '',
  `${ESC}[31m⎯⎯⎯⎯⎯⎯${ESC}[39m${ESC}[1m${ESC}[41m Failed Suites 1 ${ESC}[49m${ESC}[22m${ESC}[31m⎯⎯⎯⎯⎯⎯⎯${ESC}[39m`,
  '',
  `${ESC}[41m${ESC}[1m FAIL ${ESC}[22m${ESC}[49m scripts/b.test.ts${ESC}[2m [ scripts/b.test.ts ]${ESC}[22m`,
  `${ESC}[31m${ESC}[1mError${ESC}[22m: cannot import${ESC}[39m`,
  '',
  `${ESC}[31m⎯⎯⎯⎯⎯⎯⎯${ESC}[39m${ESC}[1m${ESC}[41m Failed Tests 3 ${ESC}[49m${ESC}[22m${ESC}[31m⎯⎯⎯⎯⎯⎯⎯${ESC}[39m`,
  '',
  `${ESC}[41m${ESC}[1m FAIL ${ESC}[22m${ESC}[49m scripts/a.test.ts${ESC}[2m > ${ESC}[22mouter${ESC}[2m > ${ESC}[22minner${ESC}[2m > ${ESC}[22mfails with a > in its name`,
  `${ESC}[31m${ESC}[1mAssertionError${ESC}[22m: expected 1 to be 2 // Object.is equality${ESC}[39m`,
  `    ${ESC}[90m  4|${ESC}[39m     it('fails with a > in its name', () => expect(1).toBe(2));`,
  `${ESC}[41m${ESC}[1m FAIL ${ESC}[22m${ESC}[49m scripts/a.test.ts${ESC}[2m > ${ESC}[22mouter${ESC}[2m > ${ESC}[22mfails at the describe level`,
  `${ESC}[31m${ESC}[1mError${ESC}[22m: boom${ESC}[39m`,
  `${ESC}[41m${ESC}[1m FAIL ${ESC}[22m${ESC}[49m scripts/a.test.ts${ESC}[2m > ${ESC}[22mtop-level failure`,
  '',
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[31m2 failed${ESC}[39m${ESC}[22m${ESC}[90m (2)${ESC}[39m`,
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[31m3 failed${ESC}[39m${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[1m${ESC}[32m1 passed${ESC}[39m${ESC}[22m${ESC}[90m (4)${ESC}[39m`,
  '',
  '1 passed, 4 failed, 0 skipped',
].join('\n');

/** The same reporter without colours, for a run whose only failure is an unhandled rejection. */
const UNHANDLED = `
 RUN  v5.1.1 /work/repo

 ✓ scripts/c.test.ts (1 test) 63ms
⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯

Vitest caught 1 unhandled error during the test run.
This might cause false positive tests. Resolve unhandled errors to make sure your tests are not affected.

⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯
Error: late
 ❯ scripts/c.test.ts:3:23

This error originated in "scripts/c.test.ts" test file. It doesn't mean the error was thrown inside the file itself, but while it was running.
The last test to run before this error was "leaves a rejection behind". This means either:
- the error was thrown while Vitest was running this test, or
⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 passed (1)
      Tests  1 passed (1)
     Errors  1 error
`;

describe('failedTests', () => {
  it('names each failing test of the summary once, with its file and describe blocks, colours stripped', () => {
    expect(failedTests(COLOURED)).toEqual([
      'scripts/b.test.ts (the whole file)',
      'scripts/a.test.ts > outer > inner > fails with a > in its name',
      'scripts/a.test.ts > outer > fails at the describe level',
      'scripts/a.test.ts > top-level failure',
    ]);
  });

  it('reads the same output without colours, and with Windows line ends', () => {
    const plain = COLOURED.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '');
    expect(failedTests(plain)).toEqual(failedTests(COLOURED));
    expect(failedTests(plain.replaceAll('\n', '\r\n'))).toEqual(failedTests(COLOURED));
  });

  it('names a test that failed twice in one output once (vitest may print it per project)', () => {
    const twice = `${COLOURED}\n FAIL  scripts/a.test.ts > top-level failure\n`;
    expect(failedTests(twice).filter((name) => name.endsWith('top-level failure'))).toHaveLength(1);
  });

  it('names an unhandled error by the file and the last test vitest reports for it', () => {
    expect(failedTests(UNHANDLED)).toEqual([
      'scripts/c.test.ts > leaves a rejection behind (unhandled error)',
    ]);
  });

  it('still says there was an unhandled error when vitest names no file', () => {
    const bare = '⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯\n\nVitest caught 1 unhandled error during the test run.\n';
    expect(failedTests(bare)).toEqual(['unhandled error (see the log)']);
  });

  it('names nothing for a passing run, for a typecheck failure, or for a test whose name merely contains FAIL', () => {
    expect(failedTests(' ✓ shared/cep.test.ts (12 tests) 30ms\n\n Test Files  1 passed (1)\n')).toEqual([]);
    expect(
      failedTests("shared/cep.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."),
    ).toEqual([]);
    expect(failedTests('   ✓ says FAIL  when the carrier fails 3ms\n')).toEqual([]);
  });
});
