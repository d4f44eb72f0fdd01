import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';

/**
 * The docs' "try it on the sandbox" blocks, run as written (issue 47): each block marked `<!-- tested: name -->` in the
 * pages below is run by bash from the repository's root against a sandbox this test starts, the BFF the block starts
 * on a free port (the block's `127.0.0.1:4010` and `127.0.0.1:4000` point at them), its data in a temporary directory.
 * What the block prints is what a reader sees.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const TRIED = [
  { page: 'docs/checkout/shopify.md', name: 'try-shopify', register: 'register-shopify' },
  { page: 'docs/checkout/nuvemshop.md', name: 'try-nuvemshop', register: 'register-nuvemshop' },
] as const;

/** The code block right after `<!-- tested: name -->` in `page`. */
function triedBlock(page: string, name: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`${page} has no block marked "tested: ${name}"`);
  return match[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Runs a block in its own process group (the BFF it starts in the background too), then ends the group. */
async function run(block: string, env: Record<string, string>, timeoutMs = 30_000) {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', block], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  try {
    process.kill(-(child.pid ?? 0), 'SIGTERM');
  } catch {
    // The group has ended already.
  }
  return { code, stdout, stderr };
}

/** Starts a block that runs a server in the foreground, waits for its `/readyz`, then ends its process group. */
async function serve(block: string, env: Record<string, string>, readyz: string, timeoutMs = 30_000) {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', block], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let status = 0;
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && status !== 200; ) {
      status = await fetch(readyz)
        .then((res) => res.status)
        .catch(() => 0);
      // Polling a server another process starts: its start takes real time, nothing else tells when it is up.
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    try {
      process.kill(-(child.pid ?? 0), 'SIGTERM');
    } catch {
      // The group has ended already.
    }
    await exited;
  }
  return status;
}

const UcpOptionsSchema = z.looseObject({
  options: z.array(z.looseObject({ id: z.string(), title: z.string() })),
});

const QuoteSchema = z.looseObject({
  source: z.string(),
  options: z.array(z.looseObject({ code: z.string(), amountCents: z.int() })),
});

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the "try it on the sandbox" blocks of the docs, as written', () => {
  for (const { page, name } of TRIED) {
    it(`${page} (${name}): starts the BFF, registers it and gets the checkout's options from its callback`, async () => {
      const port = await freePort();
      const block = triedBlock(page, name)
        .replaceAll('http://127.0.0.1:4010', sandbox.url)
        .replaceAll('http://127.0.0.1:4000', `http://127.0.0.1:${port}`);
      const { code, stdout, stderr } = await run(block, {
        // The defaults the block relies on (`npm run sandbox` on 4010, the BFF on 4000), pointed at this test's.
        SHIPPING_API_URL: sandbox.url,
        BFF_PORT: String(port),
        BFF_DATA_DIR: mkdtempSync(join(tmpdir(), `try-${name}-`)),
      });
      expect(code, `${stdout}\n${stderr}`.slice(-3000)).toBe(0);
      const quote = QuoteSchema.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
      expect(quote.source).toBe('callback');
      expect(quote.options.map((option) => option.code)).toContain('correios-pac');
    }, 120_000);
  }

  for (const { page, name, register } of TRIED) {
    it(`${page} (${name}'s exports, then ${register}): registers, says its status, removes it, twice over`, async () => {
      // A sandbox of its own: the block above registered its BFF's callback (another port) under the same name.
      const own = await startSandbox();
      try {
        // The try block's exports (the store, its token, the app's secret), then the page's "Register, check, remove".
        const exports = triedBlock(page, name).split('npm run bff &')[0] ?? '';
        const block = `${exports}\n${triedBlock(page, register)}`.replaceAll(
          'http://127.0.0.1:4010',
          own.url,
        );
        const env = { SHIPPING_API_URL: own.url, BFF_DATA_DIR: mkdtempSync(join(tmpdir(), `${register}-`)) };
        for (const round of ['first', 'again, after the removal']) {
          const { code, stdout, stderr } = await run(block, env);
          expect(code, `${round}: ${stdout}\n${stderr}`.slice(-3000)).toBe(0);
        }
      } finally {
        await own.close();
      }
    }, 120_000);
  }

  it('docs/checkout/agentic.md (try-agentic): starts the BFF with a checkout token and gets the UCP options', async () => {
    const port = await freePort();
    const block = triedBlock('docs/checkout/agentic.md', 'try-agentic').replaceAll(
      'http://127.0.0.1:4000',
      `http://127.0.0.1:${port}`,
    );
    const { code, stdout, stderr } = await run(block, {
      SHIPPING_API_URL: sandbox.url,
      BFF_PORT: String(port),
      BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'try-agentic-')),
    });
    expect(code, `${stdout}\n${stderr}`.slice(-3000)).toBe(0);
    const answer = UcpOptionsSchema.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
    expect(answer.options.map((option) => option.id)).toContain('correios-pac');
  }, 120_000);

  it('docs/configuration.md (try-bff): starts the BFF against a running sandbox, ready', async () => {
    const port = await freePort();
    const status = await serve(
      triedBlock('docs/configuration.md', 'try-bff'),
      {
        SHIPPING_API_URL: sandbox.url,
        BFF_PORT: String(port),
        BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'try-bff-')),
      },
      `http://127.0.0.1:${port}/readyz`,
    );
    expect(status).toBe(200);
  }, 60_000);
});
