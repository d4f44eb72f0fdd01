/**
 * `npm run bench`: every figure is the median of several repetitions, every comparison measured side by side in
 * this run; all traffic on 127.0.0.1. Prints a table and writes bench/results/latest.json (not tracked: the figures
 * the README cites are kept in a dated bench/results/<date>.md).
 * `npm run bench -- --only <step>` (e.g. `labels`) measures one step and keeps the other figures of latest.json.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { closeLeftovers } from '../testing/processes.ts';
import { measureBrowser } from './browser.ts';
import { measureCheckoutStorm, measureQuoteFairShare } from './checkout.ts';
import { measureCoalescing } from './coalescing.ts';
import { measureFairShare } from './fair-share.ts';
import { measureSandboxRates, measureTrackingHop } from './http.ts';
import { measureLabelSoak, measureLabelsUnderLoad } from './labels.ts';
import { measureMcp } from './mcp.ts';
import { measureNotifications } from './notifications.ts';
import { measurePacking } from './packing.ts';
import { childrenLeft } from './processes.ts';
import { measurePromise } from './promise.ts';
import { measureRules } from './rules.ts';
import { measureSize } from './size.ts';
import type { Figure } from './stats.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const out = (line = '') => process.stdout.write(`${line}\n`);

const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

const started = Date.now();
const steps: [string, () => Promise<Figure | Figure[]>][] = [
  ['bundle size', measureSize],
  ['browser timing', () => measureBrowser()],
  ['tracking hop', () => measureTrackingHop()],
  ['coalescing', () => measureCoalescing()],
  ['MCP through the BFF', () => measureMcp()],
  ['sandbox throughput', () => measureSandboxRates()],
  ['labels', () => measureLabelSoak()],
  ['labels under load', () => measureLabelsUnderLoad()],
  ['packing', () => measurePacking()],
  ['fair share', () => measureFairShare()],
  ['notifications', () => measureNotifications()],
  ['checkout', async () => [await measureCheckoutStorm(), await measureQuoteFairShare()]],
  ['promise', () => measurePromise()],
  ['rules', () => measureRules()],
];
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
if (only !== undefined && !steps.some(([name]) => name === only)) {
  out(`unknown step "${only}": one of ${steps.map(([name]) => name).join(', ')}`);
  process.exit(2);
}
const LATEST = `${ROOT}bench/results/latest.json`;
const previous: Figure[] =
  only && existsSync(LATEST)
    ? (JSON.parse(readFileSync(LATEST, 'utf8')) as { figures: Figure[] }).figures
    : [];
const figures: Figure[] = [];
for (const [name, step] of steps) {
  if (only && name !== only) continue;
  out(`… ${name}`);
  figures.push(...[await step()].flat());
}
for (const kept of previous) if (!figures.some((f) => f.id === kept.id)) figures.push(kept);
figures.sort((a, b) => a.id - b.id);

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
const result = {
  date: new Date().toISOString(),
  machine,
  durationS: Math.round((Date.now() - started) / 1000),
  figures,
};
mkdirSync(`${ROOT}bench/results`, { recursive: true });
writeFileSync(LATEST, `${JSON.stringify(result, null, 2)}\n`);

out();
out(
  `Benchmarks, ${result.date.slice(0, 10)} — ${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}`,
);
out();
out('| # | figure | measured | compared with | goal | met |');
out('|---|---|---|---|---|---|');
for (const f of figures)
  out(`| ${f.id} | ${f.figure} | ${f.value} | ${f.comparedWith} | ${f.goal} | ${f.met ? 'yes' : '**no**'} |`);
out();
out(`Written to bench/results/latest.json (${result.durationS} s).`);

// Nothing is left running, as npm test's sweep checks: a server of the test harness a step did not close, a process
// a step started (Chromium, a BFF) — each stopped and named, and the run exits 1. Then the event loop must empty: if
// anything still holds it 10 s later, it is named and the process exits (1) rather than run on.
const servers = await closeLeftovers();
const children = childrenLeft();
for (const { pid } of children) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}
if (servers > 0 || children.length > 0) {
  out(
    `bench: stopped what a step left running: ${[
      ...(servers > 0 ? [`${servers} test server(s)`] : []),
      ...children.map(({ pid, command }) => `${command} (pid ${pid})`),
    ].join(', ')}`,
  );
  process.exitCode = 1;
}
setTimeout(() => {
  out(`bench: still running 10 s after its table, held by: ${process.getActiveResourcesInfo().join(', ')}`);
  process.exit(1);
}, 10_000).unref();
