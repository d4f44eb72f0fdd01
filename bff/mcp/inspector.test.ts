import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorCall, inspectorToolNames, mcpInspectorRun } from '../../sandbox/mcp/testing.ts';
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
  // One Inspector process a test: each starts a Node CLI, 4–14 s beside two busy loops (this test ran two, up to
  // 10.6 s; its sandbox twin's two reached 20 s in a stressed soak: sandbox/mcp/inspector.test.ts).
  it('lists the nine tools to a token with every scope', async () => {
    expect(await inspectorToolNames(`${bff.url}/mcp`, 'agent-all-scopes-0001')).toHaveLength(9);
  });

  it('lists only the rates tool to a rates-only token', async () => {
    expect(await inspectorToolNames(`${bff.url}/mcp`, 'agent-rates-only-0002')).toEqual([
      'get_shipping_rates',
    ]);
  });

  // Issue 38: 15 warnings before (`additionalProperties: {}` in the output schemas).
  it('finds nothing unportable in the tool schemas (the Inspector’s schema portability check, strict)', async () => {
    const { stdout, stderr } = await mcpInspectorRun(
      `${bff.url}/mcp`,
      'agent-all-scopes-0001',
      '--method',
      'tools/list',
      '--strict',
    );
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools).toHaveLength(9);
    expect(stderr).not.toMatch(/portability|Warning: tool|Error: tool/i);
  });

  it('calls track_shipment', async () => {
    const result = await inspectorCall(`${bff.url}/mcp`, 'agent-all-scopes-0001', 'track_shipment', {
      codes: '["DG049186226BR"]',
    });
    expect(TrackShipmentOutputSchema.parse(result.structuredContent).results[0]?.delivered).toBe(true);
  });
});
