import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = new URL('..', import.meta.url).pathname;

export interface Process {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs a server entrypoint in its own Node process (as in production: the load generator, the BFF and the sandbox
 * do not share one event loop) and resolves with the URL it logs once listening.
 */
export function startProcess(script: string, env: Record<string, string>): Promise<Process> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 20_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { url?: string };
        if (entry.url) {
          clearTimeout(timer);
          resolve({
            url: entry.url,
            stop: () =>
              new Promise<void>((done) => {
                if (child.exitCode !== null) return done();
                child.once('exit', () => done());
                child.kill('SIGTERM');
              }),
          });
        }
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

export const startSandboxProcess = (rateLimit = '10000000/60') =>
  startProcess('sandbox/main.ts', {
    SANDBOX_PORT: '0',
    SANDBOX_RATE_LIMIT: rateLimit,
    SANDBOX_LABEL_PDF_DELAY_MS: '0',
  });

export const BENCH_AGENT_TOKEN = 'bench-agent-token-0001';

export const startBffProcess = (apiUrl: string, env: Record<string, string> = {}) =>
  startProcess('bff/main.ts', {
    BFF_PORT: '0',
    SHIPPING_API_URL: apiUrl,
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    SHIPPING_PUBLIC_KEY: 'pk_test_demo',
    BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-ledger-')),
    BFF_VISITOR_RATE_LIMIT: '10000000/60',
    BFF_AGENT_TOKENS: JSON.stringify([{ token: BENCH_AGENT_TOKEN, scopes: ['rates', 'tracking', 'labels'] }]),
    ...env,
  });

/** The processes this one started that still run (`pid command`), read from /proc: what the bench must not leave. */
export function childrenLeft(): { pid: number; command: string }[] {
  const left: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command (field 2) is in parentheses and may hold spaces; the parent's pid is the second field after it.
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) !== process.pid || state === 'Z') continue;
      left.push({ pid: Number(name), command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
    } catch {
      // gone meanwhile
    }
  }
  return left;
}
