import { describe, expect, it } from 'vitest';
import { splitStreetLine } from './address.ts';

describe('splitStreetLine (Shopify address1)', () => {
  it.each([
    ['Rua Augusta, 1500', { logradouro: 'Rua Augusta', numero: '1500' }],
    ['Av. Brasil, 200, apto 12', { logradouro: 'Av. Brasil', numero: '200', complemento: 'apto 12' }],
    [
      'Rua Sete de Setembro, 45 - fundos',
      { logradouro: 'Rua Sete de Setembro', numero: '45', complemento: 'fundos' },
    ],
    ['Rua 25 de Março, 1000', { logradouro: 'Rua 25 de Março', numero: '1000' }],
    ['Rua das Flores, nº 12B', { logradouro: 'Rua das Flores', numero: '12B' }],
    ['Travessa Um, s/n', { logradouro: 'Travessa Um', numero: 's/n' }],
    ['  Rua   Larga ,   7  ', { logradouro: 'Rua Larga', numero: '7' }],
  ])('splits "%s"', (line, expected) => {
    expect(splitStreetLine(line)).toEqual({ ...expected, numberFound: true });
  });

  it.each([
    'Rua 25 de Março 1000',
    'Rodovia SP-55, km 12',
    'Rua das Flores, 10-12',
    'Avenida Paulista',
    ', 123',
    'Rua X, apto 5',
    'Rua X, 1234567',
  ])('leaves "%s" whole, number empty, never guessed', (line) => {
    const split = splitStreetLine(line);
    expect(split.numberFound).toBe(false);
    expect(split.numero).toBe('');
    expect(split.logradouro).toBe(line.replace(/\s+/g, ' ').trim());
  });
});
