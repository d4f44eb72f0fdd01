/**
 * `npm test`'s first step: the programs the tests start must be on this machine before any test runs. Each missing
 * one is installed when it can be (Debian's `apt-get`, as root: said on one line as it is done), otherwise the run
 * stops at once with the exact command to type — never a file of stack traces per test file that needed it.
 *
 * What the tests need, and the Debian package that brings it:
 * - Chromium (`/usr/bin/chromium`, or `CHROMIUM_PATH`): the e2e tests (`e2e/`), through playwright-core;
 * - `redis-server` and `redis-cli`: the multi-instance tests start their own Redis on free ports;
 * - PostgreSQL 15's `initdb`/`pg_ctl`/`createdb` (`/usr/lib/postgresql/15/bin`, or `PG_BIN`): the ledger, OAuth and
 *   notification tests on PostgreSQL;
 * - `sqlite3` and `systemd-analyze`: docs/deploy.md's backup command and service unit, run by scripts/docs.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Need {
  /** What the tests use it for, in the message. */
  what: string;
  /** The Debian package that brings it. */
  pkg: string;
  /** Absolute paths to look at, or bare command names looked up on PATH; all must be found. */
  files: string[];
}

/** Where PostgreSQL's binaries are (testing/servers.ts reads the same variable). */
export function pgBin(env: NodeJS.ProcessEnv): string {
  return env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
}

export function needs(env: NodeJS.ProcessEnv): Need[] {
  return [
    { what: 'the browser tests', pkg: 'chromium', files: [env.CHROMIUM_PATH ?? '/usr/bin/chromium'] },
    { what: 'the Redis tests', pkg: 'redis-server', files: ['redis-server', 'redis-cli'] },
    {
      what: 'the PostgreSQL tests',
      pkg: 'postgresql',
      files: ['initdb', 'pg_ctl', 'createdb'].map((bin) => join(pgBin(env), bin)),
    },
    { what: 'the backup command of docs/deploy.md', pkg: 'sqlite3', files: ['sqlite3'] },
    { what: 'the service unit of docs/deploy.md', pkg: 'systemd', files: ['systemd-analyze'] },
  ];
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `file` (a path, or a command looked up on PATH) can be run. */
export function found(file: string, env: NodeJS.ProcessEnv): boolean {
  if (file.includes('/')) return executable(file);
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, file)));
}

/** The packages of what is missing, each once, in the order above. */
export function missingPackages(env: NodeJS.ProcessEnv): string[] {
  return needs(env)
    .filter((need) => !need.files.every((file) => found(file, env)))
    .map((need) => need.pkg);
}

/** The command a person runs to install them (also what this script runs, as root). */
export function installCommand(packages: readonly string[]): string {
  return `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${packages.join(' ')}`;
}

/** A path the person chose (`CHROMIUM_PATH`, `PG_BIN`) that holds nothing: no package would put it there. */
export function wrongOverrides(env: NodeJS.ProcessEnv): string[] {
  const wrong: string[] = [];
  if (env.CHROMIUM_PATH && !found(env.CHROMIUM_PATH, env)) wrong.push(`CHROMIUM_PATH=${env.CHROMIUM_PATH}`);
  if (env.PG_BIN && !found(join(env.PG_BIN, 'initdb'), env)) wrong.push(`PG_BIN=${env.PG_BIN}`);
  return wrong;
}

export type PreflightDecision =
  | { action: 'ready' }
  | { action: 'install'; packages: string[] }
  | { action: 'stop'; packages: string[]; message: string };

/** What to do: nothing, install (root on Debian), or stop with the command. */
export function decide(
  packages: string[],
  machine: { root: boolean; apt: boolean },
  env: NodeJS.ProcessEnv,
): PreflightDecision {
  if (packages.length === 0) return { action: 'ready' };
  if (machine.root && machine.apt) return { action: 'install', packages };
  const what = needs(env)
    .filter((need) => packages.includes(need.pkg))
    .map((need) => `${need.pkg} (${need.what})`)
    .join(', ');
  const command = machine.apt ? `sudo sh -c '${installCommand(packages)}'` : undefined;
  return {
    action: 'stop',
    packages,
    message: [
      `npm test: missing ${what}.`,
      command
        ? `Install them, then run npm test again: ${command}`
        : `Install the packages ${packages.join(', ')} (Debian names) with your system's package manager, then run npm test again.`,
      'Set CHROMIUM_PATH or PG_BIN if yours live elsewhere.',
    ].join('\n'),
  };
}

function main(): number {
  const env = process.env;
  const wrong = wrongOverrides(env);
  if (wrong.length > 0) {
    process.stderr.write(`npm test: nothing to run at ${wrong.join(', ')}: fix or unset the variable.\n`);
    return 1;
  }
  const packages = missingPackages(env);
  const decision = decide(packages, { root: process.getuid?.() === 0, apt: found('apt-get', env) }, env);
  if (decision.action === 'ready') return 0;
  if (decision.action === 'stop') {
    process.stderr.write(`${decision.message}\n`);
    return 1;
  }
  process.stdout.write(
    `preflight: installing Debian packages for the tests: ${packages.join(' ')} (apt-get)\n`,
  );
  const install = spawnSync('sh', ['-c', `(${installCommand(packages)}) >/dev/null`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missingPackages(env);
  if (install.status !== 0 || still.length > 0) {
    process.stderr.write(
      `npm test: apt-get could not install ${still.join(' ') || packages.join(' ')}; run it yourself: ${installCommand(still.length > 0 ? still : packages)}\n`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exitCode = main();
