import { describe, expect, it } from 'vitest';
import { centavos, formatBRL, roundCents } from './money.ts';

describe('formatBRL', () => {
  it('formats in pt-BR with the real sign, dot thousands and comma decimals', () => {
    expect(formatBRL(1234.5).replace(/\s/g, ' ')).toBe('R$ 1.234,50');
    expect(formatBRL(0).replace(/\s/g, ' ')).toBe('R$ 0,00');
  });

  it('formats in another locale when asked', () => {
    expect(formatBRL(24.9, 'en-US')).toBe('R$24.90');
  });

  it('matches Intl.NumberFormat for pt-BR and en-US across magnitudes and signs', () => {
    const values = [
      0, 0.005, 0.01, 0.1, 1, 9.99, 21.5, 100, 999.995, 1000, 1234.5, 99999.99, 1234567.891, -1, -1234.5,
    ];
    for (const locale of ['pt-BR', 'en-US']) {
      const intl = new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' });
      for (const value of values)
        expect(formatBRL(value, locale), `${locale} ${value}`).toBe(intl.format(value));
    }
  });

  it('never shows a minus on an amount that rounds to zero (Intl would write -R$ 0,00)', () => {
    expect(formatBRL(-0.004).replace(/\s/g, ' ')).toBe('R$ 0,00');
    expect(formatBRL(-0, 'en-US')).toBe('R$0.00');
    expect(formatBRL(-0.005).replace(/\s/g, ' ')).toBe('-R$ 0,01');
  });

  it('rounds to centavos', () => {
    expect(roundCents(24.905)).toBe(24.91);
  });
});

describe('centavos', () => {
  it('rounds half-up to the centavo, and binary noise is never taken for a half or a centavo', () => {
    expect(centavos(19.99)).toBe(1999);
    expect(centavos(0.1 + 0.2)).toBe(30);
    // 1.005 × 100 is 100.49999999999999 in binary: the half it stands for goes up
    expect(centavos(1.005)).toBe(101);
    expect(centavos(10.125)).toBe(1013);
    expect(centavos(((1990 * 1.1) / 100) as number)).toBe(2189);
    expect(centavos(1_000_000_000_000)).toBe(100_000_000_000_000);
    expect(centavos(0.004)).toBe(0);
    for (let cents = 0; cents <= 200_000; cents += 13) expect(centavos(cents / 100)).toBe(cents);
  });
});
