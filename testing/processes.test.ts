import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const VITEST = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
const CONFIG = new URL('./fixtures/leftovers/vitest.config.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every process whose command line names one of these ports (a server the fixture started). */
function serversOn(ports: number[]): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue;
    }
    if (ports.some((port) => cmdline.includes(` ${port} `) || cmdline.includes(`:${port}`)))
      found.push(`${pid}: ${cmdline}`);
  }
  return found;
}

interface FixtureRun {
  child: ChildProcess;
  ports: () => number[];
  exited: Promise<number | null>;
}

/** Runs one fixture file under its own vitest, with a fresh run directory (no FRETE_TEST_RUN_DIR of ours). */
function runFixture(name: string): FixtureRun {
  const portsFile = join(dir, `${name}.json`);
  const env = { ...process.env, LEFTOVER_FIXTURE: `${name}.fixture.ts`, LEFTOVER_PORTS: portsFile };
  delete env.FRETE_TEST_RUN_DIR;
  const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], { env, stdio: 'ignore' });
  return {
    child,
    ports: () => Object.values(JSON.parse(readFileSync(portsFile, 'utf8')) as Record<string, number>),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

async function portsWritten(run: FixtureRun): Promise<number[]> {
  for (;;) {
    try {
      return run.ports();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('what a test file starts does not outlive it', () => {
  const runs: Record<string, { code: number | null; ports: number[] }> = {};
  // The three runs at once: each is its own vitest with its own servers.
  beforeAll(async () => {
    const setupFails = runFixture('setup-fails');
    const killed = runFixture('killed');
    const interrupted = runFixture('interrupted');
    const interruptedPorts = await portsWritten(interrupted);
    interrupted.child.kill('SIGINT');
    const [a, b, c] = await Promise.all([setupFails.exited, killed.exited, interrupted.exited]);
    runs.setupFails = { code: a, ports: setupFails.ports() };
    runs.killed = { code: b, ports: killed.ports() };
    runs.interrupted = { code: c, ports: interruptedPorts };
  }, 120_000);

  it('stops the PostgreSQL a file started before its setup failed (its own cleanup had nothing to close)', () => {
    expect(runs.setupFails?.code).toBe(1);
    expect(runs.setupFails?.ports).toHaveLength(1);
    expect(serversOn(runs.setupFails?.ports ?? [])).toEqual([]);
  });

  it('stops PostgreSQL and Redis of a test process killed mid-test, when the run ends', () => {
    expect(runs.killed?.code).toBe(1);
    expect(runs.killed?.ports).toHaveLength(2);
    expect(serversOn(runs.killed?.ports ?? [])).toEqual([]);
  });

  it('stops them when the run is interrupted (SIGINT, as Ctrl-C sends)', async () => {
    expect(runs.interrupted?.code).not.toBe(0);
    expect(runs.interrupted?.ports).toHaveLength(2);
    // The exit handler signals without waiting: give the servers their moment to go.
    await expect.poll(() => serversOn(runs.interrupted?.ports ?? [])).toEqual([]);
  });
});

describe('a script that runs tests itself (the mutation run) sweeps what they started', () => {
  const script = new URL('./fixtures/leftovers/script.ts', import.meta.url).pathname;
  const runs: Record<string, { code: number | null; ports: number[] }> = {};
  beforeAll(async () => {
    const start = (mode: string) => {
      const portsFile = join(dir, `script-${mode}.json`);
      const env = { ...process.env, LEFTOVER_PORTS: portsFile };
      delete env.FRETE_TEST_RUN_DIR;
      const child = spawn(process.execPath, [script, mode], { env, stdio: 'ignore' });
      const run: FixtureRun = {
        child,
        ports: () => Object.values(JSON.parse(readFileSync(portsFile, 'utf8')) as Record<string, number>),
        exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
      };
      return run;
    };
    const [done, exit, wait] = ['done', 'exit', 'wait'].map(start) as [FixtureRun, FixtureRun, FixtureRun];
    const waitPorts = await portsWritten(wait);
    wait.child.kill('SIGINT');
    const [a, b, c] = await Promise.all([done.exited, exit.exited, wait.exited]);
    runs.done = { code: a, ports: done.ports() };
    runs.exit = { code: b, ports: exit.ports() };
    runs.wait = { code: c, ports: waitPorts };
  }, 120_000);

  it('stops its PostgreSQL when it is done', () => {
    expect(runs.done?.code).toBe(0);
    expect(runs.done?.ports).toHaveLength(1);
    expect(serversOn(runs.done?.ports ?? [])).toEqual([]);
  });

  it('stops it when it exits without being done (a run that failed)', async () => {
    expect(runs.exit?.code).toBe(1);
    expect(runs.exit?.ports).toHaveLength(1);
    await expect.poll(() => serversOn(runs.exit?.ports ?? [])).toEqual([]);
  });

  it('stops it when it is interrupted (SIGINT), and exits 130', async () => {
    expect(runs.wait?.code).toBe(130);
    expect(runs.wait?.ports).toHaveLength(1);
    await expect.poll(() => serversOn(runs.wait?.ports ?? [])).toEqual([]);
  });
});
