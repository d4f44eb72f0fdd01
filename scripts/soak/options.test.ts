import { describe, expect, it } from 'vitest';
import { parseSoakOptions, SoakUsageError } from './options.ts';

describe('parseSoakOptions', () => {
  it('runs npm test 10 times without stress by default', () => {
    expect(parseSoakOptions([])).toEqual({
      runs: 10,
      stress: false,
      command: 'npm test',
      keep: false,
      help: false,
    });
  });

  it('reads --runs, --stress, --command and --keep, in any order and in the --name=value form', () => {
    expect(
      parseSoakOptions(['--stress', '--command', 'npx vitest run shared/cep.test.ts', '--runs=3', '--keep']),
    ).toEqual({
      runs: 3,
      stress: true,
      command: 'npx vitest run shared/cep.test.ts',
      keep: true,
      help: false,
    });
  });

  it.each([['0'], ['-1'], ['2.5'], ['ten'], ['1001'], ['010'], ['']])(
    'refuses --runs %j, naming the option',
    (runs) => {
      expect(() => parseSoakOptions([`--runs=${runs}`])).toThrow(SoakUsageError);
      expect(() => parseSoakOptions([`--runs=${runs}`])).toThrow(
        /--runs must be a whole number from 1 to 1000/,
      );
    },
  );

  it('accepts the bounds of --runs', () => {
    expect(parseSoakOptions(['--runs', '1']).runs).toBe(1);
    expect(parseSoakOptions(['--runs', '1000']).runs).toBe(1000);
  });

  it('refuses an unknown option, a stray argument, a missing value and an empty command', () => {
    expect(() => parseSoakOptions(['--runz', '3'])).toThrow(SoakUsageError);
    expect(() => parseSoakOptions(['10'])).toThrow(SoakUsageError);
    expect(() => parseSoakOptions(['--runs'])).toThrow(SoakUsageError);
    expect(() => parseSoakOptions(['--runs', '-1'])).toThrow(/--runs/);
    expect(() => parseSoakOptions(['--command', '  '])).toThrow(/--command must not be empty/);
    expect(() => parseSoakOptions(['--stress=yes'])).toThrow(SoakUsageError);
  });

  it('reads --help and -h', () => {
    expect(parseSoakOptions(['--help']).help).toBe(true);
    expect(parseSoakOptions(['-h']).help).toBe(true);
  });
});
