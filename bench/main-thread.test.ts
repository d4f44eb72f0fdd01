import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/support/browser.ts';
import { traceMainThread } from './main-thread.ts';

let browser: Browser;
let server: Server;
let origin: string;

// /work keeps the main thread busy for 400 ms; /wait blocks it 400 ms on a synchronous request to /slow.
const pages: Record<string, string> = {
  '/work': '<script>const end = performance.now() + 400; while (performance.now() < end);</script>',
  '/wait':
    "<script>const x = new XMLHttpRequest(); x.open('GET', '/slow', false); x.send(); document.title = x.responseText;</script>",
};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('done'), 400);
    else
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>${pages[req.url ?? ''] ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function longTasksOn(path: string) {
  const page = await browser.newPage();
  const stop = await traceMainThread(page);
  await page.goto(`${origin}${path}`);
  const tasks = await stop();
  await page.close();
  return tasks;
}

describe('traceMainThread', () => {
  it("reports a task that keeps the page's main thread busy 400 ms as long, and mostly run", async () => {
    const tasks = await longTasksOn('/work');
    expect(tasks.some((task) => task.wallMs >= 400 && task.cpuMs >= 50)).toBe(true);
  });

  it('reports a task that waits 400 ms as long, but not run: the wait is not the page’s work', async () => {
    const tasks = await longTasksOn('/wait');
    const waiting = tasks.filter((task) => task.wallMs >= 400);
    expect(waiting).not.toEqual([]);
    expect(waiting.every((task) => task.cpuMs < 50)).toBe(true);
  });
});
