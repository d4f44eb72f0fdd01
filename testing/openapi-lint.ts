import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const REDOCLY = new URL('../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string }[];
}

/**
 * Lints an OpenAPI document with the real Redocly CLI (v2) and its `recommended` ruleset, offline (no telemetry, no
 * update check), in an empty folder so that no `redocly.yaml` of anyone's can change the rules.
 */
export async function lintOpenApi(document: unknown, name = 'document'): Promise<LintReport> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
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
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
