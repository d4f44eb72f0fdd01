import { describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.ts';

describe('parseExactJson', () => {
  it('keeps an integer above 2^53 as the digits sent, where JSON.parse rounds it to another number', () => {
    const text = '{"id":820982911946154508,"order_id":9007199254740993,"n":-9007199254740993}';
    expect(JSON.parse(text).id).toBe(820982911946154500);
    expect(parseExactJson(text)).toEqual({
      id: '820982911946154508',
      order_id: '9007199254740993',
      n: '-9007199254740993',
    });
  });

  it('leaves safe integers, decimals, exponents and strings as JSON.parse reads them', () => {
    expect(
      parseExactJson('[9007199254740991, 1.5, 1e21, 12345678901234567890.5, "820982911946154508"]'),
    ).toEqual([9007199254740991, 1.5, 1e21, 12345678901234567000, '820982911946154508']);
  });

  it('refuses what is not JSON, as JSON.parse does', () => {
    expect(() => parseExactJson('{"id": 1')).toThrow(SyntaxError);
  });
});
