import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { LabelRecordSchema } from '../../shared/labels/label.ts';
import { GetShippingRatesOutputSchema } from '../../shared/quote.ts';
import { TOOL_NAMES } from '../../shared/tools.ts';
import { recordChild } from '../../testing/processes.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../testing.ts';
import { callTool, connectMcp } from './testing.ts';

let local: RunningSandbox;
let keyed: RunningSandbox;
const clients: Client[] = [];
beforeAll(async () => {
  local = await startSandbox({ auth: 'off', labelPdfDelayMs: 10, labelPdfWaitMs: 1000 });
  keyed = await startSandbox({ publicUrl: 'https://frete.example' });
});
afterAll(async () => {
  await local.close();
  await keyed.close();
});
beforeEach(() => local.control('reset'));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = await connectMcp(`${local.url}/mcp`, headers);
  clients.push(client);
  return client;
}

const QUOTE = { destinationCep: '20040-020', items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9 }] };

describe('SANDBOX_AUTH=off: the local unauthenticated MCP (spec 4.4)', () => {
  it('serves the full merchant catalog without credentials', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('quotes for loja-demo when instanceId is omitted, and for the store instanceId names', async () => {
    const client = await connect();
    const demo = GetShippingRatesOutputSchema.parse(
      (await callTool(client, 'get_shipping_rates', QUOTE)).structuredContent,
    );
    expect(demo.rates.map((rate) => rate.code)).toEqual(['PAC', 'SEDEX']);
    const keyedClient = await connectMcp(`${keyed.url}/mcp`, { authorization: 'Bearer mk_test_demo' });
    clients.push(keyedClient);
    const keyedDemo = await callTool(keyedClient, 'get_shipping_rates', QUOTE);
    expect(GetShippingRatesOutputSchema.parse(keyedDemo.structuredContent).rates).toEqual(demo.rates);
    const none = await callTool(client, 'get_shipping_rates', { ...QUOTE, instanceId: 'sem-servicos' });
    expect(none.structuredContent).toMatchObject({ rates: [], reason: 'no_services_enabled' });
    const stats = (await (await local.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    expect(stats.stores['loja-demo']?.['mcp:get_shipping_rates']).toBe(1);
    expect(stats.stores['sem-servicos']?.['mcp:get_shipping_rates']).toBe(1);
  });

  it.each(TOOL_NAMES)(
    'answers %s with reason merchant_not_found for an unknown or removed instanceId',
    async (tool) => {
      const client = await connect();
      const args: Record<string, Record<string, unknown>> = {
        get_shipping_rates: QUOTE,
        track_shipment: { codes: ['DG049186226BR'] },
        generate_label: SAMPLE_LABEL,
        get_label_pdf: { prepostagemId: 'PP1' },
        diagnose_label_issue: {},
      };
      for (const instanceId of ['nao-existe', 'removida', 'LOJA-DEMO']) {
        const result = await callTool(client, tool, { ...args[tool], instanceId });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ reason: 'merchant_not_found' });
      }
      const prepostings = (await (await local.control('prepostings', undefined, 'GET')).json()) as {
        prepostings: unknown[];
      };
      expect(prepostings.prepostings).toEqual([]);
    },
  );

  it('issues a label for the store instanceId names, and refuses one without label integration', async () => {
    const client = await connect();
    const issued = LabelRecordSchema.parse(
      (await callTool(client, 'generate_label', SAMPLE_LABEL)).structuredContent,
    );
    expect(issued.prepostagemId).toMatch(/^PP/);
    const off = await callTool(client, 'generate_label', { ...SAMPLE_LABEL, instanceId: 'sem-etiquetas' });
    expect(off.structuredContent).toMatchObject({
      reason: 'label_integration_disabled',
      actionUrl: expect.any(String),
    });
    const contract = await callTool(client, 'generate_label', {
      ...SAMPLE_LABEL,
      instanceId: 'sem-contrato',
    });
    expect(contract.structuredContent).toMatchObject({ reason: 'own_contract_required' });
  });

  it('still authenticates a request that sends a key, and ignores instanceId then (spec 1 rule 1)', async () => {
    const client = await connect({ authorization: 'Bearer mk_test_sem_servicos' });
    const result = await callTool(client, 'get_shipping_rates', { ...QUOTE, instanceId: 'loja-demo' });
    expect(result.structuredContent).toMatchObject({ reason: 'no_services_enabled' });
    await expect(connect({ authorization: 'Bearer mk_test_nope' })).rejects.toThrow();
  });

  it('leaves REST unchanged: keys required', async () => {
    const res = await local.post('/v1/rates', QUOTE);
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('missing_api_key');
  });

  it('keeps the keyed mode closed without credentials', async () => {
    const res = await fetch(`${keyed.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });

  it('says plainly at startup that MCP is unauthenticated', async () => {
    const child = recordChild(
      spawn(process.execPath, [new URL('../main.ts', import.meta.url).pathname], {
        env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_AUTH: 'off' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      'a sandbox',
    );
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no warning in: ${output}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('UNAUTHENTICATED')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(output).toMatch(/MCP at \/mcp is UNAUTHENTICATED/);
  }, 40_000);
});

/** A raw POST /mcp with the Host and Origin we choose (fetch will not let a caller set Host). */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/mcp`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
  });
}

describe('Host/Origin checks on /mcp in every mode (DNS rebinding)', () => {
  const port = (url: string) => new URL(url).port;

  it.each([
    ['a foreign Host', { host: 'evil.example' }],
    ['a foreign Host on our port', { host: 'evil.example:PORT' }],
    ['a loopback name on another port', { host: '127.0.0.1:1' }],
    ['a look-alike Host', { host: '127.0.0.1.evil.example:PORT' }],
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['an Origin of another port', { origin: 'http://127.0.0.1:1' }],
    ['an https Origin for loopback', { origin: 'https://127.0.0.1:PORT' }],
    ['the null Origin', { origin: 'null' }],
  ])('refuses %s with 403 before any work (local mode and keyed mode)', async (_what, headers) => {
    for (const sandbox of [local, keyed]) {
      const concrete = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, value.replace('PORT', port(sandbox.url))]),
      );
      const res = await rawPost(sandbox.url, { ...concrete, authorization: 'Bearer mk_test_demo' });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it('accepts the loopback names with the port, with or without an Origin', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const host = `${name}:${port(local.url)}`;
      expect((await rawPost(local.url, { host })).status).toBe(200);
      expect((await rawPost(local.url, { host, origin: `http://${host}` })).status).toBe(200);
    }
  });

  it("accepts the public URL's host and origin (SANDBOX_PUBLIC_URL)", async () => {
    const auth = { authorization: 'Bearer mk_test_demo' };
    expect((await rawPost(keyed.url, { ...auth, host: 'frete.example' })).status).toBe(200);
    expect(
      (await rawPost(keyed.url, { ...auth, host: 'frete.example', origin: 'https://frete.example' })).status,
    ).toBe(200);
    expect(
      (await rawPost(keyed.url, { ...auth, host: 'frete.example', origin: 'http://frete.example' })).status,
    ).toBe(403);
  });

  it('checks before authentication: a partner key gets no further from a foreign Host', async () => {
    const res = await rawPost(keyed.url, { host: 'evil.example', authorization: 'Bearer pl_test_parceiro' });
    expect(res.status).toBe(403);
  });
});

describe('the MCP conformance suite against the local mode', () => {
  const CONFORMANCE = new URL(
    '../../node_modules/@modelcontextprotocol/conformance/dist/index.js',
    import.meta.url,
  ).pathname;
  // The scenarios that apply: the others exercise fixture tools, resources, prompts, logging, sampling and
  // elicitation that the platform does not have (see sandbox/README.md).
  const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const out = join(dir, scenario);
      await promisify(execFile)(
        process.execPath,
        [CONFORMANCE, 'server', '--url', `${local.url}/mcp`, '--scenario', scenario, '-o', out],
        { cwd: dir, timeout: 120_000 },
      );
      const [run] = await readdir(out);
      const checks = JSON.parse(await readFile(join(out, String(run), 'checks.json'), 'utf8')) as {
        id: string;
        status: string;
        errorMessage?: string;
      }[];
      expect(checks.length).toBeGreaterThan(0);
      expect(
        checks.map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`.trim()),
      ).toEqual(checks.map((check) => `${check.id}: SUCCESS`));
    },
    120_000,
  );
});
