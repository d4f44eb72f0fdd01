import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The script of one busy loop. It looks at its parent every 10^7 iterations (some milliseconds) and ends when
 * the parent is gone, so a soak killed outright (SIGKILL) leaves no loop burning a core.
 */
export function busyLoopScript(parentPid: number): string {
  return `let i = 0; for (;;) { if (++i === 1e7) { i = 0; if (process.ppid !== ${parentPid}) process.exit(0); } }`;
}

/**
 * The busy loops beside a soak: `stop()` ends them, and so does this process's exit. A loop can end before that (a
 * `pkill` by someone on the machine, the OOM killer): `ended()` counts those, `revive()` starts one in each's place.
 */
export interface BusyLoops {
  /** The loops' pids now (a revived loop has a new one). */
  readonly pids: readonly number[];
  /** How many loops have ended since they were started or revived. */
  ended(): number;
  /** Starts a new loop in place of each ended one; returns how many it started. */
  revive(): number;
  stop(): void;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Starts `count` busy-loop processes on this process's Node. */
export function startBusyLoops(count: number): BusyLoops {
  const start = () => spawn(process.execPath, ['-e', busyLoopScript(process.pid)], { stdio: 'ignore' });
  const children: ChildProcess[] = Array.from({ length: count }, start);
  const stop = () => {
    process.off('exit', stop);
    for (const child of children) if (running(child)) child.kill('SIGKILL');
  };
  process.on('exit', stop);
  return {
    get pids() {
      return children.map((child) => child.pid ?? 0);
    },
    ended: () => children.filter((child) => !running(child)).length,
    revive: () => {
      let started = 0;
      children.forEach((child, i) => {
        if (running(child)) return;
        children[i] = start();
        started += 1;
      });
      return started;
    },
    stop,
  };
}
