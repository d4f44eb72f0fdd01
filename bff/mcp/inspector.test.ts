import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorCall, inspectorToolNames } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { TrackShipmentOutputSchema } from '../../shared/tracking.ts';
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

describe('the MCP Inspector CLI against the BFF', () => {
  it('lists the tools a token may use', async () => {
    expect(await inspectorToolNames(`${bff.url}/mcp`, 'agent-all-scopes-0001')).toHaveLength(9);
    expect(await inspectorToolNames(`${bff.url}/mcp`, 'agent-rates-only-0002')).toEqual([
      'get_shipping_rates',
    ]);
  });

  it('calls track_shipment', async () => {
    const result = await inspectorCall(`${bff.url}/mcp`, 'agent-all-scopes-0001', 'track_shipment', {
      codes: '["DG049186226BR"]',
    });
    expect(TrackShipmentOutputSchema.parse(result.structuredContent).results[0]?.delivered).toBe(true);
  });
});
