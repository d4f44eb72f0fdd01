import { describe, expect, it } from 'vitest';
import { type RunResult, runLine, summary } from './report.ts';

const pass = (run: number): RunResult => ({
  run,
  exitCode: 0,
  seconds: 400.04,
  failures: [],
  log: `run-${run}.log`,
});
const fail = (run: number, failures: string[], exitCode: number | null = 1): RunResult => ({
  run,
  exitCode,
  seconds: 398,
  failures,
  log: `run-${run}.log`,
});

describe('the soak report', () => {
  it('prints a passing run on one line with its time', () => {
    expect(runLine(pass(3), 10)).toBe('run  3/10  pass  400.0 s');
  });

  it('prints a failing run with its exit code, its log and each failing test on a line of its own', () => {
    expect(runLine(fail(2, ['a.test.ts > x', 'b.test.ts > y']), 10)).toBe(
      'run  2/10  FAIL  398.0 s  exit 1  run-2.log\n    a.test.ts > x\n    b.test.ts > y',
    );
    expect(runLine(fail(1, [], null), 1)).toContain('exit by signal');
    expect(runLine(fail(1, []), 1)).toContain('no failing test named (typecheck, lint or build?)');
  });

  it('sums up passes and counts each failing test over the runs, most frequent first', () => {
    const results = [
      pass(1),
      fail(2, ['flaky > one']),
      pass(3),
      fail(4, ['flaky > one', 'other > two']),
      fail(5, []),
    ];
    expect(summary(results, ' under stress (2 busy loops on 2 cores)')).toBe(
      [
        '2/5 runs passed under stress (2 busy loops on 2 cores)',
        'failing tests seen (runs):',
        '  2× flaky > one',
        '  1× other > two',
        '1 failed run(s) named no test: see their logs',
      ].join('\n'),
    );
    expect(summary([pass(1), pass(2)], '')).toBe('2/2 runs passed');
  });

  it('says which runs lost a busy loop before their end, passing or not: those were not stressed runs', () => {
    const lost = { ...pass(2), loopsEnded: 2 };
    expect(runLine(lost, 10)).toBe(
      'run  2/10  pass  400.0 s  (2 busy loop(s) ended during the run: not a stressed run)',
    );
    expect(runLine({ ...pass(1), loopsEnded: 0 }, 10)).toBe('run  1/10  pass  400.0 s');
    expect(
      summary(
        [pass(1), lost, { ...fail(3, ['x > y']), loopsEnded: 1 }],
        ' under stress (2 busy loops on 2 cores)',
      ),
    ).toBe(
      [
        '2/3 runs passed under stress (2 busy loops on 2 cores)',
        'runs 2, 3 lost a busy loop before their end: not stressed runs',
        'failing tests seen (runs):',
        '  1× x > y',
      ].join('\n'),
    );
  });
});
