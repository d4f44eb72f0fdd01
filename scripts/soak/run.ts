/**
 * `npm run test:soak -- --runs 10 --stress`: the suite's stated bar, checked. Clones the current commit into a
 * temporary directory, installs it once (`npm ci`), then runs `npm test` (or `--command`) N times in a row there,
 * optionally beside one busy-loop process per core, and prints each run's result and time and the failing tests it
 * saw. Exit 0 when every run passed, 1 when one failed, 2 when the soak itself could not run (or, with `--stress`,
 * a busy loop ended during a run: it is started again for the next run, and that run was not a stressed one).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BusyLoops, startBusyLoops } from './busy-loops.ts';
import { failedTests } from './failures.ts';
import { parseSoakOptions, SOAK_USAGE, type SoakOptions, SoakUsageError } from './options.ts';
import { type RunResult, runLine, summary, unstressed } from './report.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const say = (line: string) => process.stdout.write(`${line}\n`);

let current: ChildProcess | undefined;
let busy: BusyLoops | undefined;
/** The soak's temporary directory (the clone and the logs), said on Ctrl-C so it can be looked at or removed. */
let workDir: string | undefined;

/** This environment for the clone: its own `node_modules/.bin` first, nothing of this checkout's npm run. */
function cloneEnv(clone: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('npm_') && key !== 'INIT_CWD') env[key] = value;
  }
  const path = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir !== ROOT && !dir.startsWith(`${ROOT}/`));
  env.PATH = [join(clone, 'node_modules/.bin'), ...path].join(':');
  return env;
}

function git(args: string[], cwd = ROOT): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** Runs a shell command in its own process group (so it can be stopped whole), its output into `log`. */
function runLogged(command: string, cwd: string, env: NodeJS.ProcessEnv, log: string) {
  const out = createWriteStream(log);
  const child = spawn(command, { cwd, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  current = child;
  let text = '';
  const keep = (chunk: Buffer) => {
    out.write(chunk);
    text += chunk.toString('utf8');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return new Promise<{ exitCode: number | null; output: string }>((done) => {
    child.on('close', (code) => {
      current = undefined;
      out.end(() => done({ exitCode: code, output: text }));
    });
  });
}

/** Ctrl-C or SIGTERM: the running command's whole process group and the busy loops end with the soak. */
function stopOnSignal(signal: NodeJS.Signals): void {
  process.stderr.write(`\nsoak: ${signal}, stopping the run in progress and the busy loops\n`);
  if (workDir)
    process.stderr.write(`soak: the clone and the logs stay in ${workDir} (rm -rf it when done)\n`);
  busy?.stop();
  const child = current;
  if (child?.pid === undefined) process.exit(130);
  const group = -child.pid;
  try {
    process.kill(group, 'SIGTERM');
  } catch {}
  const force = setTimeout(() => {
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
    process.exit(130);
  }, 5_000);
  child.once('close', () => {
    clearTimeout(force);
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
    process.exit(130);
  });
}

async function soak(options: SoakOptions): Promise<number> {
  const commit = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain']) !== '';
  const base = mkdtempSync(join(tmpdir(), 'frete-kit-soak-'));
  workDir = base;
  const clone = join(base, 'repo');
  const logs = join(base, 'logs');
  mkdirSync(logs);
  say(`soak: ${options.runs} runs of "${options.command}" on a clone of ${commit.slice(0, 12)} in ${clone}`);
  if (dirty) say(`soak: ${ROOT} has uncommitted changes; they are not in the clone`);

  const started = Date.now();
  git(['clone', '--quiet', '--no-checkout', ROOT, clone]);
  git(['checkout', '--quiet', '--detach', commit], clone);
  const env = cloneEnv(clone);
  const install = await runLogged('npm ci --no-audit --no-fund', clone, env, join(logs, 'install.log'));
  if (install.exitCode !== 0) {
    say(`soak: npm ci failed (exit ${install.exitCode}); see ${join(logs, 'install.log')}`);
    return 2;
  }
  say(`soak: cloned and installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  let stress = '';
  if (options.stress) {
    const cores = availableParallelism();
    busy = startBusyLoops(cores);
    stress = ` under stress (${cores} busy loops on ${cores} cores)`;
    say(`soak: ${cores} busy loops running beside the runs (pids ${busy.pids.join(', ')})`);
  }
  const results: RunResult[] = [];
  for (let run = 1; run <= options.runs; run++) {
    const log = join(logs, `run-${String(run).padStart(2, '0')}.log`);
    const revived = busy?.revive() ?? 0;
    if (revived > 0)
      say(`soak: ${revived} busy loop(s) had ended; started again (pids ${busy?.pids.join(', ')})`);
    const begun = performance.now();
    const { exitCode, output } = await runLogged(options.command, clone, env, log);
    const result: RunResult = {
      run,
      exitCode,
      seconds: (performance.now() - begun) / 1000,
      failures: exitCode === 0 ? [] : failedTests(output),
      log,
      ...(busy && { loopsEnded: busy.ended() }),
    };
    results.push(result);
    say(runLine(result, options.runs));
  }
  busy?.stop();

  say(`soak: ${summary(results, stress)}`);
  say(`soak: logs in ${logs}`);
  if (options.keep) say(`soak: the clone is kept in ${clone}`);
  else rmSync(clone, { recursive: true, force: true });
  if (!results.every((result) => result.exitCode === 0)) return 1;
  // Every run passed, but one that lost a busy loop did not run under the stress asked for.
  return results.some(unstressed) ? 2 : 0;
}

if (import.meta.main) {
  let options: SoakOptions;
  try {
    options = parseSoakOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SoakUsageError)) throw error;
    process.stderr.write(`soak: ${error.message}\n\n${SOAK_USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    say(SOAK_USAGE);
    process.exit(0);
  }
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);
  try {
    process.exitCode = await soak(options);
  } catch (error) {
    process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
    busy?.stop();
    process.exitCode = 2;
  }
}
