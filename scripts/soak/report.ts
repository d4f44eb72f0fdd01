/** One run of the command: how it ended, how long it took, what failed, where its output is. */
export interface RunResult {
  run: number;
  exitCode: number | null;
  seconds: number;
  failures: string[];
  log: string;
  /** Busy loops (of `--stress`) that ended during the run: a run with any is not a stressed run. */
  loopsEnded?: number;
}

/** Whether a run lost a busy loop before its end (not a stressed run). */
export const unstressed = (result: RunResult) => (result.loopsEnded ?? 0) > 0;

/** The line (and the failing tests' lines below it) printed after each run. */
export function runLine(result: RunResult, runs: number): string {
  const number = String(result.run).padStart(String(runs).length);
  const loops = unstressed(result)
    ? `  (${result.loopsEnded} busy loop(s) ended during the run: not a stressed run)`
    : '';
  const head = `run ${number}/${runs}  ${result.exitCode === 0 ? 'pass' : 'FAIL'}  ${result.seconds.toFixed(1)} s${loops}`;
  if (result.exitCode === 0) return head;
  const named =
    result.failures.length > 0
      ? result.failures.map((name) => `    ${name}`)
      : ['    no failing test named (typecheck, lint or build?)'];
  return [`${head}  exit ${result.exitCode ?? 'by signal'}  ${result.log}`, ...named].join('\n');
}

/** The closing summary: passes out of runs, and each failing test seen with how many runs it failed in. */
export function summary(results: readonly RunResult[], stress: string): string {
  const passed = results.filter((result) => result.exitCode === 0).length;
  const lines = [`${passed}/${results.length} runs passed${stress}`];
  const broken = results.filter(unstressed).map((result) => result.run);
  if (broken.length > 0)
    lines.push(`runs ${broken.join(', ')} lost a busy loop before their end: not stressed runs`);
  const seen = new Map<string, number>();
  for (const result of results) for (const name of result.failures) seen.set(name, (seen.get(name) ?? 0) + 1);
  if (seen.size > 0) {
    lines.push('failing tests seen (runs):');
    for (const [name, count] of [...seen].sort((a, b) => b[1] - a[1])) lines.push(`  ${count}× ${name}`);
  }
  const unnamed = results.filter((result) => result.exitCode !== 0 && result.failures.length === 0).length;
  if (unnamed > 0) lines.push(`${unnamed} failed run(s) named no test: see their logs`);
  return lines.join('\n');
}
