import { describe, expect, it } from 'vitest';
import { lintOpenApi } from '../../testing/openapi-lint.ts';
import { buildBffOpenApiDocument } from './openapi.ts';

describe("the BFF's OpenAPI document under Redocly's recommended ruleset", () => {
  it('has no error and no warning, as the BFF serves it (its public URL as the server)', async () => {
    for (const [name, document] of [
      ['default', buildBffOpenApiDocument('http://127.0.0.1:4000')],
      ['public', buildBffOpenApiDocument('https://frete.loja.example')],
    ] as const) {
      const report = await lintOpenApi(document, name);
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }
  }, 120_000);

  it('reports an operation without security and a missing license, so the check above can fail', async () => {
    const broken = structuredClone(buildBffOpenApiDocument('http://127.0.0.1:4000')) as {
      info: { license?: unknown };
      paths: Record<string, { post?: { security?: unknown } }>;
    };
    delete broken.info.license;
    delete broken.paths['/api/tracking']?.post?.security;
    const rules = (await lintOpenApi(broken, 'broken')).problems.map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['info-license', 'security-defined']));
  }, 120_000);
});
