import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtCalculatorApp } from '../bff/static/calculator-app.ts';
import { closeSharedBrowser, launchBrowser } from '../e2e/support/browser.ts';
import { startSandbox } from '../sandbox/testing.ts';
import { LONG_TASK_MS, type MainThreadTask, traceMainThread } from './main-thread.ts';
import { type Figure, median, round } from './stats.ts';

const ROOT = new URL('..', import.meta.url).pathname;

/**
 * A bare page that measures the calculator from inside Chromium: when the element is defined (its first render is
 * done in that task) and the next animation frame (painted); for the options, a MutationObserver notes when they are
 * in the DOM and the next frame when they are painted; long tasks are counted from the script's arrival on, each
 * attributed to the moment of the load it came in and, from a trace of the main thread, to how much of it ran.
 */
function page(apiUrl: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>bench</title>
<script>
window.__bench = { longTasks: [] };
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
const realFetch = window.fetch;
window.fetch = async (...args) => { const res = await realFetch(...args); window.__bench.responseAt = performance.now(); return res; };
</script></head><body>
<shipping-calculator items='[{"name":"x","quantity":1,"unitPriceBRL":50}]' remember-cep="false"></shipping-calculator>
<script>
const el = document.querySelector('shipping-calculator');
const s = document.createElement('script');
s.src = '/shipping-widget.js'; s.dataset.apiUrl = ${JSON.stringify(apiUrl)}; s.dataset.publicKey = 'pk_test_demo';
document.body.append(s);
// define() upgrades the element and renders it in the same task; the next frame is the first paint with it.
customElements.whenDefined('shipping-calculator').then(() => {
  window.__bench.defined = performance.now();
  requestAnimationFrame(() => { window.__bench.firstFrame = performance.now(); });
});
</script></body></html>`;
}

export async function measureBrowser(repetitions = 11): Promise<Figure> {
  const sandbox = await startSandbox({ rateLimit: { calls: 100_000, seconds: 60 } });
  const bundle = Buffer.concat([
    Buffer.from('window.__bench.execStart = performance.now();\n'),
    readFileSync(`${ROOT}dist/widget/shipping-widget.js`),
  ]);
  const html = page(sandbox.url);
  // The floor: an element that only attaches a shadow root with one input, loaded and measured the same way.
  const baseline = Buffer.from(
    `window.__bench.execStart = performance.now();
customElements.define('shipping-calculator', class extends HTMLElement {
  connectedCallback() { const root = this.attachShadow({ mode: 'open' }); const input = document.createElement('input'); root.append(input); }
});`,
  );
  const appName = builtCalculatorApp(`${ROOT}dist/widget`);
  const app = readFileSync(`${ROOT}dist/widget/${appName}`);
  const server = createServer((req, res) => {
    // the calculator's second script, which its first loads after the first paint
    if (req.url === `/${appName}`) res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else if (req.url === '/shipping-widget.js')
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else if (req.url === '/baseline.js')
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(baseline);
    else if (req.url === '/baseline')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(html.replace("'/shipping-widget.js'", "'/baseline.js'"));
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  const firstPaint: number[] = [];
  const optionsPaint: number[] = [];
  const optionsWork: number[] = [];
  const longTasks: number[] = [];
  const longTaskMs: number[] = [];
  const segments: Record<string, number>[] = [];
  const baselinePaint: number[] = [];
  const attribution: LongTaskAttribution[] = [];
  const floorLongTasks: number[] = [];
  try {
    for (let i = 0; i < repetitions; i++) {
      const floor = await browser.newContext();
      const floorTab = await floor.newPage();
      // traced as the calculator is, so that the trace's cost is in both sides of the ratio
      const stopFloorTrace = await traceMainThread(floorTab);
      await floorTab.goto(`${origin}/baseline`);
      await floorTab.waitForFunction(
        () => (window as unknown as { __bench: { firstFrame?: number } }).__bench.firstFrame,
      );
      baselinePaint.push(
        await floorTab.evaluate(() => {
          const entry = performance
            .getEntriesByType('resource')
            .find((e) => e.name.endsWith('/baseline.js')) as PerformanceResourceTiming;
          return (
            ((window as unknown as { __bench: { firstFrame: number } }).__bench.firstFrame ?? 0) -
            entry.responseEnd
          );
        }),
      );
      // the empty element's long tasks up to its first paint, after the frame that ends it has been reported
      floorLongTasks.push(
        await floorTab.evaluate(async () => {
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
          const arrived = performance
            .getEntriesByType('resource')
            .find((e) => e.name.endsWith('/baseline.js')) as PerformanceResourceTiming;
          const bench = (
            window as unknown as { __bench: { longTasks: [number, number][]; firstFrame: number } }
          ).__bench;
          return bench.longTasks.filter(
            ([start, duration]) => start + duration >= arrived.responseEnd && start <= bench.firstFrame,
          ).length;
        }),
      );
      await stopFloorTrace();
      await floor.close();
      const context = await browser.newContext();
      const tab = await context.newPage();
      const stopTrace = await traceMainThread(tab);
      await tab.goto(`${origin}/`);
      type Bench = {
        firstFrame?: number;
        optionsDom?: number;
        optionsFrame?: number;
        defined?: number;
        typedAt?: number;
        responseAt: number;
        longTasks: [number, number][];
      };
      await tab.waitForFunction(() => (window as unknown as { __bench: Bench }).__bench.firstFrame);
      const evalStart = await tab.evaluate(() => {
        const entry = performance
          .getEntriesByType('resource')
          .find((e) => e.name.endsWith('/shipping-widget.js')) as PerformanceResourceTiming;
        return entry.responseEnd;
      });
      const painted = await tab.evaluate(
        () => (window as unknown as { __bench: Bench }).__bench.firstFrame ?? 0,
      );
      firstPaint.push(painted - evalStart);
      segments.push(
        await tab.evaluate((start) => {
          const b = (window as unknown as { __bench: Record<string, number> }).__bench;
          return {
            exec: (b.execStart ?? 0) - start,
            defined: (b.defined ?? 0) - start,
            frame: (b.firstFrame ?? 0) - start,
          };
        }, evalStart),
      );
      await tab.evaluate(() => {
        const root = document.querySelector('shipping-calculator')?.shadowRoot as ShadowRoot;
        const bench = (window as unknown as { __bench: Record<string, number> }).__bench;
        const observer = new MutationObserver(() => {
          if (!root.querySelector('.option')) return;
          observer.disconnect();
          bench.optionsDom = performance.now();
          requestAnimationFrame(() => (bench.optionsFrame = performance.now()));
        });
        observer.observe(root, { childList: true, subtree: true });
      });
      await tab.evaluate(() => {
        (window as unknown as { __bench: Bench }).__bench.typedAt = performance.now();
      });
      await tab.locator('shipping-calculator input').fill('20040-020');
      await tab.locator('shipping-calculator input').press('Enter');
      await tab.waitForFunction(() => (window as unknown as { __bench: Bench }).__bench.optionsFrame);
      const timing = await tab.evaluate(() => (window as unknown as { __bench: Bench }).__bench);
      optionsWork.push((timing.optionsDom ?? 0) - timing.responseAt);
      optionsPaint.push((timing.optionsFrame ?? 0) - timing.responseAt);
      const ours = timing.longTasks.filter(([start, duration]) => start + duration >= evalStart);
      longTasks.push(ours.length);
      longTaskMs.push(...ours.map(([, duration]) => round(duration, 1)));
      const traced = await stopTrace();
      attribution.push(...ours.map((task) => attribute(i, task, timing, traced)));
      await context.close();
    }
  } finally {
    await browser.close();
    // The handle's close ends only its contexts; Chromium itself is closed here, or the bench never exits.
    await closeSharedBrowser();
    server.close();
    server.closeAllConnections();
    await sandbox.close();
  }
  const fp = median(firstPaint);
  const floor = median(baselinePaint);
  // Each repetition loads the empty element and then the widget: the ratio of the medians, and the median of the
  // ratios of each pair (the pair shares the moment's load on a shared machine).
  const ratio = fp / floor;
  const pairRatio = median(firstPaint.map((value, i) => value / (baselinePaint[i] ?? value)));
  const work = median(optionsWork);
  const op = median(optionsPaint);
  const lt = Math.max(...longTasks);
  const run = attribution.filter((task) => task.ranMs !== undefined && task.ranMs >= LONG_TASK_MS).length;
  return {
    id: 2,
    figure:
      'Chromium: script evaluation → first paint of the element; response → options rendered / painted; long tasks',
    value: `${round(fp, 1)} ms (${round(ratio, 2)}× the empty element; pairs ${round(pairRatio, 2)}×); ${round(work, 1)} ms / ${round(op, 1)} ms; ${lt}${attribution.length ? ` (${attribution.map(describeLongTask).join('; ')})` : ''}`,
    comparedWith: `an empty element with one input, loaded the same way, alternating with it: first paint ${round(floor, 1)} ms, long tasks up to it ${floorLongTasks.reduce((sum, count) => sum + count, 0)}`,
    goal: 'first paint ≤ 1.3× the empty element; options within one frame (16 ms); 0 long tasks',
    met: ratio <= 1.3 && work <= 16 && lt === 0,
    data: {
      repetitions,
      firstPaintRatio: round(ratio, 2),
      firstPaintPairRatio: round(pairRatio, 2),
      firstPaintMs: firstPaint.map((v) => round(v, 1)),
      baselineFirstPaintMs: baselinePaint.map((v) => round(v, 1)),
      optionsRenderedMs: optionsWork.map((v) => round(v, 1)),
      optionsPaintedMs: optionsPaint.map((v) => round(v, 1)),
      longTasks,
      longTaskMs,
      // each long task: the load, the moment (the first script, the first frame, the second script, the quote), its
      // length and how long the main thread ran in it (a trace's thread time; absent when no traced task matched)
      longTaskAttribution: attribution,
      // long tasks in which the main thread ran 50 ms or more: work of the page, not a wait for the machine
      longTasksRun: run,
      // long tasks up to the first paint: the calculator's page and the empty element's, loaded alternately
      firstPaintLongTasks: attribution.filter(
        (task) => task.moment !== 'second script' && task.moment !== 'quote',
      ).length,
      baselineFirstPaintLongTasks: floorLongTasks.reduce((sum, count) => sum + count, 0),
      firstPaintSegmentsMs: segments.map((seg) =>
        Object.fromEntries(Object.entries(seg).map(([k, v]) => [k, round(v, 1)])),
      ),
      note: 'painted = the first animation frame after the DOM is ready (vsync adds up to 16.7 ms)',
    },
  };
}

type LongTaskAttribution = {
  load: number;
  moment: 'first script' | 'first frame' | 'second script' | 'quote';
  wallMs: number;
  ranMs?: number;
};

/**
 * Where a long task came in the load (by the marks the page took) and how long its thread ran in it: the traced task
 * of the same length. A task the Long Tasks API counts, in which the thread ran only a few milliseconds, was a wait
 * (for a CPU, on a loaded machine), not the widget's work.
 */
function attribute(
  load: number,
  [start, duration]: [number, number],
  marks: { defined?: number; firstFrame?: number; typedAt?: number },
  traced: MainThreadTask[],
): LongTaskAttribution {
  const moment =
    start < (marks.defined ?? 0)
      ? 'first script'
      : start <= (marks.firstFrame ?? 0)
        ? 'first frame'
        : start < (marks.typedAt ?? 0)
          ? 'second script'
          : 'quote';
  const match = traced
    .filter((task) => Math.abs(task.wallMs - duration) <= 2)
    .sort((a, b) => Math.abs(a.wallMs - duration) - Math.abs(b.wallMs - duration))[0];
  const attributed: LongTaskAttribution = { load, moment, wallMs: round(duration, 1) };
  if (match) attributed.ranMs = round(match.cpuMs, 1);
  return attributed;
}

function describeLongTask(task: LongTaskAttribution): string {
  const ran = task.ranMs === undefined ? 'not traced' : `${task.ranMs} ms run`;
  return `${task.moment}: ${task.wallMs} ms, ${ran}`;
}
