import { stripVTControlCharacters } from 'node:util';

/**
 * The failing tests named in a vitest run's output (its default reporter, with colours or without), once each, in
 * order:
 *
 * - each ` FAIL  file > describe > test` line of the summary, as `file > describe > test`;
 * - a file that failed as a whole (an import error, a failing hook: ` FAIL  file [ file ]`) as `file (the whole file)`;
 * - an unhandled error, which fails a run while every test passed, as `file > test (unhandled error)` from vitest's
 *   "originated in" and "last test to run" lines, or `unhandled error (see the log)` when it names neither.
 */
export function failedTests(output: string): string[] {
  const names = new Set<string>();
  let unhandledSection = false;
  let origin: string | undefined;
  const lines = stripVTControlCharacters(output)
    .split(/\r?\n/)
    .map((line) => line.trimEnd());
  for (const line of lines) {
    const fail = /^ FAIL {2}(.+)$/.exec(line)?.[1];
    if (fail) {
      const wholeFile = /^(\S+) \[ \1 \]$/.exec(fail)?.[1];
      names.add(wholeFile ? `${wholeFile} (the whole file)` : fail);
      continue;
    }
    if (/^⎯+ Unhandled Errors ⎯+$/.test(line)) {
      unhandledSection = true;
      continue;
    }
    if (!unhandledSection) continue;
    const file = /^This error originated in "(.+)" test file\./.exec(line)?.[1];
    if (file) {
      origin = file;
      names.add(`${file} (unhandled error)`);
      continue;
    }
    const last = /^The last test to run before this error was "(.+)"\./.exec(line)?.[1];
    if (last && origin) {
      names.delete(`${origin} (unhandled error)`);
      names.add(`${origin} > ${last} (unhandled error)`);
      origin = undefined;
    }
  }
  if (unhandledSection && ![...names].some((name) => name.endsWith('(unhandled error)'))) {
    names.add('unhandled error (see the log)');
  }
  return [...names];
}
