import type { Page } from 'playwright-core';
import { z } from 'zod';

/** A task of a page's main thread over 50 ms (a long task): its length and how much of it the thread ran. */
export type MainThreadTask = { wallMs: number; cpuMs: number };

/** The fields of a Chromium trace event read here: durations in microseconds, `tdur` the thread's own time. */
const TraceEventSchema = z.object({
  name: z.string(),
  ph: z.string(),
  pid: z.number(),
  tid: z.number(),
  dur: z.number().optional(),
  tdur: z.number().optional(),
  args: z.object({ name: z.unknown() }).partial().optional(),
});
type TraceEvent = z.infer<typeof TraceEventSchema>;

/** Chromium's own threshold for a long task (the Long Tasks API). */
export const LONG_TASK_MS = 50;

/**
 * Traces Chromium's `toplevel` category (each task a thread runs, with its wall and thread CPU time) until the
 * returned function is called, which gives the long tasks of the renderers' main threads. A long task whose thread
 * ran for far less than its length was not the page's work: the thread waited — for a CPU on a loaded machine, or a
 * synchronous call — and the Long Tasks API, which sees only wall time, counts it all the same.
 */
export async function traceMainThread(page: Page): Promise<() => Promise<MainThreadTask[]>> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => {
    for (const event of value) {
      const parsed = TraceEventSchema.safeParse(event);
      if (parsed.success) events.push(parsed.data);
    }
  });
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    return longTasksOf(events);
  };
}

function longTasksOf(events: TraceEvent[]): MainThreadTask[] {
  const mainThreads = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'ThreadControllerImpl::RunTask' &&
        mainThreads.has(`${e.pid}:${e.tid}`) &&
        (e.dur ?? 0) / 1000 > LONG_TASK_MS,
    )
    .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
}
