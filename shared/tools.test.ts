import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { TOOL_NAMES, TOOLS } from './tools.ts';

type JsonSchema = {
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** Every property path of a JSON Schema that has no description (arrays and unions looked into). */
function undescribed(schema: JsonSchema, path = ''): string[] {
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = path ? `${path}.${name}` : name;
    if (!property.description) missing.push(at);
    missing.push(...undescribed(property, at));
    if (property.items) missing.push(...undescribed(property.items, `${at}[]`));
    for (const option of property.anyOf ?? []) missing.push(...undescribed(option, at));
  }
  return missing;
}

describe('the shared tool table', () => {
  it.each(TOOL_NAMES)('describes every input property of %s (units, enums, what it is for)', (name) => {
    const schema = z.toJSONSchema(TOOLS[name].inputSchema, { io: 'input' }) as JsonSchema;
    expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
    expect(undescribed(schema)).toEqual([]);
  });

  it('finds an undescribed property, so the check above can fail', () => {
    const schema = z.toJSONSchema(z.object({ a: z.object({ b: z.string() }) })) as JsonSchema;
    expect(undescribed(schema)).toEqual(['a', 'a.b']);
  });

  it('declares supportCode in the generate_label output schema', () => {
    const schema = z.toJSONSchema(TOOLS.generate_label.outputSchema, { io: 'output' }) as JsonSchema;
    expect(schema.properties).toHaveProperty('supportCode');
  });
});
