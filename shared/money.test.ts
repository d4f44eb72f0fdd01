import { describe, expect, it } from 'vitest';
import { formatBRL, roundCents } from './money.ts';

describe('formatBRL', () => {
  it('formats in pt-BR with the real sign, dot thousands and comma decimals', () => {
    expect(formatBRL(1234.5).replace(/\s/g, ' ')).toBe('R$ 1.234,50');
    expect(formatBRL(0).replace(/\s/g, ' ')).toBe('R$ 0,00');
  });

  it('formats in another locale when asked', () => {
    expect(formatBRL(24.9, 'en-US')).toBe('R$24.90');
  });

  it('rounds to centavos', () => {
    expect(roundCents(24.905)).toBe(24.91);
  });
});
