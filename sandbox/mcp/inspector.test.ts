import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateMerchantOutputSchema } from '../../shared/merchant.ts';
import { TrackShipmentOutputSchema } from '../../shared/tracking.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';
import { inspectorCall, inspectorToolNames } from './testing.ts';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const mcp = () => `${sandbox.url}/mcp`;

describe('the MCP Inspector CLI against the sandbox', () => {
  it('lists the five tools with mk_test_demo', async () => {
    expect(await inspectorToolNames(mcp(), 'mk_test_demo')).toEqual([
      'diagnose_label_issue',
      'generate_label',
      'get_label_pdf',
      'get_shipping_rates',
      'track_shipment',
    ]);
  });

  it('lists only the non-label tools with mk_test_demo_readonly', async () => {
    expect(await inspectorToolNames(mcp(), 'mk_test_demo_readonly')).toEqual([
      'get_shipping_rates',
      'track_shipment',
    ]);
  });

  // One Inspector process a test: each starts a Node CLI, 4–14 s beside two busy loops (this one ran two and timed out
  // at 20 s in a stressed soak of fd2843e).
  it('lists exactly the partner tools with pl_test_parceiro', async () => {
    expect(await inspectorToolNames(mcp(), 'pl_test_parceiro')).toEqual([
      'create_merchant',
      'get_merchant_status',
    ]);
  });

  it('creates a merchant with pl_test_parceiro', async () => {
    const created = await inspectorCall(mcp(), 'pl_test_parceiro', 'create_merchant', {
      name: 'Loja Inspector',
      email: 'inspector@loja.example',
    });
    expect(CreateMerchantOutputSchema.parse(created.structuredContent)).toMatchObject({ status: 'pending' });
  });

  it('calls track_shipment', async () => {
    const result = await inspectorCall(mcp(), 'mk_test_demo', 'track_shipment', {
      codes: '["DG049186226BR"]',
    });
    expect(TrackShipmentOutputSchema.parse(result.structuredContent).results[0]?.delivered).toBe(true);
  });
});
