import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { LABEL_TOOL_NAMES, PARTNER_TOOLS, TOOL_NAMES, TOOLS } from './tools.ts';

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

describe('the tool annotations and label gating', () => {
  it('lists the five merchant tools of spec 4.4 and offers the three label tools only with label access (spec 1 rule 4)', () => {
    expect(TOOL_NAMES).toEqual([
      'get_shipping_rates',
      'track_shipment',
      'generate_label',
      'get_label_pdf',
      'diagnose_label_issue',
    ]);
    expect(LABEL_TOOL_NAMES).toEqual(['generate_label', 'get_label_pdf', 'diagnose_label_issue']);
  });

  it('marks the read tools read-only, idempotent and not destructive, all talking to the outside world', () => {
    const reads = ['get_shipping_rates', 'track_shipment', 'get_label_pdf', 'diagnose_label_issue'] as const;
    for (const name of reads) {
      expect(TOOLS[name].annotations, name).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
    }
    expect(PARTNER_TOOLS.get_merchant_status.annotations.readOnlyHint).toBe(true);
  });

  it('marks generate_label as a write that is not idempotent (spec 3 rule 4: a retry may create another)', () => {
    expect(TOOLS.generate_label.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(PARTNER_TOOLS.create_merchant.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
  });

  it('never gates a partner tool on label access', () => {
    expect(Object.values(PARTNER_TOOLS).map((tool) => tool.labels)).toEqual([false, false]);
  });
});
