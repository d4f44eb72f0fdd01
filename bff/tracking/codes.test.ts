import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.ts';
import { makeS10 } from '../../shared/s10.ts';
import { normalizeCodes } from './codes.ts';

const codes = (n: number) => Array.from({ length: n }, (_, i) => makeS10('QB', i));
const refusal = (input: string[]) => {
  try {
    normalizeCodes(input);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, status: error.status, message: error.message };
  }
  return undefined;
};

describe('normalizeCodes', () => {
  it('cleans spaces and case, keeping the order and the duplicates', () => {
    expect(normalizeCodes([' dg 049186226 br', 'SW371675211BR', 'dg049186226br'])).toEqual([
      'DG049186226BR',
      'SW371675211BR',
      'DG049186226BR',
    ]);
  });

  it('refuses no code with invalid_body, and takes 1 to 50', () => {
    expect(refusal([])).toEqual({
      code: 'invalid_body',
      status: 400,
      message: 'codes: send at least one tracking code.',
    });
    expect(normalizeCodes(codes(1))).toHaveLength(1);
    expect(normalizeCodes(codes(50))).toHaveLength(50);
  });

  it('refuses 51 codes with too_many_codes before looking at any of them', () => {
    expect(refusal([...codes(50), 'not a code'])).toEqual({
      code: 'too_many_codes',
      status: 400,
      message: 'codes: at most 50 tracking codes per request.',
    });
  });

  it('names the first bad code by its index, as it was sent', () => {
    expect(refusal(['DG049186226BR', 'dg049186225br', 'nope'])).toEqual({
      code: 'invalid_body',
      status: 400,
      message:
        'codes.1: "dg049186225br" is not a Correios tracking code (2 letters, 9 digits with a valid check digit, 2 letters)',
    });
  });

  it('repeats at most 24 characters of a refused code, and says how long it was', () => {
    const long = 'X'.repeat(40_000);
    const message = refusal([long])?.message ?? '';
    expect(message).toContain(`"${'X'.repeat(24)}… (40000 characters)"`);
    expect(message.length).toBeLessThan(200);
    expect(refusal(['Y'.repeat(24)])?.message).toContain(`"${'Y'.repeat(24)}" is not`);
    expect(refusal(['Z'.repeat(25)])?.message).toContain(`"${'Z'.repeat(24)}… (25 characters)"`);
  });
});
