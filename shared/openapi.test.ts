import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

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

describe('the validator used above', () => {
  it('rejects a broken document, so the check above can fail', async () => {
    const document = structuredClone(buildOpenApiDocument()) as { paths: Record<string, unknown> };
    document.paths['/v1/rates'] = { post: { responses: { '200': {} } } };
    // biome-ignore lint/suspicious/noExplicitAny: the validator takes its own document type
    await expect(SwaggerParser.validate(document as any)).rejects.toThrow();
  });
});
