import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSandboxConfig } from '../sandbox/config.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { recordChild } from '../testing/processes.ts';
import { parseConfig } from './config.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const START = join(ROOT, 'bff/start.js');
const OLD_NODE = '/usr/bin/node';

let sandbox: RunningSandbox;
const children: ChildProcess[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await sandbox.close();
});

/** Starts `node bff/start.js` in `cwd`; resolves with the URL it logs, or with its exit code and output. */
function launch(
  cwd: string,
  env: Record<string, string>,
): Promise<{ url?: string; code?: number | null; output: string }> {
  const child = recordChild(
    spawn(process.execPath, [START], {
      cwd,
      // Only what a service manager would pass: no variable of this test process leaks in.
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    'npm run bff',
  );
  children.push(child);
  let output = '';
  return new Promise((resolve) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        output += `${line}\n`;
        const url = /BFF listening on (http:\/\/[^"\s]+)/.exec(line)?.[1];
        if (url) resolve({ url, output });
      });
    }
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

describe('bff/start.js (npm run bff)', () => {
  it.skipIf(
    !existsSync(OLD_NODE) ||
      Number(spawnSync(OLD_NODE, ['-p', 'process.versions.node.split(".")[0]']).stdout) >= 24,
  )('refuses an older Node with a clear message and exit 1, before any TypeScript loads', () => {
    const run = spawnSync(OLD_NODE, [START], {
      cwd: mkdtempSync(join(tmpdir(), 'bff-old-')),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^frete-kit BFF: Node 24 or newer is required .*this is Node 20\.\d+\.\d+ at \/usr\/bin\/node\./,
    );
    expect(run.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|\n\s+at /);
  });

  it('runs on this Node 24 and reads .env from the working directory; the environment wins over the file', async () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    const cwd = mkdtempSync(join(tmpdir(), 'bff-env-'));
    writeFileSync(
      join(cwd, '.env'),
      [
        '# a comment, then values the BFF can only have from this file',
        'SHIPPING_SECRET_KEY=mk_test_demo',
        'BFF_PORT=0',
        `BFF_DATA_DIR=${join(cwd, 'ledger')}`,
        'SHIPPING_API_URL=http://127.0.0.1:9',
      ].join('\n'),
    );
    const started = await launch(cwd, { SHIPPING_API_URL: sandbox.url });
    try {
      expect(started.url, started.output).toBeDefined();
      const ready = await fetch(`${started.url}/readyz`);
      expect(ready.status).toBe(200); // the upstream came from the environment, not the file's dead port
      expect(existsSync(join(cwd, 'ledger', 'labels.sqlite'))).toBe(true);
      expect(started.output).not.toMatch(/mk_test_demo/);

      // systemd stops the service with SIGTERM: the BFF closes and exits 0 (so Restart=on-failure leaves it stopped).
      const child = children.at(-1);
      const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
      child?.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      stopAll();
    }
  });

  it('without .env and without the secret key, exits 1 naming the variable', async () => {
    const result = await launch(mkdtempSync(join(tmpdir(), 'bff-noenv-')), { BFF_PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('SHIPPING_SECRET_KEY is required');
  });

  it('exits 1 naming the variable when .env holds a wrong value, and never echoes the secret', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bff-bad-'));
    writeFileSync(join(cwd, '.env'), 'SHIPPING_SECRET_KEY=mk_live_secret_value_1\nBFF_TRUST_PROXY=yes\n');
    const result = await launch(cwd, { BFF_PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('BFF_TRUST_PROXY must be false, a number of proxy hops');
    expect(result.output).not.toContain('mk_live_secret_value_1');
  });
});

describe('bff/start.js and an unreadable .env', () => {
  it('exits 1 with a plain message, not a stack trace', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bff-envdir-'));
    mkdirSync(join(cwd, '.env'));
    const result = await launch(cwd, { SHIPPING_SECRET_KEY: 'mk_test_demo', BFF_PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^frete-kit BFF: cannot read \.env: /);
    expect(result.output).not.toMatch(/\n\s+at /);
  });
});

describe('.env.example', () => {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  const configured = (file: string) =>
    new Set(readFileSync(join(ROOT, file), 'utf8').match(/\b(?:BFF|SHIPPING|SANDBOX)_[A-Z_]+[A-Z]\b/g));

  it('documents every variable that bff/config.ts and sandbox/config.ts read', () => {
    const names = [...configured('bff/config.ts'), ...configured('sandbox/config.ts')];
    expect(names.length).toBeGreaterThan(20);
    const missing = names.filter((name) => !new RegExp(`^(# )?${name}=`, 'm').test(text));
    expect(missing).toEqual([]);
  });

  it('is refused as it is (placeholders, issue 48), and parses filled in, with every commented example line switched on', () => {
    expect(() => parseConfig(parseEnv(text))).toThrow(
      /^SHIPPING_SECRET_KEY is refused: it holds a placeholder/,
    );
    // Each placeholder filled in as an operator would (same length, so each value's format still holds).
    const filled = text.replaceAll('REPLACE', 'Kx9Qz7w');
    expect(() => parseConfig(parseEnv(filled))).not.toThrow();
    const all = parseEnv(filled.replace(/^# ([A-Z_]+=)/gm, '$1'));
    expect(Object.keys(all).length).toBeGreaterThan(20);
    expect(() => parseConfig(all)).not.toThrow();
    expect(() => parseSandboxConfig(all)).not.toThrow();
    expect(parseConfig(all).trustProxy).toEqual(['loopback']);
  });
});
