import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateMerchantOutputSchema } from '../../shared/merchant.ts';
import { mcpInspector, type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const inspector = (token: string, ...args: string[]) => mcpInspector(`${sandbox.url}/mcp`, token, ...args);

describe('the MCP Inspector CLI against the sandbox', () => {
  it('lists the five tools with mk_test_demo', async () => {
    const { tools } = (await inspector('mk_test_demo', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'diagnose_label_issue',
      'generate_label',
      'get_label_pdf',
      'get_shipping_rates',
      'track_shipment',
    ]);
  });

  it('lists only the non-label tools with mk_test_demo_readonly', async () => {
    const { tools } = (await inspector('mk_test_demo_readonly', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_shipping_rates', 'track_shipment']);
  });

  it('lists exactly the partner tools with pl_test_parceiro, and creates a merchant', async () => {
    const { tools } = (await inspector('pl_test_parceiro', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(tools.map((tool) => tool.name).sort()).toEqual(['create_merchant', 'get_merchant_status']);
    const created = (await inspector(
      'pl_test_parceiro',
      '--method',
      'tools/call',
      '--tool-name',
      'create_merchant',
      '--tool-arg',
      'name=Loja Inspector',
      '--tool-arg',
      'email=inspector@loja.example',
    )) as { structuredContent?: unknown };
    expect(CreateMerchantOutputSchema.parse(created.structuredContent)).toMatchObject({ status: 'pending' });
  });

  it('calls track_shipment', async () => {
    const result = (await inspector(
      'mk_test_demo',
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
