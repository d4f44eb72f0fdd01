import { describe, expect, it } from 'vitest';
import { cleanTrackingCode, isS10, makeS10, s10CheckDigit } from './s10.ts';

describe('S10 tracking codes', () => {
  it.each(['DG049186226BR', 'SW371675211BR'])('accepts %s', (code) => {
    expect(isS10(code)).toBe(true);
  });

  it('rejects a changed check digit', () => {
    expect(isS10('DG049186225BR')).toBe(false);
    expect(isS10('SW371675212BR')).toBe(false);
  });

  it.each(['dg049186226br', 'DG04918622BR', 'D1049186226BR', 'DG049186226B', ''])(
    'rejects the malformed %j',
    (code) => {
      expect(isS10(code)).toBe(false);
    },
  );

  it('maps remainder 0 to 5 and remainder 1 to 0', () => {
    expect(s10CheckDigit('00000000')).toBe(5); // sum 0, remainder 0
    expect(s10CheckDigit('70000000')).toBe(0); // sum 56, remainder 1
    expect(s10CheckDigit('40000000')).toBe(1); // sum 32, remainder 10 → 11 − 10
  });

  it('builds codes that pass its own check', () => {
    for (const serial of [0, 1, 4918622, 12345678, 99999999]) {
      const code = makeS10('QB', serial);
      expect(isS10(code)).toBe(true);
    }
    expect(makeS10('DG', 4918622)).toBe('DG049186226BR');
  });

  it('rejects a serial that is not 8 digits', () => {
    expect(() => s10CheckDigit('123')).toThrow(new RangeError('an S10 serial has exactly 8 digits'));
    // a 9-digit serial, or 8 digits with anything before or after, is not a serial
    for (const bad of ['123456789', 'x12345678', '12345678x', '1234567 ']) {
      expect(() => s10CheckDigit(bad)).toThrow(RangeError);
    }
  });

  it('rejects a valid code with anything before or after it (the pattern is anchored)', () => {
    for (const code of [
      'XDG049186226BR',
      'DG049186226BRX',
      '1DG049186226BR',
      'DG049186226BR1',
      'DG049186226BR\n',
    ]) {
      expect(isS10(code)).toBe(false);
    }
  });

  it('cleans spaces and case before a check', () => {
    expect(cleanTrackingCode(' dg 049186226 br ')).toBe('DG049186226BR');
    expect(cleanTrackingCode('dg\t0491  86226\nbr')).toBe('DG049186226BR');
  });
});
