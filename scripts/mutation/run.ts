/**
 * `npm run mutation [-- --only shared,bff/labels]`: Stryker over the core modules, one module at a time, each with
 * only the tests that exercise it (see modules.ts and README.md). Prints the score per module and writes
 * bench/results/mutation.json (the summary) and bench/results/mutation/<module>.html (every mutant).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LogLevel, MutantResult } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { sweptRunDir } from '../../testing/processes.ts';
import { MODULES, type MutationModule } from './modules.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const RESULTS = resolve(ROOT, 'bench/results');

interface Equivalent {
  file: string;
  line: number;
  mutator: string;
}

/** Rows `| file:line | Mutator | reason |` of equivalent-mutants.md: survivors no test can kill, each with a reason. */
export function readEquivalents(text: string): Equivalent[] {
  const rows: Equivalent[] = [];
  for (const line of text.split('\n')) {
    const match = /^\|\s*`?([\w./-]+):(\d+)`?\s*\|\s*(\w+)\s*\|/.exec(line);
    if (match?.[1] && match[2] && match[3])
      rows.push({ file: match[1], line: Number(match[2]), mutator: match[3] });
  }
  return rows;
}

interface ModuleScore {
  module: string;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  equivalent: number;
  errors: number;
  score: number;
  seconds: number;
  surviving: string[];
}

interface RunOptions {
  concurrency: number;
  coverage: 'perTest' | 'all';
  files: string[] | undefined;
  /** Reuse (and rewrite) the kept reports: a whole module per-test run, unless `--full` (scripts/mutation/README.md, "The kept verdicts") */
  incremental: boolean;
  /** `--fresh-forks`: a new test process for every mutant in the first pass too (the cross-check of reused-fork.ts) */
  freshForks: boolean;
}

type Result = MutantResult;

/** Stryker's timeout for the module being run (modules.ts `hangTimeoutMs`, else 10 s). */
let hangTimeoutMs = 10_000;

/** One Stryker run over `mutate` (globs, or `file:line:column-line:column` ranges) with this module's tests. */
async function strykerRun(
  mutate: string[],
  report: string,
  run: RunOptions,
  pass: { ignoreStatic: boolean; incremental: boolean },
): Promise<Result[]> {
  // A mutant switched on at run time can share a test process with the mutants before it; a static mutant needs its
  // modules loaded again with it on, so a process of its own (reused-fork.ts).
  process.env.MUTATION_REUSE_FORK = pass.ignoreStatic && !run.freshForks ? '1' : '0';
  const stryker = new Stryker({
    mutate,
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    // forks, not threads: a worker thread cannot switch TZ, and the business-days test does
    vitest: { configFile: 'scripts/mutation/vitest.config.ts', pool: 'forks' },
    coverageAnalysis: run.coverage,
    // TypeScript 7 has no JS API for Stryker's tsconfig rewrite; the sandbox is a plain copy, nothing to rewrite.
    tsconfigFile: 'scripts/mutation/no-tsconfig-rewrite.json',
    concurrency: run.concurrency,
    // longer than vitest's 4 s test timeout (vitest.config.ts): a hanging test fails there, without a runner restart;
    // a module whose mutants can loop forever in synchronous code (no vitest timer fires) may set a shorter one
    timeoutMS: hangTimeoutMs,
    reporters: ['html', 'progress'],
    htmlReporter: { fileName: `bench/results/mutation/${report}.html` },
    tempDirName: `.stryker-tmp/${report}`,
    ignorePatterns: ['bench/results', 'dist', '.data', 'test-results', 'e2e/artifacts', '.stryker-tmp'],
    cleanTempDir: true,
    ignoreStatic: pass.ignoreStatic,
    incremental: pass.incremental,
    incrementalFile: `bench/results/mutation-incremental/${report}.json`,
    logLevel: 'warn' as LogLevel,
    fileLogLevel: 'off' as LogLevel,
  });
  return stryker.runMutationTest();
}

/** A mutated file's path from the repository root, as reports and mutate ranges name it. */
const repoPath = (fileName: string) => fileName.slice(ROOT.length + 1);

const sameMutant = (a: Result, b: Result) =>
  a.fileName === b.fileName &&
  a.mutatorName === b.mutatorName &&
  a.replacement === b.replacement &&
  a.location.start.line === b.location.start.line &&
  a.location.start.column === b.location.start.column;

/**
 * A "hybrid" static mutant (its code runs when a module loads, e.g. a schema or a table, and again inside tests) is
 * run by the first pass with only the tests that cover it and switched on at run time, after the module loaded: a
 * mutated module-level value is then never seen, and the mutant survives whatever the tests say. Those survivors
 * are run again here the faithful way: every test of the module, with the modules reloaded and the mutant on.
 */
async function rerunStaticSurvivors(first: Result[], slug: string, run: RunOptions): Promise<Result[]> {
  const suspects = first.filter((r) => r.static === true && r.status === 'Survived');
  if (suspects.length === 0) return first;
  // report positions are 1-based; a mutate range takes 1-based lines and 0-based columns
  const ranges = suspects.map(
    ({ fileName, location: { start, end } }) =>
      `${repoPath(fileName)}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`,
  );
  // kept too (`<module>-static.json`): a survivor whose code and tests did not change keeps its verdict of last time
  const second = await strykerRun([...new Set(ranges)], `${slug}-static`, run, {
    ignoreStatic: false,
    incremental: run.incremental,
  });
  return first.map((r) => {
    if (!suspects.includes(r)) return r;
    return second.find((again) => sameMutant(again, r)) ?? r;
  });
}

/** Every mutant's verdict, in .stryker-tmp/ (not kept), to compare two runs mutant by mutant (README.md). */
function writeVerdicts(slug: string, results: Result[], run: RunOptions): void {
  const lines = results.map((r) => {
    const place = `${repoPath(r.fileName)}:${r.location.start.line}:${r.location.start.column}`;
    const why = r.status === 'Survived' ? '' : ` ${JSON.stringify((r.statusReason ?? '').slice(0, 300))}`;
    return `${place} ${r.mutatorName} ${JSON.stringify(r.replacement ?? '')} ${r.status}${why}`;
  });
  const file = resolve(ROOT, '.stryker-tmp', `verdicts-${slug}${run.freshForks ? '-fresh' : ''}.txt`);
  mkdirSync(resolve(ROOT, '.stryker-tmp'), { recursive: true });
  writeFileSync(file, `${lines.sort().join('\n')}\n`);
}

async function runModule(
  module: MutationModule,
  equivalents: Equivalent[],
  run: RunOptions,
): Promise<ModuleScore> {
  const slug = module.name.replaceAll('/', '-');
  process.env.MUTATION_TESTS = module.tests.join(',');
  process.env.MUTATION_TEST_TIMEOUT = String(module.testTimeoutMs ?? '');
  hangTimeoutMs = module.hangTimeoutMs ?? 10_000;
  const started = performance.now();
  const first = await strykerRun(run.files ?? module.mutate, slug, run, {
    // A static mutant (a module-level constant) is reached by every test, so Stryker runs them all for it: too slow
    // for the 20-minute budget on 2 cores. They are reported as ignored, not counted (README.md).
    ignoreStatic: run.coverage === 'perTest',
    // The verdicts kept in bench/results/mutation-incremental/<module>.json (in git) are reused for mutants whose
    // code and tests did not change since (Stryker's incremental mode), and the file is rewritten; `--full` runs all
    incremental: run.incremental,
  });
  const results = run.coverage === 'perTest' ? await rerunStaticSurvivors(first, slug, run) : first;
  const seconds = Math.round((performance.now() - started) / 1000);
  writeVerdicts(slug, results, run);
  const count = (status: string) => results.filter((r) => r.status === status).length;
  const undetected = results.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage');
  const isEquivalent = (r: (typeof results)[number]) =>
    equivalents.some(
      (e) => r.fileName.endsWith(e.file) && e.line === r.location.start.line && e.mutator === r.mutatorName,
    );
  const equivalent = undetected.filter(isEquivalent).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const detected = killed + timeout;
  const valid = detected + undetected.length - equivalent;
  return {
    module: module.name,
    mutants: results.length,
    killed,
    timeout,
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    equivalent,
    errors: count('CompileError') + count('RuntimeError'),
    score: valid === 0 ? 100 : Math.round((detected / valid) * 1000) / 10,
    seconds,
    surviving: undetected
      .filter((r) => !isEquivalent(r))
      .map(
        (r) => `${repoPath(r.fileName)}:${r.location.start.line} ${r.mutatorName} → ${r.replacement ?? ''}`,
      ),
  };
}

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    // `--coverage all` runs every selected test file for every mutant: the cross-check of per-test selection
    coverage: { type: 'string', default: 'perTest' },
    files: { type: 'string' },
    // every mutant again, not only those whose code or tests changed since the kept verdicts
    full: { type: 'boolean', default: false },
    'fresh-forks': { type: 'boolean', default: false },
  },
});
const only = values.only?.split(',');
const selected = only ? MODULES.filter((m) => only.includes(m.name)) : MODULES;
if (selected.length === 0)
  throw new Error(`no module named ${values.only}; modules: ${MODULES.map((m) => m.name)}`);
const equivalents = readEquivalents(
  readFileSync(resolve(import.meta.dirname, 'equivalent-mutants.md'), 'utf8'),
);
process.chdir(ROOT);
mkdirSync(resolve(RESULTS, 'mutation'), { recursive: true });

const scores: ModuleScore[] = [];
const run: RunOptions = {
  concurrency: Number(values.concurrency),
  coverage: values.coverage === 'all' ? 'all' : 'perTest',
  files: values.files?.split(','),
  // A partial run (one file, every test, fresh forks: cross-checks) neither reads nor rewrites the kept verdicts: it
  // would replace a module's report with a part of it.
  incremental:
    !values.full && values.files === undefined && values.coverage !== 'all' && !values['fresh-forks'],
  freshForks: values['fresh-forks'],
};
/** Writes the summary, this run's modules replacing their previous figures (a partial run keeps the others). */
function writeSummary(): void {
  const summaryPath = resolve(RESULTS, 'mutation.json');
  let previous: ModuleScore[] = [];
  try {
    previous = JSON.parse(readFileSync(summaryPath, 'utf8')).modules;
  } catch {}
  const merged = [...previous.filter((p) => !scores.some((s) => s.module === p.module)), ...scores].sort(
    (a, b) => MODULES.findIndex((m) => m.name === a.module) - MODULES.findIndex((m) => m.name === b.module),
  );
  writeFileSync(
    summaryPath,
    `${JSON.stringify({ date: new Date().toISOString(), modules: merged }, null, 2)}\n`,
  );
}

// The summary is written after each module, so an interrupted run keeps the modules it finished. A module whose
// run fails (e.g. a test that fails before any mutant) is reported at the end; the others still run.
const startedAll = performance.now();
const failed: string[] = [];
// What the tests start (PostgreSQL, Redis) is recorded in this run's directory and stopped when the run ends, is
// interrupted or fails, as `npm test` does (testing/processes.ts): a test process Stryker ends runs no cleanup.
const runDir = sweptRunDir();
for (const module of selected) {
  try {
    scores.push(await runModule(module, equivalents, run));
  } catch (error) {
    failed.push(`${module.name}: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  if (!run.files) writeSummary();
}
const swept = await runDir.done();
if (swept.length > 0)
  process.stdout.write(`
stopped what the tests left running: ${swept.join(', ')}
`);

process.stdout.write(
  '\nmodule            score  killed+timeout / mutants (survived, no coverage, equivalent)   time\n',
);
for (const s of scores) {
  process.stdout.write(
    `${s.module.padEnd(17)} ${`${s.score}%`.padStart(6)}  ${s.killed + s.timeout} / ${s.mutants} (${s.survived}, ${s.noCoverage}, ${s.equivalent})   ${s.seconds} s\n`,
  );
}
for (const s of scores) {
  if (s.surviving.length === 0) continue;
  process.stdout.write(`\nsurviving in ${s.module}:\n${s.surviving.map((line) => `  ${line}`).join('\n')}\n`);
}
process.stdout.write(`\nwhole run: ${Math.round((performance.now() - startedAll) / 1000)} s\n`);
if (failed.length > 0) {
  process.stdout.write(`\nmodules that did not run:\n${failed.map((line) => `  ${line}`).join('\n')}\n`);
  process.exitCode = 1;
}
