import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpInspector, type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

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

const inspector = (token: string, ...args: string[]) => mcpInspector(`${bff.url}/mcp`, token, ...args);

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
