import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/openapi.ts';
import { startSandbox } from '../testing.ts';

const REDOCLY = new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;

let dir: string;
beforeAll(async () => {
  // An empty folder: no redocly.yaml of anyone's can change the rules.
  dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string }[];
}

/** The real Redocly CLI (v2), `recommended` ruleset, offline (no telemetry, no update check). */
async function lint(document: unknown, name: string): Promise<LintReport> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document));
  const run = promisify(execFile)(
    process.execPath,
    [REDOCLY, 'lint', '--extends=recommended', '--format=json', file],
    {
      cwd: dir,
      timeout: 120_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
    },
  );
  // A document with errors exits 1 and still prints the report.
  const { stdout } = await run.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
}

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
