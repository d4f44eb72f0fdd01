import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

type JsonSchema = { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema };

function undescribed(schema: JsonSchema, path = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const at = path ? `${path}.${name}` : name;
    return [
      ...(property.description ? [] : [at]),
      ...undescribed(property, at),
      ...(property.items ? undescribed(property.items, `${at}[]`) : []),
    ];
  });
}

let sandbox: RunningSandbox;
let bff: RunningBff;
let client: Client;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
  client = new Client({ name: 'catalog-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer agent-all-scopes-0001' } },
    }),
  );
});
afterAll(async () => {
  await client.close();
  await bff.stop();
  await sandbox.close();
});

describe('the tool catalog an agent sees on the BFF', () => {
  it('describes every input property of every tool, idempotencyKey included', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(9);
    for (const tool of tools) {
      expect({ tool: tool.name, missing: undescribed(tool.inputSchema as JsonSchema) }).toEqual({
        tool: tool.name,
        missing: [],
      });
    }
    const generate = tools.find((tool) => tool.name === 'generate_label');
    expect(generate?.inputSchema.properties?.idempotencyKey).toMatchObject({
      description: expect.stringContaining('same key'),
    });
    expect(JSON.stringify(generate?.inputSchema.properties?.objectFormat)).toContain('envelope');
    for (const property of ['orderId', 'volume', 'serviceId']) {
      expect(generate?.inputSchema.properties?.[property]).toMatchObject({ description: expect.any(String) });
    }
  });

  it('declares supportCode in the generate_label output schema, and annotates read-only tools as such', async () => {
    const { tools } = await client.listTools();
    const generate = tools.find((tool) => tool.name === 'generate_label');
    expect(generate?.outputSchema?.properties).toHaveProperty('supportCode');
    expect(generate?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const name of ['get_shipping_rates', 'track_shipment', 'get_label_pdf', 'diagnose_label_issue']) {
      expect(tools.find((tool) => tool.name === name)?.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
      });
    }
  });

  it('quotes with a one-line human summary ("1 option", "business day") followed by the JSON', async () => {
    const result = await client.callTool({
      name: 'get_shipping_rates',
      arguments: {
        destinationCep: '01310-100',
        items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9 }],
      },
    });
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '';
    const [summary, ...json] = text.split('\n');
    expect(summary).toMatch(/^\d+ options?: /);
    expect(summary).not.toMatch(/option\(s\)|1 business days/);
    expect(JSON.parse(json.join('\n'))).toEqual(result.structuredContent);
  });
});
