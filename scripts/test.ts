/**
 * `npm test`: the preflight (scripts/preflight.ts), the build the tests load, then the typecheck and lint beside
 * every test file (vitest), and one closing line for the whole: `N passed, M failed, K skipped`, where M also counts a
 * failed typecheck or lint and a test run that ended without its counts. Exit 0 only when M is 0.
 *
 * Whatever the tests started and left behind (a file whose setup failed halfway, a run stopped with Ctrl-C) is
 * stopped before the closing line: testing/processes.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeRunDir, RUN_DIR_REMOVAL, RUN_DIR_VARIABLE, sweep } from '../testing/processes.ts';
import { closingLine, type Summary } from './summary-reporter.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const say = (line: string) => process.stdout.write(`${line}\n`);
const running = new Set<ChildProcess>();

/** Runs a command; its output goes to ours unless `quiet`, in which case it is kept and returned. */
function run(
  command: string,
  args: string[],
  options: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: options.env ?? process.env,
      stdio: ['ignore', options.quiet ? 'pipe' : 'inherit', options.quiet ? 'pipe' : 'inherit'],
    });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

const node = (script: string, args: string[] = [], options = {}) =>
  run(process.execPath, [join(ROOT, script), ...args], options);

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if ((await node('scripts/preflight.ts')).code !== 0) return 1;
  const build = await run('npm', ['run', 'build', '--silent']);
  if (build.code !== 0) {
    say(`\nnpm test: the build failed, no test ran\n${closingLine({ passed: 0, failed: 1, skipped: 0 })}`);
    return 1;
  }
  const { runDir, tmp } = makeRunDir();
  const summaryFile = join(runDir, 'summary.json');
  const stop = () => {
    for (const child of running) child.kill('SIGINT');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    // A larger young generation for every Node process of the run (vitest's workers, the BFFs and sandboxes the tests
    // start): the tests allocate fast and briefly (HTTP bodies, JSON, zod), and the default 16 MB semi-space spent a
    // tenth of the run's CPU in scavenges (docs/testing.md, "How the run is built": 298 s → 268 s on the 2-core machine).
    const nodeOptions = [process.env.NODE_OPTIONS, '--max-semi-space-size=64'].filter(Boolean).join(' ');
    const env = {
      ...process.env,
      NODE_OPTIONS: nodeOptions,
      [RUN_DIR_VARIABLE]: runDir,
      TMPDIR: tmp,
      SUMMARY_FILE: summaryFile,
    };
    // The typecheck and lint use the cores while the first test files wait on their servers.
    const [check, tests] = await Promise.all([
      run('npm', ['run', 'check', '--silent'], { quiet: true }),
      node('node_modules/vitest/vitest.mjs', ['run', ...argv], { env }),
    ]);
    const swept = await sweep(runDir);
    if (swept.length > 0) say(`npm test: stopped what the tests left running: ${swept.join(', ')}`);
    say(`\nnpm run check (typecheck, lint): ${check.code === 0 ? 'passed' : 'FAILED'}`);
    if (check.code !== 0) process.stdout.write(check.output);
    const summary = readSummary(summaryFile);
    const failed = (summary?.failed ?? 1) + (check.code === 0 ? 0 : 1);
    if (!summary) say('npm test: the test run ended without its counts (see above)');
    say(closingLine({ passed: summary?.passed ?? 0, failed, skipped: summary?.skipped ?? 0 }));
    return failed > 0 || tests.code !== 0 ? 1 : 0;
  } finally {
    rmSync(runDir, RUN_DIR_REMOVAL);
  }
}

function readSummary(file: string): Summary | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Summary;
  } catch {
    return undefined;
  }
}

process.exitCode = await main();
