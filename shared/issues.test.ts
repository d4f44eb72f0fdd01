import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ApiError } from './errors.ts';
import { bodyError, describeIssues, parseInput } from './issues.ts';

/** The sentence for whatever `value` gets wrong against `schema`. */
function sentence(schema: z.ZodType, value: unknown, limit?: number): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('the value was meant to be invalid');
  return limit === undefined
    ? describeIssues(result.error.issues)
    : describeIssues(result.error.issues, limit);
}

describe('describeIssues', () => {
  it('names the path of each issue, dotted, and says "body" for the root', () => {
    const schema = z.object({ to: z.object({ cep: z.string() }) });
    expect(sentence(schema, { to: { cep: 1 } })).toBe('to.cep: expected string');
    expect(sentence(schema, 'text')).toBe('body: expected object');
    expect(sentence(z.array(z.number()), [1, 'x'])).toBe('1: expected number');
  });

  it('says at least / at most with entries for arrays and characters for strings', () => {
    expect(sentence(z.array(z.number()).min(1), [])).toBe('body: must have at least 1 entries');
    expect(sentence(z.array(z.number()).max(2), [1, 2, 3])).toBe('body: must have at most 2 entries');
    expect(sentence(z.string().min(3), 'ab')).toBe('body: must have at least 3 characters');
    expect(sentence(z.string().max(2), 'abc')).toBe('body: must have at most 2 characters');
  });

  it('says ≥ / > and ≤ / < for numbers, following inclusiveness', () => {
    expect(sentence(z.number().min(1), 0)).toBe('body: must be ≥ 1');
    expect(sentence(z.number().gt(1), 1)).toBe('body: must be > 1');
    expect(sentence(z.number().max(5), 6)).toBe('body: must be ≤ 5');
    expect(sentence(z.number().lt(5), 5)).toBe('body: must be < 5');
  });

  it('lists unknown properties, one or several', () => {
    expect(sentence(z.strictObject({}), { a: 1 })).toBe('body: unknown property a');
    expect(sentence(z.strictObject({}), { a: 1, b: 2 })).toBe('body: unknown properties a, b');
  });

  it('lists the allowed values of an enum', () => {
    expect(sentence(z.enum(['sedex', 'pac']), 'x')).toBe('body: must be one of "sedex", "pac"');
  });

  it("uses a schema's own format message, or names the format when zod's is generic", () => {
    expect(sentence(z.string().regex(/^\d{8}$/, 'a CEP has 8 digits'), '1')).toBe('body: a CEP has 8 digits');
    expect(sentence(z.string().regex(/^\d{8}$/, 'Invalid input'), '1')).toBe('body: invalid regex');
    expect(sentence(z.email(), 'no')).toMatch(/^body: /);
  });

  it('uses a custom message for other issues, or says "invalid value"', () => {
    const custom = z.number().refine((n) => n % 2 === 0, 'must be even');
    expect(sentence(custom, 3)).toBe('body: must be even');
    expect(
      sentence(
        z.number().refine((n) => n > 100),
        3,
      ),
    ).toBe('body: invalid value');
  });

  it('shows the first three issues by default, then says how many more', () => {
    const schema = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() });
    expect(sentence(schema, {})).toBe(
      'a: expected string; b: expected string; c: expected string (and 2 more)',
    );
    expect(sentence(schema, {}, 1)).toBe('a: expected string (and 4 more)');
    expect(sentence(schema, {}, 5)).toBe(
      'a: expected string; b: expected string; c: expected string; d: expected string; e: expected string',
    );
  });

  it('never echoes the rejected value (a secret key sent in the wrong field stays out of the message)', () => {
    const secret = 'mk_live_0123456789abcdef';
    const schema = z.strictObject({ cep: z.string().regex(/^\d{8}$/), n: z.number(), kind: z.enum(['a']) });
    const message = sentence(schema, { cep: secret, n: secret, kind: secret });
    expect(message).not.toContain('0123456789abcdef');
  });
});

describe('parseInput', () => {
  it('answers the value as the schema reads it', () => {
    expect(parseInput(z.object({ n: z.coerce.number() }), { n: '2' })).toEqual({ n: 2 });
  });

  it('throws invalid_body with the sentence of describeIssues, never the value', () => {
    const thrown = (() => {
      try {
        parseInput(z.strictObject({ cep: z.string() }), { cep: 12345678, extra: 'secret' });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe('invalid_body');
    expect((thrown as ApiError).message).toBe('cep: expected string; body: unknown property extra');
    expect((thrown as ApiError).message).not.toContain('secret');
  });
});

describe('bodyError', () => {
  const Quote = z.strictObject({
    cep: z.string().regex(/^\d{8}$/),
    items: z.array(z.string().max(3)).max(2),
  });
  const refusal = (body: unknown, fields: Parameters<typeof bodyError>[2]) => {
    const parsed = Quote.safeParse(body);
    if (parsed.success) throw new Error('the body was meant to be invalid');
    return bodyError(parsed.error.issues, body, fields);
  };

  it('answers too_many_items for a list over its bound, and invalid_body for an entry too long inside it', () => {
    const fields = { list: 'items', cep: 'cep' } as const;
    expect(refusal({ cep: '01310100', items: ['a', 'b', 'c'] }, fields).code).toBe('too_many_items');
    expect(refusal({ cep: '01310100', items: ['abcd'] }, fields).code).toBe('invalid_body');
  });

  it('answers invalid_destination_cep only for a text at the named CEP field', () => {
    const bad = refusal({ cep: '0131', items: [] }, { list: 'items', cep: 'cep' });
    expect([bad.code, bad.message]).toEqual([
      'invalid_destination_cep',
      'cep: Invalid string: must match pattern /^\\d{8}$/',
    ]);
    expect(refusal({ cep: 131, items: [] }, { list: 'items', cep: 'cep' }).code).toBe('invalid_body');
    expect(refusal({ cep: '0131', items: [] }, { list: 'codes' }).code).toBe('invalid_body');
  });
});
