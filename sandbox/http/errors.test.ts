import { request } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../testing.ts';

const lines: { level: number; msg: string }[] = [];
let sandbox: RunningSandbox;

beforeAll(async () => {
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  sandbox = await startSandbox({ logger });
});
afterAll(async () => {
  await sandbox.close();
});

describe('sandbox error handler', () => {
  it('does not log a client that hangs up mid-body as an unexpected error', async () => {
    const url = new URL(`${sandbox.url}/v1/rates`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer pk_test_demo',
        'content-length': '20000',
      },
    });
    req.on('error', () => undefined);
    req.write('{"destinationCep":"');
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    // Wait for the sandbox to notice (deterministic: its debug line), then look at what it logged.
    for (let i = 0; i < 200 && !lines.some((l) => l.msg.includes('client went away')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lines.some((l) => l.msg.includes('client went away'))).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 30_000);
});
