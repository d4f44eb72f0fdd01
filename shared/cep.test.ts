import { describe, expect, it } from 'vitest';
import { formatCep, normalizeCep } from './cep.ts';
import { CepSchema } from './cep-schema.ts';

describe('normalizeCep', () => {
  it.each(['01310-100', '01310 100', '01310100', ' 01310-100 '])('normalizes %j to 8 digits', (input) => {
    expect(normalizeCep(input)).toBe('01310100');
  });

  it.each(['1310100', '0131010a', '013101000', '', '01310_100'])('rejects %j', (input) => {
    expect(normalizeCep(input)).toBeNull();
  });

  it.each([
    ['a tab', '01310\t100'],
    ['a newline', '01310100\n'],
    ['a no-break space', '01310\u00a0100'],
    ['an ideographic space', '01310\u3000100'],
    ['a non-breaking hyphen', '01310\u2011100'],
    ['an en dash', '01310\u2013100'],
    ['Arabic-Indic digits', '\u0660\u0661\u0663\u0661\u0660\u0661\u0660\u0660'],
    ['fullwidth digits', '\uff10\uff11\uff13\uff11\uff10\uff11\uff10\uff10'],
  ])('rejects %s: only spaces and dashes are ignored (spec 2.5, 4.1)', (_what, input) => {
    expect(normalizeCep(input)).toBeNull();
    expect(CepSchema.safeParse(input).success).toBe(false);
  });
});

describe('CepSchema', () => {
  it('parses to the 8 digits', () => {
    expect(CepSchema.parse('01310 100')).toBe('01310100');
  });

  it('rejects a CEP with a letter and a number instead of a string', () => {
    expect(CepSchema.safeParse('0131010a').success).toBe(false);
    expect(CepSchema.safeParse(1310100).success).toBe(false);
  });
});

describe('formatCep', () => {
  it('masks 8 digits as 00000-000 and leaves anything else alone', () => {
    expect(formatCep('01310100')).toBe('01310-100');
    expect(formatCep('0131')).toBe('0131');
    expect(formatCep('013101000')).toBe('013101000');
    expect(formatCep('x01310100')).toBe('x01310100');
  });
});
