import { parseArgs } from 'node:util';

/** What `npm run test:soak -- …` was asked to do. */
export interface SoakOptions {
  /** How many times the command runs, one after another. */
  runs: number;
  /** One busy-loop process per core beside the runs, for their whole time. */
  stress: boolean;
  /** The shell command of one run, in the fresh clone. */
  command: string;
  /** Keep the clone (with its node_modules) after the last run, to look into it. */
  keep: boolean;
  help: boolean;
}

export const SOAK_USAGE = `usage: npm run test:soak -- [--runs N] [--stress] [--command "<shell command>"] [--keep]

Clones the current commit (HEAD) into a temporary directory, installs it once (npm ci), then runs the command
N times in a row there and prints each run's result, time and failing tests; exit 1 if any run failed.

  --runs N       how many runs (default 10)
  --stress       one busy-loop process per core beside the runs, for their whole time
  --command C    the command of one run (default "npm test"), e.g. --command "npx vitest run shared/cep.test.ts"
  --keep         keep the clone after the last run (the logs are always kept)`;

/** A bad command line: the message says what is wrong, and the caller prints the usage. */
export class SoakUsageError extends Error {
  override readonly name = 'SoakUsageError';
}

/** Parses the arguments after `--`; throws a `SoakUsageError` naming the option that is wrong. */
export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new SoakUsageError(error instanceof Error ? error.message : String(error));
  }
  const runs = values.runs ?? '10';
  if (!/^[1-9]\d*$/.test(runs) || Number(runs) > 1000) {
    throw new SoakUsageError(`--runs must be a whole number from 1 to 1000 (got "${runs}")`);
  }
  const command = values.command ?? 'npm test';
  if (command.trim() === '') throw new SoakUsageError('--command must not be empty');
  return {
    runs: Number(runs),
    stress: values.stress ?? false,
    command,
    keep: values.keep ?? false,
    help: values.help ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      runs: { type: 'string' },
      stress: { type: 'boolean' },
      command: { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
