import { describe, expect, it } from 'vitest';
import { ufOfCep } from './uf.ts';

describe('ufOfCep', () => {
  it.each([
    ['01001-000', 'SP'],
    ['01000000', 'SP'],
    ['19999999', 'SP'],
    ['20040-020', 'RJ'],
    ['69300000', 'RR'],
    ['69400000', 'AM'],
    ['68900000', 'AP'],
    ['72800000', 'GO'],
    ['73000000', 'DF'],
    ['70040010', 'DF'],
    ['90000000', 'RS'],
    ['99999999', 'RS'],
  ])('places %s in %s', (cep, uf) => {
    expect(ufOfCep(cep)).toBe(uf);
  });

  it.each(['00000-100', '00999999', '00000-502', '', 'abc'])('knows no state for %j', (cep) => {
    expect(ufOfCep(cep)).toBeUndefined();
  });
});
