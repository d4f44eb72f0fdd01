import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});
// Each test connects its own client: a request made in `beforeAll` runs outside any test, so the mutation run would
// count every line of the MCP path as loaded with the module ("static") and run each such mutant again with every
// test of the module in a new process (scripts/mutation/README.md).
beforeEach(async () => {
  client = new Client({ name: 'catalog-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer agent-all-scopes-0001' } },
    }),
  );
});
afterEach(async () => {
  await client.close();
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

  it('annotates read-only tools as such, and generate_label as destructive', async () => {
    const { tools } = await client.listTools();
    const generate = tools.find((tool) => tool.name === 'generate_label');
    expect(generate?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const name of ['get_shipping_rates', 'track_shipment', 'get_label_pdf', 'diagnose_label_issue']) {
      expect(tools.find((tool) => tool.name === name)?.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
      });
    }
  });

  // Issue 38: the list was 25,887 bytes of JSON (6,525 tokens, o200k_base), read by every agent before its first call;
  // its seven tools of then stay within 11,000 bytes, and the orders' two (issue 35) add at most 1,000.
  it('lists the seven tools in 11,000 bytes at most (all nine in 12,000), with no untyped schema and no output schema', async () => {
    const response = await fetch(`${bff.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer agent-all-scopes-0001',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const result = (await response.json()) as { result: { tools: { name: string }[] } };
    const text = JSON.stringify(result.result);
    const seven = result.result.tools.filter(
      (tool) => !['list_orders_to_ship', 'list_labels'].includes(tool.name),
    );
    expect(seven).toHaveLength(7);
    expect(JSON.stringify({ tools: seven }).length).toBeLessThanOrEqual(11_000);
    expect(text.length).toBeLessThanOrEqual(12_000);
    // `additionalProperties: {}` (an untyped schema) is what the Inspector's portability check warns about.
    expect(text).not.toContain('"additionalProperties":{}');
    expect(text).not.toContain('outputSchema');
    // The party is stated once and referred to by sender and recipient.
    expect(text.match(/"logradouro":\{/g)).toHaveLength(1);
  });

  it('checks preview_label’s input as generate_label’s, naming the field', async () => {
    const { recipient: _missing, ...input } = {
      serviceCode: '03298',
      weightGrams: 800,
      dimensions: { comprimento: 20, largura: 15, altura: 10 },
      sender: {
        nome: 'Loja',
        endereco: { cep: '01310100', logradouro: 'Av', numero: '1', bairro: 'B', cidade: 'SP', uf: 'SP' },
      },
      recipient: undefined,
      declaredItems: [{ conteudo: 'x', quantidade: 1, valor: 1 }],
    };
    const result = await client.callTool({ name: 'preview_label', arguments: { ...input, extra: 1 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(/^Input validation error: Invalid arguments for tool preview_label: /);
    expect(text).toContain('recipient');
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
