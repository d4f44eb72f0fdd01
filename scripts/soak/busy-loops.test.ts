import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startBusyLoops } from './busy-loops.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system, in clock ticks) a process has used, from /proc. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

describe('busy loops', () => {
  it('keep a core busy each until stopped', async () => {
    const loops = startBusyLoops(2);
    try {
      expect(loops.pids).toHaveLength(2);
      const [first] = loops.pids;
      const before = cpuTicks(first ?? 0);
      await expect.poll(() => cpuTicks(first ?? 0) - before, { timeout: 5_000 }).toBeGreaterThan(10);
    } finally {
      loops.stop();
    }
    for (const pid of loops.pids) await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('count a loop that ended before its time (a pkill, the OOM killer) and start one in its place', async () => {
    const loops = startBusyLoops(2);
    try {
      const [first, second] = loops.pids;
      expect(loops.ended()).toBe(0);
      expect(loops.revive()).toBe(0);
      process.kill(first ?? 0, 'SIGKILL');
      await expect.poll(() => loops.ended(), { timeout: 5_000 }).toBe(1);
      expect(loops.revive()).toBe(1);
      expect(loops.ended()).toBe(0);
      const [revived, kept] = loops.pids;
      expect(kept).toBe(second);
      expect(revived).not.toBe(first);
      expect(alive(revived ?? 0)).toBe(true);
    } finally {
      loops.stop();
    }
    for (const pid of loops.pids) await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('end when the soak exits, and on their own when it is killed outright', async () => {
    // A stand-in for the soak: starts one loop, prints its pid, then exits (or is killed) as told.
    const soak = (ending: string) =>
      spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { startBusyLoops } = await import(${JSON.stringify(new URL('./busy-loops.ts', import.meta.url).href)});
           console.log(startBusyLoops(1).pids[0]); ${ending}`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
    const pidOf = (child: ReturnType<typeof soak>) =>
      new Promise<number>((resolve) => child.stdout?.once('data', (chunk) => resolve(Number(String(chunk)))));

    const exiting = soak('setTimeout(() => process.exit(0), 200);');
    const exitLoop = await pidOf(exiting);
    await expect.poll(() => alive(exitLoop), { timeout: 5_000 }).toBe(false);

    const killed = soak('setInterval(() => {}, 1000);');
    const orphan = await pidOf(killed);
    expect(alive(orphan)).toBe(true);
    killed.kill('SIGKILL');
    await expect.poll(() => alive(orphan), { timeout: 10_000 }).toBe(false);
  }, 20_000);
});
