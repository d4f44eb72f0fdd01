import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

const run = promisify(execFile);
let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});

/** The MCP Inspector's CLI: a real client that is not ours, talking to the BFF. */
async function inspector(token: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    'npx',
    [
      '--no-install',
      'mcp-inspector',
      '--cli',
      `${bff.url}/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${token}`,
      ...args,
    ],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe('the MCP Inspector CLI against the BFF', () => {
  it('lists the tools a token may use', async () => {
    const all = (await inspector('agent-all-scopes-0001', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(all.tools).toHaveLength(5);
    const rates = (await inspector('agent-rates-only-0002', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(rates.tools.map((t) => t.name)).toEqual(['get_shipping_rates']);
  });

  it('calls track_shipment', async () => {
    const result = (await inspector(
      'agent-all-scopes-0001',
      '--method',
      'tools/call',
      '--tool-name',
      'track_shipment',
      '--tool-arg',
      'codes=["DG049186226BR"]',
    )) as {
      structuredContent: { results: { delivered: boolean }[] };
    };
    expect(result.structuredContent.results[0]?.delivered).toBe(true);
  });
});
