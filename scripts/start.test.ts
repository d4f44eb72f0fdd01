import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { recordChild } from '../testing/processes.ts';

const ROOT = new URL('..', import.meta.url).pathname;
let running: ChildProcess | undefined;

afterEach(() => {
  if (running && running.exitCode === null) running.kill('SIGKILL');
});

function start(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let text = '';
  // Its own process group, recorded: were this test killed, the sandbox and BFF it started would go with it.
  const child = recordChild(
    spawn(process.execPath, ['scripts/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
    'npm start',
    { group: true },
  );
  child.stdout?.on('data', (chunk) => (text += chunk));
  child.stderr?.on('data', (chunk) => (text += chunk));
  running = child;
  return { child, output: () => text };
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('npm start', () => {
  it('starts the sandbox and the BFF, prints URLs that answer, and leaves nothing behind on Ctrl-C', async () => {
    const { child, output } = start({
      SANDBOX_PORT: '0',
      BFF_PORT: '0',
      BFF_DATA_DIR: `/tmp/start-test-${process.pid}`,
    });
    await expect.poll(output, { timeout: 30_000 }).toContain('Ctrl-C stops everything');
    const urls = [...output().matchAll(/https?:\/\/127\.0\.0\.1:\d+[^\s"]*/g)].map((m) => m[0]);
    const pages = urls.filter((url) =>
      /\/(demo\/|demo\/product\.html|demo\/cart\.html|demo\/checkout\.html|track\?codes=)/.test(url),
    );
    expect(pages).toHaveLength(5);
    for (const url of new Set(pages)) expect((await fetch(url)).status, url).toBe(200);
    // The demo store's name on /track, as in the README's picture of the tracking page.
    const track = pages.find((url) => url.includes('/track?'));
    expect(await (await fetch(String(track))).text()).toContain('<span class="store-name">Loja Demo</span>');
    const token = /Agent token\s+(\S+)/.exec(output())?.[1];
    const mcp = /MCP for agents\s+(\S+)/.exec(output())?.[1];
    const sandbox = /Sandbox\s+(\S+)/.exec(output())?.[1];
    expect(token).toBeTruthy();
    expect((await fetch(`${sandbox}/openapi.json`)).status).toBe(200);
    // The demo's emulated checkouts call the BFF: npm start registered its callbacks with the sandbox.
    expect(output()).not.toContain('[checkout]');
    expect(output()).not.toContain('[stores]');
    for (const path of ['shopify/loja-demo.myshopify.com', 'nuvemshop/1001']) {
      const quote = await fetch(`${sandbox}/_sandbox/checkouts/${path}/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          cart: { items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }] },
          destination: { postalCode: '20040-020' },
        }),
      });
      expect(await quote.json()).toMatchObject({
        source: 'callback',
        options: [{ code: 'correios-pac' }, {}],
      });
    }
    const list = await fetch(String(mcp), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    expect(JSON.stringify(await list.json())).toContain('generate_label');
    // OAuth: the printed admin password, and both servers' metadata name their own /mcp as the resource.
    expect(/Admin password\s+(\S+)/.exec(output())?.[1]?.length).toBeGreaterThanOrEqual(12);
    // The label desk: its page (the login form first) and its script, built with the widget.
    const desk = /Label desk\s+(\S+)/.exec(output())?.[1];
    expect(await (await fetch(String(desk))).text()).toContain('Senha do lojista');
    expect((await fetch(`${new URL(String(desk)).origin}/admin/assets/desk.js`)).status).toBe(200);
    for (const url of [String(mcp), `${sandbox}/mcp`]) {
      const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
      expect(((await metadata.json()) as { resource: string }).resource).toBe(url);
    }

    const kids = childrenOf(child.pid ?? 0);
    expect(kids.length).toBeGreaterThanOrEqual(2);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
    await expect.poll(() => kids.filter(alive).length, { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('says clearly when a port is already in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { child, output } = start({ SANDBOX_PORT: '0', BFF_PORT: String(port) });
      expect(await exited(child)).toBe(1);
      expect(output()).toContain(`port ${port} is already in use`);
      expect(output()).toContain('BFF_PORT');
    } finally {
      blocker.close();
    }
  }, 30_000);
});
