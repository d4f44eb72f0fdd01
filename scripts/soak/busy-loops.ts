import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The script of one busy loop. It looks at its parent every 10^7 iterations (some milliseconds) and ends when
 * the parent is gone, so a soak killed outright (SIGKILL) leaves no loop burning a core.
 */
export function busyLoopScript(parentPid: number): string {
  return `let i = 0; for (;;) { if (++i === 1e7) { i = 0; if (process.ppid !== ${parentPid}) process.exit(0); } }`;
}

/** The busy loops beside a soak: `stop()` ends them, and so does this process's exit. */
export interface BusyLoops {
  readonly pids: readonly number[];
  stop(): void;
}

/** Starts `count` busy-loop processes on this process's Node. */
export function startBusyLoops(count: number): BusyLoops {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', busyLoopScript(process.pid)], { stdio: 'ignore' }),
  );
  const stop = () => {
    process.off('exit', stop);
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  process.on('exit', stop);
  return { pids: children.map((child) => child.pid ?? 0), stop };
}
