import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../shared/errors.ts';
import { TOOL_NAMES } from '../shared/tools.ts';
import { type RunningSandbox, startSandbox } from './testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  // A limit high enough that the fuzzer meets the validators, not the limiter.
  sandbox = await startSandbox({
    rateLimit: { calls: 1_000_000, seconds: 60 },
    labelPdfDelayMs: 0,
    labelPdfWaitMs: 0,
  });
});
afterAll(() => sandbox.close());

const SPEC_CODES = new Set(Object.keys(ERROR_STATUS));

/** JSON of any shape, including deep nesting and long strings. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.string({ minLength: 0, maxLength: 5000 }),
);

const item = fc.record(
  {
    name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    quantity: fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double(), fc.string()),
    unitPriceBRL: fc.oneof(fc.double(), fc.integer(), fc.string()),
    weightKg: fc.oneof(fc.double(), fc.constant(0), fc.constant(-1), fc.constant(31), fc.string()),
  },
  { requiredKeys: [] },
);

const ratesBody = fc.record(
  {
    destinationCep: fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^\d{5}-?\d{3}$/), fc.integer()),
    items: fc.oneof(fc.array(item, { maxLength: 60 }), fc.anything()),
    requestId: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
    instanceId: fc.anything(),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

const trackingBody = fc.record(
  {
    codes: fc.oneof(
      fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.integer()), { maxLength: 60 }),
      fc.anything(),
    ),
  },
  { requiredKeys: [] },
);

async function expectClientError(res: Response): Promise<void> {
  expect(res.status).toBeLessThan(500);
  if (res.status !== 200) {
    const body = (await res.json()) as { error: { code: string } };
    expect(SPEC_CODES.has(body.error.code)).toBe(true);
  } else {
    await res.arrayBuffer();
  }
}

const contentTypes = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', ''];

describe('fuzzing the REST routes: never a 5xx, always a spec code', () => {
  it.each([
    ['/v1/rates', 'pk_test_demo', ratesBody],
    ['/v1/tracking', 'mk_test_demo', trackingBody],
  ] as const)('%s with structured garbage', async (path, key, body) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, anyJson), async (payload) => {
        await expectClientError(await sandbox.post(path, JSON.stringify(payload), key));
      }),
      { numRuns: 150 },
    );
  });

  it.each(['/v1/rates', '/v1/tracking'])('%s with raw bytes and any content type', async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.constantFrom(...contentTypes),
        async (bytes, type) => {
          const res = await fetch(`${sandbox.url}${path}`, {
            method: 'POST',
            headers: { authorization: 'Bearer mk_test_demo', ...(type ? { 'content-type': type } : {}) },
            body: bytes,
          });
          await expectClientError(res);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('with odd Authorization headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7E]*$/.test(s)),
        async (authorization) => {
          const res = await fetch(`${sandbox.url}/v1/rates`, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json' },
            body: '{}',
          });
          await expectClientError(res);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('fuzzing every MCP tool input through the SDK client', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'fuzz', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer mk_test_demo' } },
      }),
    );
  });
  afterAll(() => client.close());

  it.each(TOOL_NAMES)('%s answers a tool error or a result, never a server failure', async (name) => {
    const args = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }),
      fc.record(
        {
          destinationCep: fc.string(),
          items: fc.array(item, { maxLength: 5 }),
          codes: fc.array(fc.string(), { maxLength: 5 }),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          prepostagemId: fc.string(),
          supportCode: fc.oneof(fc.uuid(), fc.string()),
          source: fc.string(),
          orderId: fc.string({ maxLength: 200 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(args, async (input) => {
        try {
          const result = await client.callTool({ name, arguments: input as Record<string, unknown> });
          expect(Array.isArray(result.content)).toBe(true);
        } catch (error) {
          // Invalid params are a JSON-RPC error from the SDK: a client mistake, answered, not a crash.
          expect(String((error as Error).message)).toMatch(/Invalid|validation|MCP error -32602/i);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a raw garbage body on /mcp gets a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 500 }), async (bytes) => {
        const res = await fetch(`${sandbox.url}/mcp`, {
          method: 'POST',
          headers: {
            authorization: 'Bearer mk_test_demo',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: bytes,
        });
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }),
      { numRuns: 60 },
    );
  });
});
