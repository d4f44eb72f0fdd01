import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { WIDGET_SCHEMAS } from './schemas.ts';

/**
 * The source of an ES module exporting one validator per entry of `WIDGET_SCHEMAS`: each shared zod schema →
 * JSON Schema (`z.toJSONSchema`, the shape zod itself accepts: `io: "input"`) → that schema as data, read by
 * `conforms` (check.ts; no `new Function` in the browser, so it runs under a CSP without `unsafe-eval`). A validator
 * answers `true` or `false` and fills in the schema's defaults (a missing `weightKg` becomes 0.3, as zod does).
 *
 * Schemas as data, not code: @exodus/schemasafe's compiled functions (which this replaced) spelt out every path of
 * every schema and took 10 KB raw / 2.1 KB gzip of the calculator for its five validators; the same five as data and
 * one reader are a fraction of it, which the shipping rules' evaluator needed to fit the calculator's 18 KB budget.
 */
export function validatorsModule(): string {
  const parts = [
    '// Generated at build time from the shared zod schemas (widget/validators/schemas.ts).',
    // by its absolute path: the module is served under an id of the plugin's, not read from this folder
    `import { conforms, isJsonValue } from ${JSON.stringify(fileURLToPath(new URL('./check.ts', import.meta.url)))};`,
  ];
  for (const [name, { schema, json }] of Object.entries(WIDGET_SCHEMAS)) {
    const data = JSON.stringify(
      z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }),
      forTheCheck,
    );
    const check = json ? 'conforms(schema, value)' : 'isJsonValue(value) && conforms(schema, value)';
    // pure: a bundle keeps only the validators it imports, and their schemas
    parts.push(`export const ${name} = /* @__PURE__ */ ((schema) => (value) => ${check})(${data});`);
  }
  return `${parts.join('\n')}\n`;
}

/**
 * What the check reads, and nothing else: descriptions and `$schema` are for people; zod writes a date as
 * `format: "date"` and again as a long `pattern`, and `conforms` checks the format itself (a real calendar date).
 * A description is a text: an object under that key is the schema of a field named `description` (a tracking event's),
 * which the check must keep.
 */
function forTheCheck(key: string, value: unknown): unknown {
  if ((key === 'description' && typeof value === 'string') || key === '$schema') return undefined;
  // an integer is a safe integer (check.ts), as zod writes it with these bounds
  if ((key === 'maximum' || key === 'minimum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER)
    return undefined;
  if (key !== '' && value && typeof value === 'object' && !Array.isArray(value)) {
    const node = value as Record<string, unknown>;
    if (node.format === 'date' && typeof node.pattern === 'string') {
      const { pattern: _same, ...rest } = node;
      return rest;
    }
  }
  return value;
}
