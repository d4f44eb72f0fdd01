import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
import { checkPinned, installedVersions, PINNED, reusedForkPool } from './reused-fork.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PROBE = resolve(import.meta.dirname, 'fixtures/reused-fork/probe.fixture.ts');

interface Seen {
  name: string;
  state: string | undefined;
  pid?: number;
  fileEvaluations?: number;
  helperEvaluations?: number;
  mutantAtImport?: string | null;
}

let vitest: Vitest | undefined;
let dir: string | undefined;
afterEach(async () => {
  await vitest?.close();
  vitest = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A vitest instance as Stryker's runner makes one (one fork, no isolation, no watch), with the reused fork. */
async function start(recycleAfter?: number): Promise<{
  run: (pattern?: RegExp) => Promise<Seen[]>;
  provide: (key: string, value: unknown) => void;
}> {
  dir = mkdtempSync(join(tmpdir(), 'reused-fork-'));
  process.env.PROBE_DIR = dir;
  vitest = await createVitest(
    'test',
    {
      config: false,
      root: ROOT,
      include: [PROBE],
      // Stryker's runner puts its own setup file first
      setupFiles: [
        resolve(import.meta.dirname, 'fixtures/reused-fork/stryker-like.setup.ts'),
        resolve(import.meta.dirname, 'reused-fork-setup.ts'),
      ],
      pool: 'forks',
      maxWorkers: 1,
      isolate: false,
      watch: false,
      reporters: [],
      onConsoleLog: () => false,
    },
    { plugins: [reusedForkPool({ recycleAfter })] },
  );
  const ctx = vitest;
  return {
    provide: (key, value) => (ctx.provide as (key: string, value: unknown) => void)(key, value),
    async run(pattern) {
      // what the Stryker runner does before each mutant: forget the last run, set this run's filter
      ctx.state.filesMap.clear();
      for (const project of ctx.projects) {
        if (pattern) project.config.testNamePattern = pattern;
        else delete project.config.testNamePattern;
      }
      await ctx.start([PROBE]);
      return ctx.state
        .getFiles()
        .flatMap((file) => file.tasks)
        .map((task) => ({ name: task.name, state: task.result?.state, ...task.meta }));
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the reused fork of the mutation runs', () => {
  it('runs the next run in the same process, importing the test file again and not the modules it imports', async () => {
    const { run } = await start();
    const [one] = await run();
    const [two] = await run();
    expect(one?.state).toBe('pass');
    expect(two?.pid).toBe(one?.pid);
    expect([one?.fileEvaluations, two?.fileEvaluations]).toEqual([1, 2]);
    expect([one?.helperEvaluations, two?.helperEvaluations]).toEqual([1, 1]);
  });

  it("imports the test file with no mutant switched on, whatever the previous run's was", async () => {
    const { run } = await start();
    await run(); // its tests switch mutant 7 on, as Stryker's beforeAll does
    const [again] = await run();
    expect(again?.mutantAtImport).toBeNull();
  });

  it("applies each run's test name filter, and a run without one runs every test", async () => {
    const { run } = await start();
    const filtered = await run(/first$/);
    const unfiltered = await run();
    const other = await run(/second$/);
    const ran = (seen: Seen[]) => seen.filter((t) => t.state === 'pass').map((t) => t.name);
    expect(ran(filtered)).toEqual(['first']);
    expect(ran(unfiltered)).toEqual(['first', 'second']);
    expect(ran(other)).toEqual(['second']);
    expect(new Set([...filtered, ...unfiltered, ...other].map((t) => t.pid).filter(Boolean)).size).toBe(1);
  });

  it('replaces the process after the configured number of runs', async () => {
    const { run } = await start(2);
    const pids = [];
    for (let i = 0; i < 5; i++) pids.push((await run())[0]?.pid);
    expect(pids[0]).toBe(pids[1]);
    expect(pids[2]).not.toBe(pids[1]);
    expect(pids[2]).toBe(pids[3]);
    expect(pids[4]).not.toBe(pids[3]);
  });

  it('does not keep a process that died during a run: the next run gets a new one and passes', async () => {
    const { run } = await start();
    const [before] = await run();
    writeFileSync(join(dir ?? '', 'crash'), '');
    const crashed = await run();
    rmSync(join(dir ?? '', 'crash'));
    const after = await run();
    expect(crashed.some((t) => t.state === 'pass' && t.name === 'second')).toBe(false);
    expect(after.map((t) => t.state)).toEqual(['pass', 'pass']);
    expect(after[0]?.pid).not.toBe(before?.pid);
    expect(after[0]?.fileEvaluations).toBe(1);
  });

  it('does not reuse a process that spoke after its run ended: the next run gets a new one and does not wait', async () => {
    const { run } = await start();
    writeFileSync(join(dir ?? '', 'late'), '');
    const [before] = await run();
    rmSync(join(dir ?? '', 'late'));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the late line is sent while the process is parked
    const after = await run();
    expect(after.map((t) => t.state)).toEqual(['pass', 'pass']);
    expect(after[0]?.pid).not.toBe(before?.pid);
  });

  it('keeps a static mutant switched on at import, and does not reuse the process that ran it', async () => {
    const { run, provide } = await start();
    provide('mode', 'mutant');
    provide('mutantActivation', 'static');
    provide('activeMutant', '9');
    const [staticRun] = await run();
    expect(staticRun?.mutantAtImport).toBe('9');
    provide('mutantActivation', 'runtime');
    const [next] = await run();
    expect(next?.pid).not.toBe(staticRun?.pid);
    expect(next?.mutantAtImport).toBeNull();
  });

  it('replaces a parked process that died between runs', async () => {
    const { run } = await start();
    const [before] = await run();
    process.kill(before?.pid ?? 0, 'SIGKILL');
    await expect.poll(() => alive(before?.pid ?? 0)).toBe(false);
    const after = await run();
    expect(after.map((t) => t.state)).toEqual(['pass', 'pass']);
    expect(after[0]?.pid).not.toBe(before?.pid);
  });

  it('ends the parked process when vitest closes', async () => {
    const { run } = await start();
    const [seen] = await run();
    const pid = seen?.pid ?? 0;
    expect(alive(pid)).toBe(true);
    await vitest?.close();
    vitest = undefined;
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('is pinned in package.json to exactly the versions it was checked against, and those are installed', () => {
    const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(PINNED))
      expect(manifest.devDependencies[name]).toBe(version);
    expect(installedVersions()).toEqual(PINNED);
    expect(() => checkPinned()).not.toThrow();
  });

  it('refuses to start on another version of what it relies on, naming it and what to do', () => {
    const other = { ...PINNED, vitest: '5.2.0' };
    expect(() => checkPinned(other)).toThrow(
      /installed: vitest 5\.2\.0 \(pinned: 5\.1\.1\)\. Check the pool/,
    );
    expect(() => checkPinned(other)).toThrow(/--fresh-forks/);
    expect(() => checkPinned({ ...PINNED, '@stryker-mutator/vitest-runner': '11.0.0' })).toThrow(
      /@stryker-mutator\/vitest-runner 11\.0\.0 \(pinned: 10\.1\.1\)/,
    );
  });
});
