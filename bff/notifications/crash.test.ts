import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { recordChild } from '../../testing/processes.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { TEST_AGENTS } from '../testing.ts';
import { eventsOf, issueLabel, orderLabel, WEBHOOK_SECRET } from './testing/harness.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
});
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

/** The BFF as its own process (`node bff/main.ts`) on port 0, its watcher every second; resolves once it listens. */
async function startBffProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = recordChild(
    spawn(process.execPath, ['bff/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        SHIPPING_API_URL: sandbox.url,
        SHIPPING_SECRET_KEY: 'mk_test_demo',
        BFF_PORT: '0',
        BFF_DATA_DIR: dataDir,
        BFF_AGENT_TOKENS: JSON.stringify(TEST_AGENTS),
        BFF_WEBHOOK_URL: receiver.url,
        BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
        BFF_WATCH_INTERVAL_S: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    'a BFF',
  );
  children.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the BFF did not start:\n${output}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /BFF listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', () => reject(new Error(`the BFF exited:\n${output}`)));
  });
  return { child, url };
}

describe('a BFF killed (SIGKILL) while it sends a webhook', () => {
  it('sends it again after the restart, with the same webhook-id and body', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-notify-crash-'));
    // The endpoint takes the first request and never answers it: the BFF is mid-send when it dies.
    receiver.answer = (n) => (n === 0 ? 'hang' : 200);
    const first = await startBffProcess(dataDir);
    const label = await issueLabel(first.url, orderLabel('PED-CRASH-1'));
    // Whenever the watcher first looks, the label starts as "no events yet": the move is a change either way.
    await sandbox.control('advance', { hours: 30 });
    await receiver.waitFor(1);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(receiver.received[0]?.answered).toBe('hang');

    await startBffProcess(dataDir);
    const [hung, again] = await receiver.waitFor(2);
    expect(again?.answered).toBe(200);
    expect(again?.id).toBe(hung?.id);
    expect(again?.body).toBe(hung?.body);
    const [event] = eventsOf([again ?? hung].flatMap((w) => (w ? [w] : [])));
    expect(event).toMatchObject({
      type: 'shipment.status_changed',
      data: { trackingCode: label.trackingCode },
    });
    // Nothing more: the event was sent once after the restart, not again by every cadence.
    await sleep(2500);
    expect(receiver.received).toHaveLength(2);
  }, 60_000);
});
