import { validator } from '@exodus/schemasafe';
import * as z from 'zod/mini';
import { WIDGET_SCHEMAS } from './schemas.ts';

/**
 * The source of an ES module exporting one validator per entry of `WIDGET_SCHEMAS`: each shared zod schema →
 * JSON Schema (`z.toJSONSchema`, the shape zod itself accepts: `io: "input"`) → a plain function compiled by
 * @exodus/schemasafe (no `new Function` in the browser, so it runs under a CSP without `unsafe-eval`). A validator
 * answers `true` or `false` and fills in the schema's defaults (a missing `weightKg` becomes 0.3, as zod does).
 * Measured (calculator: item, rates response, error body): 3.2 KB raw / 1.0 KB gzip, against 21 KB / 7 KB for
 * zod/mini's core in the bundle, and 9.2 KB / 1.7 KB for Ajv's standalone code of the same schemas.
 */
export function validatorsModule(): string {
  const parts = ['// Generated at build time from the shared zod schemas (widget/validators/schemas.ts).'];
  for (const [name, { schema, json }] of Object.entries(WIDGET_SCHEMAS)) {
    // Plain JSON: schemasafe's own typings of a schema are incomplete (its README says so).
    const jsonSchema: Parameters<typeof validator>[0] = JSON.parse(
      JSON.stringify(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }), withoutDatePattern),
    );
    const validate = validator(jsonSchema, {
      mode: 'default',
      useDefaults: true,
      includeErrors: false,
      // descriptions and titles are for people reading the schema, not for the check
      allowUnusedKeywords: true,
      ...(json ? { isJSON: true } : { jsonCheck: true }),
    });
    // pure: a bundle keeps only the validators it imports
    parts.push(`export const ${name} = /* @__PURE__ */ ${validate.toModule()}`);
  }
  return `${parts.join('\n')}\n`;
}

/**
 * zod writes a date (`z.iso.date()`) as `format: "date"` and the same rule again as a long `pattern`; schemasafe
 * checks `format: "date"` itself (a real calendar date, leap years included), so the pattern is dropped: a smaller
 * validator in the widgets' budget (codegen.test.ts holds the two to the same answers as zod).
 */
function withoutDatePattern(key: string, value: unknown): unknown {
  if (key !== '' && value && typeof value === 'object' && !Array.isArray(value)) {
    const node = value as Record<string, unknown>;
    if (node.format === 'date' && typeof node.pattern === 'string') {
      const { pattern: _same, ...rest } = node;
      return rest;
    }
  }
  return value;
}
