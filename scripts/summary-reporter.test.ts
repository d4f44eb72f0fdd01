import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const VITEST = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
const CONFIG = new URL('./fixtures/reporter/vitest.config.ts', import.meta.url).pathname;

/** Runs the fixture suite (or one file of it) under the summary reporter: its last line and exit code. */
async function fixtureRun(files = '*.fixture.ts'): Promise<{ last: string; code: number }> {
  const answer = await run(process.execPath, [VITEST, 'run', '--config', CONFIG], {
    env: { ...process.env, REPORTER_FIXTURES: files, NO_COLOR: '1' },
  }).then(
    (ok) => ({ ...ok, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const lines = answer.stdout.trimEnd().split('\n');
  return { last: lines.at(-1) ?? '', code: answer.code };
}

const CASES = [
  ['a failing test', 'failing-test.fixture.ts', '1 passed, 1 failed, 0 skipped'],
  [
    'a beforeAll that throws (its tests never run)',
    'failing-hook.fixture.ts',
    '0 passed, 1 failed, 1 skipped',
  ],
  [
    'an afterAll that throws after the tests passed',
    'failing-after.fixture.ts',
    '1 passed, 1 failed, 0 skipped',
  ],
  ['a file whose import fails', 'import-error.fixture.ts', '0 passed, 1 failed, 0 skipped'],
  ['an unhandled rejection in a passing test', 'unhandled.fixture.ts', '1 passed, 1 failed, 0 skipped'],
] as const;

describe('the closing line of a run', () => {
  // Every run at once: each is a whole vitest process, and they do not depend on each other.
  const runs = new Map<string, { last: string; code: number }>();
  beforeAll(async () => {
    const files = [...CASES.map(([, file]) => file), '*.fixture.ts', 'passing.fixture.ts'];
    const answers = await Promise.all(files.map(async (file) => [file, await fixtureRun(file)] as const));
    for (const [file, answer] of answers) runs.set(file, answer);
  });

  it.each(CASES)('counts %s in M and exits non-zero', (_what, file, line) => {
    expect(runs.get(file)?.last).toBe(line);
    expect(runs.get(file)?.code).not.toBe(0);
  });

  it('counts all of them together, and exits 0 only when nothing failed', () => {
    expect(runs.get('*.fixture.ts')).toEqual({ last: '4 passed, 5 failed, 2 skipped', code: 1 });
    expect(runs.get('passing.fixture.ts')).toEqual({ last: '1 passed, 0 failed, 1 skipped', code: 0 });
  });
});
