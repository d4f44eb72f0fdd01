import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeEach, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ERROR_STATUS, ErrorBodySchema, type ErrorCode } from './errors.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { RatesRequestSchema, RatesResponseSchema } from './quote.ts';
import { TrackingRequestSchema, TrackingResponseSchema } from './tracking.ts';

/** The zod schema each component stands for: an example must parse with its own. */
const SCHEMAS: Record<string, z.ZodMiniType> = {
  RatesRequest: RatesRequestSchema,
  RatesResponse: RatesResponseSchema,
  TrackingRequest: TrackingRequestSchema,
  TrackingResponse: TrackingResponseSchema,
  ErrorBody: ErrorBodySchema,
};

interface Example {
  where: string;
  schema: string;
  status: string | undefined;
  value: unknown;
}

interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** Every example of every request body and response of the document, with the schema it sits under. */
function examplesOf(document: { paths: Record<string, Record<string, unknown>> }): Example[] {
  const found: Example[] = [];
  const collect = (where: string, status: string | undefined, content: Record<string, MediaType> = {}) => {
    for (const media of Object.values(content)) {
      const schema = media.schema?.$ref?.replace('#/components/schemas/', '') ?? '';
      if (media.example !== undefined) found.push({ where, schema, status, value: media.example });
      for (const [name, example] of Object.entries(media.examples ?? {}))
        found.push({ where: `${where} ${name}`, schema, status, value: example.value });
    }
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const op = operation as {
        requestBody?: { content?: Record<string, MediaType> };
        responses: Record<string, { content?: Record<string, MediaType> }>;
      };
      collect(`${method} ${path} request`, undefined, op.requestBody?.content);
      for (const [status, response] of Object.entries(op.responses))
        collect(`${method} ${path} ${status}`, status, response.content);
    }
  }
  return found;
}

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document for a real validator', async () => {
    const document = buildOpenApiDocument('http://127.0.0.1:4010');
    // biome-ignore lint/suspicious/noExplicitAny: the validator takes its own document type
    await expect(SwaggerParser.validate(structuredClone(document) as any)).resolves.toBeTruthy();
  });

  it('documents every status of spec 4.1, 4.2 and 7.1 with the bearer scheme', () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
      components: { securitySchemes: Record<string, { scheme: string }> };
    };
    expect(Object.keys(document.paths['/v1/rates']?.post?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '402',
      '403',
      '404',
      '405',
      '413',
      '429',
      '502',
    ]);
    expect(Object.keys(document.paths['/v1/tracking']?.post?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '402',
      '403',
      '404',
      '405',
      '413',
      '429',
      '502',
    ]);
    expect(document.components.securitySchemes.bearerAuth?.scheme).toBe('bearer');
  });
});

describe('the examples of the OpenAPI document', () => {
  // Built for each test (see below): a mutation run switches a mutant on only inside a test.
  let examples: Example[];
  beforeEach(() => {
    examples = examplesOf(buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> });
  });

  it('are many, each under a schema we know', () => {
    expect(examples.length).toBeGreaterThan(30);
    for (const example of examples) expect(Object.keys(SCHEMAS), example.where).toContain(example.schema);
  });

  it('each parse with their own schema, and each error sits under its own status', () => {
    for (const example of examples) {
      const parsed = (SCHEMAS[example.schema] as z.ZodMiniType).safeParse(example.value);
      expect(parsed.success, `${example.where}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      if (example.schema === 'ErrorBody') {
        const code = (example.value as { error: { code: ErrorCode } }).error.code;
        expect(String(ERROR_STATUS[code]), example.where).toBe(example.status);
      }
    }
  });

  it('show rates with a display code, never a contract product code (spec 2.2)', () => {
    const rates = examples
      .filter((example) => example.schema === 'RatesResponse')
      .flatMap((example) => RatesResponseSchema.parse(example.value).rates);
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(rate.code).not.toMatch(/^\d{5}$/);
  });

  it("talk about the route's own fields in a 400 invalid_body", () => {
    const invalid = (path: string) =>
      examples.find((example) => example.where === `post ${path} 400 invalid_body`)?.value as {
        error: { message: string };
      };
    expect(invalid('/v1/rates').error.message).toMatch(/^items\./);
    expect(invalid('/v1/tracking').error.message).toMatch(/^codes\./);
  });

  it('declare Retry-After on every 429 and a non-empty server list', () => {
    const full = buildOpenApiDocument() as {
      servers: unknown[];
      paths: Record<string, { post?: { responses: Record<string, { headers?: Record<string, unknown> }> } }>;
    };
    expect(full.servers.length).toBeGreaterThan(0);
    for (const path of ['/v1/rates', '/v1/tracking'])
      expect(full.paths[path]?.post?.responses['429']?.headers).toHaveProperty('Retry-After');
  });
});

describe('the contract the OpenAPI document states', () => {
  type Operation = {
    operationId: string;
    security?: unknown[];
    requestBody?: { required?: boolean; content: Record<string, MediaType> };
    responses: Record<
      string,
      {
        description: string;
        headers?: Record<string, { schema: unknown }>;
        content?: Record<string, MediaType>;
      }
    >;
  };
  type Document = {
    servers: { url: string }[];
    security: unknown[];
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  };
  // Built for each test, not once when the file loads: a mutation run switches a mutant on only inside a test.
  let document: Document;
  let rates: Operation;
  let tracking: Operation;
  beforeEach(() => {
    document = buildOpenApiDocument('https://api.example/v1') as Document;
    rates = document.paths['/v1/rates']?.post as Operation;
    tracking = document.paths['/v1/tracking']?.post as Operation;
  });

  it('requires a JSON body on both POST routes, each with an example that parses as its request', () => {
    for (const [operation, schema] of [
      [rates, RatesRequestSchema],
      [tracking, TrackingRequestSchema],
    ] as const) {
      expect(operation.requestBody?.required, operation.operationId).toBe(true);
      const example = operation.requestBody?.content['application/json']?.example;
      expect(schema.safeParse(example).success, operation.operationId).toBe(true);
    }
  });

  it('gives the 429 a Retry-After header of whole seconds, at least 1', () => {
    for (const operation of [rates, tracking]) {
      expect(operation.responses['429']?.headers?.['Retry-After']?.schema).toEqual({
        type: 'integer',
        minimum: 1,
      });
      expect(operation.responses['400']?.headers).toBeUndefined();
    }
  });

  it('shows one example per error code under its status, with the actionUrl a 402 needs', () => {
    const examplesAt = (operation: Operation, status: string) =>
      operation.responses[status]?.content?.['application/json']?.examples ?? {};
    expect(Object.keys(examplesAt(rates, '400')).sort()).toEqual(
      ['invalid_body', 'invalid_destination_cep', 'invalid_json', 'too_many_items'].sort(),
    );
    expect(Object.keys(examplesAt(tracking, '400')).sort()).toEqual(
      ['invalid_body', 'invalid_json', 'too_many_codes'].sort(),
    );
    expect(Object.keys(examplesAt(tracking, '403'))).toEqual(['wrong_key_scope', 'secret_key_required']);
    expect(examplesAt(rates, '402').subscription_required?.value).toEqual({
      error: {
        code: 'subscription_required',
        message: expect.any(String),
        actionUrl: 'https://app.example/billing',
      },
    });
    expect(rates.responses['502']?.description).toMatch(/\(quote_failed\)$/);
    // only a 402 sends the merchant somewhere: no other error example carries an actionUrl
    for (const operation of [rates, tracking])
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '402' || status.startsWith('2')) continue;
        for (const example of Object.values(response.content?.['application/json']?.examples ?? {}))
          expect((example.value as { error: object }).error, status).not.toHaveProperty('actionUrl');
      }
  });

  it('shows a quote, no coverage and no services enabled as the 200 examples of rates', () => {
    const examples = rates.responses['200']?.content?.['application/json']?.examples ?? {};
    expect(Object.keys(examples)).toEqual(['quote', 'noCoverage', 'noServices']);
    expect(RatesResponseSchema.parse(examples.noCoverage?.value).reason).toBe('no_coverage');
    expect(RatesResponseSchema.parse(examples.noServices?.value).actionUrl).toMatch(/^https:/);
    const found = tracking.responses['200']?.content?.['application/json']?.example;
    expect(TrackingResponseSchema.parse(found).results).toHaveLength(1);
  });

  it('serves at the given base URL (or "/"), with bearer auth everywhere but on the document itself', () => {
    expect(document.servers).toEqual([{ url: 'https://api.example/v1', description: expect.any(String) }]);
    expect((buildOpenApiDocument() as { servers: { url: string }[] }).servers[0]?.url).toBe('/');
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/openapi.json']?.get?.security).toEqual([]);
    expect(Object.keys(document.paths['/openapi.json']?.get?.responses ?? {})).toEqual(['200', '405']);
    expect([rates.operationId, tracking.operationId]).toEqual(['getRates', 'trackShipments']);
  });
});

describe('the prose of the OpenAPI document', () => {
  it('gives every title, summary and description some words (a reader of the docs gets no empty heading)', () => {
    const empty: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
      } else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (['title', 'summary', 'description'].includes(key) && typeof value === 'string') {
            if (value.trim().split(/\s+/).length < 2) empty.push(`${path}.${key}`);
          } else walk(value, `${path}.${key}`);
        }
    };
    const document = buildOpenApiDocument();
    walk(document, '$');
    expect(empty).toEqual([]);
    expect(JSON.stringify(document).match(/"(?:summary|description)":/g)?.length).toBeGreaterThan(30);
  });
});

describe('the example check above', () => {
  it('catches an example that does not parse with its schema, so it can fail', () => {
    const document = structuredClone(buildOpenApiDocument()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const post = document.paths['/v1/rates']?.post as {
      responses: Record<string, { content: Record<string, MediaType> }>;
    };
    const media = post.responses['200']?.content['application/json'] as MediaType;
    (media.examples as Record<string, { value: unknown }>).broken = { value: { rates: [{ code: 'PAC' }] } };
    const failing = examplesOf(document).filter(
      (example) => !(SCHEMAS[example.schema] as z.ZodMiniType).safeParse(example.value).success,
    );
    expect(failing.map((example) => example.where)).toEqual(['post /v1/rates 200 broken']);
  });
});

describe('the validator used above', () => {
  it('rejects a broken document, so the check above can fail', async () => {
    const document = structuredClone(buildOpenApiDocument()) as { paths: Record<string, unknown> };
    document.paths['/v1/rates'] = { post: { responses: { '200': {} } } };
    // biome-ignore lint/suspicious/noExplicitAny: the validator takes its own document type
    await expect(SwaggerParser.validate(document as any)).rejects.toThrow();
  });
});
