import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import {
  FulfillmentOptionsRequestSchema,
  FulfillmentOptionsResponseSchema,
} from '../../shared/checkouts/agentic.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { OrderLookupRequestSchema, OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { TrackingLookupRequestSchema, TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';
import { RateVerifyRequestSchema, RateVerifyResponseSchema } from '../rates/verify.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { buildBffOpenApiDocument } from './openapi.ts';

interface Media {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  requestBody: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
const operationOf = (document: Record<string, unknown>, path: string) =>
  (document as { paths: Record<string, { post: Operation }> }).paths[path]?.post as Operation;
const tracking = (document: Record<string, unknown>) => operationOf(document, '/api/tracking');
const verify = (document: Record<string, unknown>) => operationOf(document, '/api/rates/verify');

type Parser = { safeParse(value: unknown): { success: boolean } };
const SCHEMAS: Record<string, { request: Parser; ok: Parser }> = {
  '/api/tracking': { request: TrackingLookupRequestSchema, ok: TrackingLookupResponseSchema },
  '/api/rates/verify': { request: RateVerifyRequestSchema, ok: RateVerifyResponseSchema },
  '/checkout/fulfillment-options': {
    request: FulfillmentOptionsRequestSchema,
    ok: FulfillmentOptionsResponseSchema,
  },
};

/** Every example of the document with the schema it must satisfy. */
function examplesOf(document: Record<string, unknown>) {
  const found: { where: string; value: unknown; schema: Parser }[] = [];
  for (const [path, schemas] of Object.entries(SCHEMAS)) {
    const operation = operationOf(document, path);
    for (const media of Object.values(operation.requestBody.content)) {
      found.push({ where: `${path} request`, value: media.example, schema: schemas.request });
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const media of Object.values(response.content ?? {})) {
        for (const [name, { value }] of Object.entries(media.examples ?? {})) {
          const schema = status === '200' ? schemas.ok : ErrorBodySchema;
          found.push({ where: `${path} ${status} ${name}`, value, schema });
        }
      }
    }
  }
  return found;
}

describe('the BFF OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for a real validator', async () => {
    const document = buildBffOpenApiDocument('https://frete.loja.example');
    // biome-ignore lint/suspicious/noExplicitAny: the validator takes its own document type
    await expect(SwaggerParser.validate(structuredClone(document) as any)).resolves.toBeTruthy();
  });

  it('has examples that all parse with the schemas the route uses', () => {
    const examples = examplesOf(buildBffOpenApiDocument());
    expect(examples.length).toBeGreaterThanOrEqual(25);
    const failing = examples
      .filter(({ value, schema }) => !schema.safeParse(value).success)
      .map((e) => e.where);
    expect(failing).toEqual([]);
  });

  it('documents every status /api/rates/verify answers, and its checkout token', () => {
    const document = buildBffOpenApiDocument() as {
      components: { securitySchemes: Record<string, unknown> };
    };
    const operation = verify(document) as Operation & { security: unknown };
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '405',
      '413',
      '429',
      '502',
    ]);
    expect(operation.security).toEqual([{ checkoutToken: [] }]);
    expect(document.components.securitySchemes.checkoutToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('documents the order lookup with examples its schemas take', () => {
    const paths = (buildBffOpenApiDocument() as { paths: Record<string, { post: Operation }> }).paths;
    const lookup = paths['/api/orders/lookup']?.post as Operation;
    const request = lookup.requestBody.content['application/json']?.example;
    expect(OrderLookupRequestSchema.safeParse(request).success).toBe(true);
    const ok = lookup.responses['200']?.content?.['application/json']?.examples?.delivered?.value;
    expect(OrderLookupResponseSchema.safeParse(ok).success).toBe(true);
    expect(Object.keys(lookup.responses).sort()).toEqual(['200', '400', '404', '429', '502']);
  });

  it('documents every status /api/tracking answers', () => {
    expect(Object.keys(tracking(buildBffOpenApiDocument()).responses).sort()).toEqual([
      '200',
      '400',
      '405',
      '413',
      '429',
      '502',
    ]);
  });
});

describe('the checks above', () => {
  it('catch a broken document and a wrong example, so they can fail', async () => {
    const broken = structuredClone(buildBffOpenApiDocument()) as { paths: Record<string, unknown> };
    broken.paths['/api/tracking'] = { post: { responses: { '200': {} }, requestBody: 'no' } };
    // biome-ignore lint/suspicious/noExplicitAny: the validator takes its own document type
    await expect(SwaggerParser.validate(broken as any)).rejects.toThrow();

    const wrong = structuredClone(buildBffOpenApiDocument());
    const ok = tracking(wrong).responses['200']?.content?.['application/json']?.examples?.stale?.value as {
      results: { stale: unknown }[];
    };
    (ok.results[0] as { stale: unknown }).stale = false;
    const error = tracking(wrong).responses['429']?.content?.['application/json']?.examples?.rate_limited
      ?.value as { error: { code: string } };
    error.error.code = 'too_many_requests';
    expect(
      examplesOf(wrong)
        .filter(({ value, schema }) => !schema.safeParse(value).success)
        .map((e) => e.where),
    ).toEqual(['/api/tracking 200 stale', '/api/tracking 429 rate_limited']);
  });
});

describe('GET /openapi.json on a running BFF', () => {
  let sandbox: RunningSandbox;
  let bff: RunningBff;
  beforeAll(async () => {
    sandbox = await startSandbox();
    bff = await startBff(sandbox.url, { BFF_PUBLIC_URL: 'https://frete.loja.example' });
  });
  afterAll(async () => {
    await bff.stop();
    await sandbox.close();
  });

  it('serves the document with BFF_PUBLIC_URL as its server, readable cross-origin, GET only', async () => {
    const res = await fetch(`${bff.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const document = (await res.json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: 'https://frete.loja.example' }]);
    expect(document).toEqual(buildBffOpenApiDocument('https://frete.loja.example'));
    const post = await fetch(`${bff.url}/openapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(ErrorBodySchema.parse(await post.json()).error.code).toBe('method_not_allowed');
  });

  it('describes what the route really answers: a lookup, a bad code, a wrong method, a huge body', async () => {
    const post = (body: unknown) =>
      fetch(`${bff.url}/api/tracking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const ok = await post({ codes: ['dg049186226br', 'QB123456785BR', 'DG049186226BR'] });
    expect(ok.status).toBe(200);
    const body = TrackingLookupResponseSchema.parse(await ok.json());
    expect(body.results.map((result) => result.code)).toEqual(['DG049186226BR', 'QB123456785BR']);

    const bad = await post({ codes: ['DG049186227BR'] });
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(await bad.json()).error.code).toBe('invalid_body');

    const extra = await post({ codes: ['DG049186226BR'], instanceId: 'x' });
    expect(extra.status).toBe(400);
    expect(TrackingLookupRequestSchema.safeParse({ codes: ['DG049186226BR'], instanceId: 'x' }).success).toBe(
      false,
    );

    const get = await fetch(`${bff.url}/api/tracking`);
    expect(get.status).toBe(405);
    expect(ErrorBodySchema.parse(await get.json()).error.code).toBe('method_not_allowed');

    const huge = await post(JSON.stringify({ codes: ['x'.repeat(9000)] }));
    expect(huge.status).toBe(413);
    expect(ErrorBodySchema.parse(await huge.json()).error.code).toBe('payload_too_large');
  });
});
