import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/openapi.ts';
import { lintOpenApi as lint } from '../../testing/openapi-lint.ts';
import { startSandbox } from '../testing.ts';

describe("the OpenAPI document under Redocly's recommended ruleset", () => {
  it('has no error and no warning, as built and as the sandbox serves it', async () => {
    const sandbox = await startSandbox({ publicUrl: 'http://127.0.0.1:4010' });
    const served = await (await fetch(`${sandbox.url}/openapi.json`)).json();
    await sandbox.close();
    expect(served).toMatchObject({ servers: [{ url: 'http://127.0.0.1:4010' }] });
    for (const [name, document] of [
      ['bare', buildOpenApiDocument()],
      ['served', served],
    ] as const) {
      const report = await lint(document, name);
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }
  }, 120_000);

  it('reports an empty server list and a missing license, so the check above can fail', async () => {
    const broken = structuredClone(buildOpenApiDocument()) as {
      servers: unknown[];
      info: Record<string, unknown>;
    };
    broken.servers = [];
    delete broken.info.license;
    const report = await lint(broken, 'broken');
    expect(report.problems.map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['no-empty-servers', 'info-license']),
    );
  }, 120_000);
});
