/**
 * Nothing a test starts outlives the run. Two layers:
 *
 * - In the test file's process: every server the harness starts is kept in `open` until it is closed, and
 *   `testing/setup.ts` closes whatever is left when the file ends — also when its `beforeAll` failed halfway
 *   (PostgreSQL started, then Redis missing) and the file's own cleanup had nothing to close.
 * - Outside it: each process started (a `redis-server`, a PostgreSQL postmaster — which `pg_ctl` detaches —, a BFF a
 *   crash test runs) also leaves a record in the run's directory (`FRETE_TEST_RUN_DIR`, made by `npm test` or by the
 *   global setup); `sweep` stops every recorded process still alive when the run ends, however it ended (a worker
 *   killed on a timeout, Ctrl-C). A record names the process's start time, so a pid reused since is never touched.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RUN_DIR_VARIABLE = 'FRETE_TEST_RUN_DIR';

/**
 * How the run's directory is removed at the end: a browser a test process shared (e2e/support/browser.ts) may still be
 * writing its profile under TMPDIR while it exits, so a removal that meets a directory filling again tries again.
 */
export const RUN_DIR_REMOVAL = { recursive: true, force: true, maxRetries: 5, retryDelay: 100 } as const;

/** Memory-backed, where the machine has it (Linux's /dev/shm). */
const RAM_DIR = '/dev/shm';

/**
 * Makes the run's directory and the temporary directory its tests use (`TMPDIR`, inside it): in memory where the
 * machine has it. The tests' SQLite ledgers and PostgreSQL data dirs then commit without waiting on a disk's fsync,
 * which changes no code path — the product still asks for every sync it asks for — only what a sync costs here
 * (measured: 3,000 OAuth registrations, each a committed transaction, 25.6 s → 12.7 s on the shared machine).
 */
export function makeRunDir(): { runDir: string; tmp: string } {
  let base = tmpdir();
  try {
    accessSync(RAM_DIR, constants.W_OK);
    base = RAM_DIR;
  } catch {
    // no /dev/shm: the usual temporary directory
  }
  const runDir = mkdtempSync(join(base, 'frete-test-run-'));
  const tmp = join(runDir, 'tmp');
  mkdirSync(tmp);
  // PostgreSQL runs as its own user (as root: `postgres`) and must reach its data dir under these.
  chmodSync(runDir, 0o755);
  chmodSync(tmp, 0o777);
  return { runDir, tmp };
}

interface ProcessRecord {
  pid: number;
  /** What it is, for the sweep's message. */
  what: string;
  /** `/proc/<pid>/stat`'s start time: the same pid with another start time is another process. */
  startedAt: string;
  /** Signal the whole process group (`spawn(…, { detached: true })`): a script and what it started. */
  group?: boolean;
  /** A directory to remove once the process is gone (a server's data). */
  dir?: string;
  /** How to stop it first (PostgreSQL: SIGQUIT, so the postmaster takes its backends with it); then SIGKILL. */
  stopSignal?: NodeJS.Signals;
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined when gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Cleanups of what this process started and has not stopped yet (closed by `closeLeftovers`). */
const open = new Map<string, () => Promise<void>>();

/**
 * Records a process this test process started: in the run's directory (when there is one) for the sweep, and
 * `close` in this process for `closeLeftovers`. Returns the function to call once it is stopped for good.
 */
export function recordProcess(
  entry: Omit<ProcessRecord, 'startedAt'>,
  close: () => Promise<void>,
): () => void {
  const id = randomUUID();
  open.set(id, close);
  const runDir = process.env[RUN_DIR_VARIABLE];
  const startedAt = startTimeOf(entry.pid);
  let file: string | undefined;
  if (runDir && startedAt) {
    const record: ProcessRecord = { ...entry, startedAt };
    mkdirSync(join(runDir, 'processes'), { recursive: true });
    file = join(runDir, 'processes', `${id}.json`);
    writeFileSync(file, JSON.stringify(record));
  }
  return () => {
    open.delete(id);
    if (file) rmSync(file, { force: true });
  };
}

/** Closes whatever this process started and did not close (testing/setup.ts, after each test file). */
export async function closeLeftovers(): Promise<number> {
  const left = [...open.values()];
  open.clear();
  await Promise.allSettled(left.map((close) => close()));
  return left.length;
}

function signal(record: ProcessRecord, name: NodeJS.Signals): void {
  try {
    process.kill(record.group ? -record.pid : record.pid, name);
  } catch {
    // gone already
  }
}

/** The records of the run's directory still naming a live process (those gone are dropped, with their dirs). */
function liveRecords(runDir: string): ProcessRecord[] {
  let files: string[];
  try {
    files = readdirSync(join(runDir, 'processes'));
  } catch {
    return [];
  }
  const live: ProcessRecord[] = [];
  for (const name of files) {
    const file = join(runDir, 'processes', name);
    try {
      const record = JSON.parse(readFileSync(file, 'utf8')) as ProcessRecord;
      if (startTimeOf(record.pid) === record.startedAt) live.push(record);
      else if (record.dir) rmSync(record.dir, { recursive: true, force: true });
    } catch {
      // a record being written as the run ended: nothing to read yet
    }
    rmSync(file, { force: true });
  }
  return live;
}

function stopNow(record: ProcessRecord): void {
  signal(record, 'SIGCONT');
  signal(record, record.stopSignal ?? 'SIGKILL');
}

/**
 * Signals every process recorded in `runDir` that is still the process recorded, without waiting (for an `exit`
 * handler, which cannot wait): SIGCONT for one a test froze, then its stop signal.
 */
export function sweepNow(runDir: string): string[] {
  const live = liveRecords(runDir);
  for (const record of live) {
    stopNow(record);
    if (record.dir) rmSync(record.dir, { recursive: true, force: true });
  }
  return live.map((record) => `${record.what} (pid ${record.pid})`);
}

/**
 * The run's directory for a script that runs tests with no `npm test` around it (the mutation run,
 * scripts/mutation/run.ts): named in `FRETE_TEST_RUN_DIR` and `TMPDIR` for every process it starts from now on, and
 * swept as `npm test` sweeps its own — by `done`, and on the way out of an exit that never reached it or an
 * interruption (SIGINT, as Ctrl-C sends, or SIGTERM: the script then exits 130 or 143). Without it, the PostgreSQL
 * servers of a test process Stryker ended outlived the run (issue 50).
 */
export function sweptRunDir(): { runDir: string; done: () => Promise<string[]> } {
  const { runDir, tmp } = makeRunDir();
  process.env[RUN_DIR_VARIABLE] = runDir;
  process.env.TMPDIR = tmp;
  const onExit = () => {
    sweepNow(runDir);
    rmSync(runDir, RUN_DIR_REMOVAL);
  };
  // process.exit runs the `exit` handler above, which cannot wait: it signals.
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    runDir,
    done: async () => {
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const stopped = await sweep(runDir);
      rmSync(runDir, RUN_DIR_REMOVAL);
      return stopped;
    },
  };
}

/**
 * Stops every process recorded in `runDir` that is still the process recorded (its stop signal, then SIGKILL if it
 * lingers: nothing of a test's server is worth keeping) and removes its directory. Answers what it stopped.
 */
export async function sweep(runDir: string): Promise<string[]> {
  const live = liveRecords(runDir);
  for (const record of live) stopNow(record);
  for (const record of live) {
    if (!(await gone(record.pid))) {
      signal(record, 'SIGKILL');
      await gone(record.pid);
    }
    if (record.dir) rmSync(record.dir, { recursive: true, force: true });
  }
  return live.map((record) => `${record.what} (pid ${record.pid})`);
}

/** Whether the pid exited (it may stay a zombie of its parent: that is gone enough) within 5 s. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i += 1) {
    if (['gone', 'Z', 'X'].includes(stateOf(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The process's state letter (field 3 of /proc/<pid>/stat), or `gone`. */
function stateOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? 'gone';
  } catch {
    return 'gone';
  }
}

/**
 * Records a child process a test spawned (a BFF or sandbox as its own process, `npm start`), so it is stopped with the
 * file or the run even when the test's own cleanup never runs; `group` for one spawned `detached` that starts
 * processes of its own (its whole process group goes). Forgotten once it exits. Returns the child.
 */
export function recordChild<T extends ChildProcess>(
  child: T,
  what: string,
  options: { group?: boolean } = {},
): T {
  if (!child.pid) return child;
  const forget = recordProcess({ pid: child.pid, what, ...options }, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(options.group ? -(child.pid ?? 0) : (child.pid ?? 0), 'SIGKILL');
    } catch {
      return;
    }
    await exited;
  });
  child.once('exit', forget);
  return child;
}
